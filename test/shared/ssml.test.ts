/**
 * The SSML parser: the spoken text (what subtitles show and pricing counts), runs of voice and
 * prosody, readings, breaks, marks and edges at the right offsets, warnings for unsupported
 * elements, and SSML_INVALID with the line and column of what is wrong.
 */

import { describe, expect, it } from 'vitest';
import { isAppError } from '../../electron/shared/errors';
import {
  BREAK_STRENGTH_MS,
  isSsml,
  parseSsml,
  spokenText,
  ssmlVoiceNames,
  ssmlWarnings,
  type SsmlDocument,
} from '../../electron/shared/ssml';
import { countCharacters } from '../../electron/shared/text';

const VOICE = 'en_male_onyx_default';
const parse = (source: string): SsmlDocument => parseSsml(source, { voiceCode: VOICE });

/** The AppError `parse` throws for `source`: its code, message and place. */
function failure(source: string) {
  try {
    parse(source);
  } catch (error) {
    if (isAppError(error)) return { code: error.code, message: error.message, ...error.details };
    throw error;
  }
  throw new Error(`parsed: ${source}`);
}

describe('isSsml', () => {
  it('is SSML only when the first non-space characters open <speak>', () => {
    expect(isSsml('<speak>Hi</speak>')).toBe(true);
    expect(isSsml('  \n<speak version="1.1">Hi</speak>')).toBe(true);
    expect(isSsml('<speak/>')).toBe(true);
    expect(isSsml('Say <speak>Hi</speak>')).toBe(false);
    expect(isSsml('<speaker>Hi</speaker>')).toBe(false);
    expect(isSsml('<b>Hi</b>')).toBe(false);
  });
});

describe('the spoken text', () => {
  it('is the text between the tags, whitespace collapsed, paragraphs and sentences apart', () => {
    const doc = parse(`<?xml version="1.0"?>
<speak version="1.1" xmlns="http://www.w3.org/2001/10/synthesis">
  <!-- a comment is not read -->
  <p>
    <s>First  sentence</s>
    <s>Second one</s>
  </p>
  <p>Fish &amp; chips &lt;3 &#x41;&#66; <![CDATA[<raw> & all]]></p>
</speak>`);
    expect(doc.text).toBe('First sentence Second one\n\nFish & chips <3 AB <raw> & all');
    expect(doc.warnings).toEqual([]);
  });

  it('keeps the written words of <sub>, <phoneme> and <say-as> and counts only them for pricing', () => {
    const source =
      '<speak>The <sub alias="World Wide Web">WWW</sub> of <phoneme alphabet="ipa" ph="ˈtʃʌmli">Cholmondeley</phoneme>, ' +
      'call <say-as interpret-as="telephone">555-0100</say-as>.</speak>';
    const doc = parse(source);
    expect(doc.text).toBe('The WWW of Cholmondeley, call 555-0100.');
    expect(countCharacters(spokenText(source))).toBe(doc.text.length);
    expect(doc.readings).toEqual([
      { kind: 'sub', alias: 'World Wide Web', start: 4, end: 7 },
      { kind: 'phoneme', ipa: 'ˈtʃʌmli', start: 11, end: 23 },
      { kind: 'say-as', interpretAs: 'telephone', format: undefined, start: 30, end: 38 },
    ]);
    for (const r of doc.readings) expect(doc.text.slice(r.start, r.end)).not.toMatch(/^\s|\s$/u);
  });

  it('leaves text that is not SSML as it is', () => {
    expect(spokenText('Plain <b>text</b>')).toBe('Plain <b>text</b>');
    expect(ssmlWarnings('Plain <b>text</b>')).toBeUndefined();
  });
});

describe('breaks, marks and edges', () => {
  it('places each at its offset, in document order, with times and strengths in ms', () => {
    const doc = parse(
      '<speak>One <break time="700ms"/>two<break time="1.5s"/> <mark name="m"/>three<break strength="weak"/><break/>' +
        '<break strength="none"/></speak>',
    );
    expect(doc.text).toBe('One two three');
    expect(doc.events).toEqual([
      { kind: 'break', offset: 4, ms: 700 },
      { kind: 'break', offset: 7, ms: 1500 },
      // Where the break left off: before the space owed to the next word.
      { kind: 'mark', offset: 7, name: 'm' },
      { kind: 'break', offset: 13, ms: BREAK_STRENGTH_MS.weak },
      { kind: 'break', offset: 13, ms: BREAK_STRENGTH_MS.medium },
      { kind: 'break', offset: 13, ms: 0 },
    ]);
  });

  it('records the edges of <p> and <s> at the end of the words before them', () => {
    const doc = parse('<speak><p><s>A b.</s> <s>C d</s></p><p>E</p></speak>');
    expect(doc.text).toBe('A b. C d\n\nE');
    expect(doc.events.filter((e) => e.kind === 'edge' && e.offset === 4)).toHaveLength(2);
    expect(doc.events).toContainEqual({ kind: 'edge', offset: 8, edge: 'paragraph' });
  });
});

