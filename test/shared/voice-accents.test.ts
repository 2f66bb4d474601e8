/**
 * The catalogue's accents, as the studio lists and filters them: one capitalised word each, the
 * spec's "American-accent" and "northern" spelt like the others, and "approximated" a note on
 * the voice, never a separate accent.
 */

import { describe, expect, it } from 'vitest';
import { ACCENTS, findVoice, VOICES } from '../../electron/shared/voices';
import { closestVoice } from '../../electron/shared/voice-mapping';
import { accentText, describeVoice } from '../../renderer/src/components/VoiceSelect';

describe('accents', () => {
  it('are capitalised words of one list, each spelt once', () => {
    for (const v of VOICES) {
      expect(ACCENTS, v.voice_code).toContain(v.accent);
      expect(v.accent, v.voice_code).toMatch(/^[A-Z][a-z]+$/);
    }
    // What an accent filter offers: no "American-accent", no lower-case "northern".
    expect([...new Set(VOICES.map((v) => v.accent))].sort()).toEqual([
      'American',
      'Australian',
      'British',
      'Indian',
      'Mandarin',
      'Northern',
      'Southern',
      'Standard',
    ]);
  });

  it("keep the spec's American-accent Vietnamese voices American, with the approximation as a note", () => {
    const nova = findVoice('vi_female_nova_default')!;
    expect(nova.accent).toBe('American');
    expect(nova.accent_approximated).toBe(true);
    expect(accentText(nova)).toBe('American (approximated)');
    expect(describeVoice(nova)).toBe('Nova · Vietnamese · American accent (approximated) · female');
    const emily = findVoice('en_female_emily_us')!;
    expect(accentText(emily)).toBe('American');
    expect(findVoice('vi_male_lehoang_mb')!.accent).toBe('Northern');
    expect(findVoice('vi_female_kieunhi_mn')!.accent).toBe('Southern');
  });

  it('still match the lower-case region of a voice code from another service', () => {
    expect(closestVoice({ language: 'vi', accent: 'southern', gender: 'female' })?.voice_code).toBe(
      'vi_female_kieunhi_mn',
    );
  });
});
