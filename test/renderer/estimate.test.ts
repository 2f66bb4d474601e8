import { describe, expect, it } from 'vitest';
import { parseSsml } from '../../electron/shared/ssml';
import { findVoice } from '../../electron/shared/voices';
import { countCharacters, estimateCredits, estimateSeconds } from '../../renderer/src/lib/estimate';

describe('compose estimates', () => {
  it('counts code points of the cleaned text, as the server bills', () => {
    expect(countCharacters('Hello')).toBe(5);
    expect(countCharacters('a😀b')).toBe(3);
    expect(countCharacters('a\r\nb')).toBe(3);
    expect(countCharacters('a\u200Bb\u00AD')).toBe(2);
    expect(countCharacters('e\u0301')).toBe(1);
  });

  it('counts the spoken text of SSML, and half-typed SSML as written', () => {
    expect(countCharacters('<speak>Hi <break time="1s"/> there.</speak>')).toBe('Hi there.'.length);
    const voiced = '<speak>Hi <voice name="en_female_nova_default">there</voice>.</speak>';
    expect(countCharacters(voiced)).toBe(parseSsml(voiced).text.length);
    expect(countCharacters('<speak>Hi <voice name=')).toBe('<speak>Hi <voice name='.length);
  });

  it('prices by the voice and halves turbo on standard voices only', () => {
    const emily = findVoice('en_female_emily_us')!;
    const echo = findVoice('en_male_echo_default')!;
    expect(estimateCredits(1000, emily, 'std-v1.6')).toBe(1000);
    expect(estimateCredits(1000, emily, 'std-v1.5-turbo')).toBe(500);
    expect(estimateCredits(1000, echo, 'std-v1.5-turbo')).toBe(100);
    expect(estimateCredits(3, echo, 'std-v1')).toBe(0.3);
  });

  it('estimates duration inversely to speed', () => {
    expect(estimateSeconds(1400, 2)).toBeCloseTo(estimateSeconds(1400, 1) / 2);
  });

  it('counts a 100,000-character chapter exactly', () => {
    const chapter = 'The sea rolled in long grey lines. '.repeat(2900);
    expect(countCharacters(chapter)).toBe(chapter.length);
  });
});