describe('runs of voice and prosody', () => {
  it('switch voices with <voice> and <lang>, and multiply prosody factors when nested', () => {
    const doc = parse(
      '<speak>Hi <voice name="en_female_nova_default">there <prosody rate="slow" pitch="+12st" volume="-6dB">' +
        '<prosody rate="x-fast">now</prosody></prosody></voice> <lang xml:lang="fr-FR">Bonjour</lang> end</speak>',
    );
    expect(doc.text).toBe('Hi there now Bonjour end');
    const at = (word: string) =>
      doc.runs.find((r) => r.start <= doc.text.indexOf(word) && doc.text.indexOf(word) < r.end)!;
    expect(at('Hi')).toMatchObject({ voiceCode: undefined, rate: 1, pitch: 1, volume: 1 });
    expect(at('there')).toMatchObject({ voiceCode: 'en_female_nova_default', rate: 1 });
    const now = at('now');
    expect(now.rate).toBeCloseTo(0.75 * 2);
    expect(now.pitch).toBeCloseTo(2);
    expect(now.volume).toBeCloseTo(0.501, 2);
    expect(at('Bonjour').voiceCode).toBe('fr_female_camille_default');
    expect(at('end').voiceCode).toBeUndefined();
    expect(doc.voiceCodes).toEqual(['en_female_nova_default', 'fr_female_camille_default']);
    // Runs are consecutive and cover the text.
    expect(doc.runs[0]!.start).toBe(0);
    expect(doc.runs.at(-1)!.end).toBe(doc.text.length);
    for (let i = 1; i < doc.runs.length; i++) expect(doc.runs[i]!.start).toBe(doc.runs[i - 1]!.end);
  });

  it("speaks a custom voice named in <voice name> as its voice code, its prosody times the document's", () => {
    const customVoices = {
      'quick-nova': { voice_code: 'en_female_nova_default', prosody: { speed: 2, pitch: 0.8, volume: 50 } },
    };
    const source =
      '<speak>Hi <voice name="quick-nova">fast <prosody rate="slow">slower</prosody></voice> ' +
      '<voice name="en_female_nova_default">plain</voice></speak>';
    const doc = parseSsml(source, { voiceCode: 'en_male_onyx_default', customVoices });
    const at = (word: string) =>
      doc.runs.find((r) => r.start <= doc.text.indexOf(word) && doc.text.indexOf(word) < r.end)!;
    expect(at('Hi').speaker).toBeUndefined();
    expect(at('fast')).toMatchObject({ voiceCode: 'en_female_nova_default', speaker: 'quick-nova', rate: 2 });
    expect(at('fast').pitch).toBeCloseTo(0.8);
    expect(at('fast').volume).toBeCloseTo(0.5);
    expect(at('slower').rate).toBeCloseTo(2 * 0.75);
    expect(at('plain')).toMatchObject({ voiceCode: 'en_female_nova_default', rate: 1 });
    expect(at('plain').speaker).toBeUndefined();
    expect(doc.speakers).toEqual(['quick-nova']);
    expect(ssmlVoiceNames(source)).toEqual(['quick-nova', 'en_female_nova_default']);
    // Without the definition, the name is no voice.
    expect(() => parseSsml(source)).toThrow(/unknown voice "quick-nova"/);
  });

  it('reads emphasis as a modest slowing, rise and lift, and reduced as the opposite', () => {
    const doc = parse('<speak><emphasis>a</emphasis> <emphasis level="reduced">b</emphasis></speak>');
    const [strong, reduced] = doc.runs.filter((r) => r.rate !== 1);
    expect(strong!.rate).toBeLessThan(1);
    expect(strong!.pitch).toBeGreaterThan(1);
    expect(strong!.volume).toBeGreaterThan(1);
    expect(reduced!.rate).toBeGreaterThan(1);
    expect(reduced!.volume).toBeLessThan(1);
  });

  it('accepts the forms of rate, pitch and volume within the API bounds', () => {
    const factor = (attr: string) => parse(`<speak><prosody ${attr}>x</prosody></speak>`).runs[0]!;
    expect(factor('rate="150%"').rate).toBeCloseTo(1.5);
    expect(factor('rate="+20%"').rate).toBeCloseTo(1.2);
    expect(factor('rate="0.5"').rate).toBeCloseTo(0.5);
    expect(factor('pitch="-10%"').pitch).toBeCloseTo(0.9);
    expect(factor('pitch="x-high"').pitch).toBeCloseTo(1.6);
    expect(factor('volume="+3dB"').volume).toBeCloseTo(1.413, 3);
    expect(factor('volume="silent"').volume).toBe(0);
    expect(factor('volume="loud"').volume).toBeCloseTo(1.25);
  });
});

describe('warnings', () => {
  it('reads an unsupported element as its text and warns with its place', () => {
    const source =
      '<speak>Hello\n  <audio src="x.mp3">beep</audio> <amazon:effect name="whispered">quiet</amazon:effect></speak>';
    const doc = parse(source);
    expect(doc.text).toBe('Hello beep quiet');
    expect(doc.warnings).toEqual([
      { message: '<audio> is not supported; its text is read as written', line: 2, column: 3, offset: 15 },
      expect.objectContaining({ line: 2, column: 35 }),
    ]);
    expect(ssmlWarnings(source)).toEqual([
      '<audio> is not supported; its text is read as written (line 2, column 3)',
      '<amazon:effect> is not supported; its text is read as written (line 2, column 35)',
    ]);
  });

  it('gives the error of a document it cannot parse as its one warning', () => {
    expect(ssmlWarnings('<speak>Hi <b>x</speak>')).toEqual([expect.stringMatching(/^SSML: <\/speak> found/)]);
  });
});

describe('SSML_INVALID', () => {
  it.each([
    ['<speak>Hi <emphasis>x</speak>', 1, 22, /<\/speak> found where <\/emphasis> was expected/],
    ['<speak>Hi\n<p>x', 2, 1, /<p> is not closed/],
    ['<speak>Hi</speak> after', 1, 19, /inside <speak>/],
    ['Hi <speak>x</speak>', 1, 1, /inside <speak>|start with <speak>/],
    ['<speak>a &b c</speak>', 1, 10, /"&" must start an entity/],
    ['<speak>a &foo; c</speak>', 1, 10, /unknown entity "&foo;"/],
    ['<speak>a &#xD800; c</speak>', 1, 10, /not a valid character reference/],
    ['<speak><break time=500ms/></speak>', 1, 20, /must be in quotes/],
    ['<speak><break time="500ms" time="1s"/></speak>', 1, 28, /given twice/],
    ['<speak><break time="20s"/></speak>', 1, 15, /over 10 s/],
    ['<speak><break strength="huge"/></speak>', 1, 15, /break strength must be one of/],
    ['<speak><break>x</break></speak>', 1, 8, /<break> must be empty/],
    ['<speak><prosody rate="3">x</prosody></speak>', 1, 17, /outside the API's bounds/],
    ['<speak><prosody pitch="-2000%">x</prosody></speak>', 1, 17, /pitch/],
    ['<speak><prosody pitch="200Hz">x</prosody></speak>', 1, 17, /semitones/],
    ['<speak><prosody volume="+20dB">x</prosody></speak>', 1, 17, /outside the API's bounds/],
    ['<speak><voice name="someone">x</voice></speak>', 1, 15, /unknown voice "someone"/],
    ['<speak><voice>x</voice></speak>', 1, 8, /needs the attribute name/],
    ['<speak><say-as interpret-as="weather">x</say-as></speak>', 1, 16, /interpret-as must be one of/],
    ['<speak><sub alias="x"><b>y</b></sub></speak>', 1, 23, /holds only text/],
    ['<speak><sub alias="x"> </sub></speak>', 1, 8, /<sub> has no text/],
    [
      '<speak><phoneme alphabet="x-sampa" ph="a">x</phoneme></speak>',
      1,
      17,
      /alphabet "x-sampa" is not supported/,
    ],
    ['<speak><phoneme ph="ʘʘ">x</phoneme></speak>', 1, 17, /phoneme ph "ʘʘ"/],
    ['<speak><mark/></speak>', 1, 8, /needs the attribute name/],
    ['<speak><!DOCTYPE x></speak>', 1, 8, /document type/],
    ['<speak><speak>x</speak></speak>', 1, 8, /may not be nested/],
    ['<speak>x</b></speak>', 1, 9, /<\/b> found where <\/speak> was expected/],
    ['<speak>Hi <break time="1s"', 1, 11, /<break> is not closed with ">"/],
    ['<speak>Hi <!-- note', 1, 11, /comment is not closed/],
    ['<speak>Hi </>', 1, 13, /a tag name is expected/],
    ['<speak>a &amp; b &c d</speak>', 1, 18, /"&" must start an entity/],
    ['<speak><break time="1s" strength="weak"/></speak></b>', 1, 50, /<\/b> closes no open element/],
    ['<speak>\r\n  <break time="1s"\r\n  time="2s"/></speak>', 3, 3, /given twice/],
    ['<speak><break time="1s"/ ></speak>', 1, 25, /">" expected after "\/"/],
    ['<speak>a ]]> b</speak>', 1, 10, /"]]>" is not allowed in text/],
  ])('%s → line %i, column %i', (source, line, column, message) => {
    const error = failure(source);
    expect(error).toMatchObject({ code: 'SSML_INVALID', field: 'input_text', line, column });
    expect(error.message).toMatch(message);
    expect(error.message).toContain(`(line ${line}, column ${column})`);
  });
});
