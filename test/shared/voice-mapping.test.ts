/** Voice codes that are not ours: the words of a code, the closest voice, aliases, and the option text. */

import { describe, expect, it } from 'vitest';
import {
  closestVoice,
  guessVoiceClue,
  parseVoiceAlias,
  resolveVoiceCode,
  type VoiceMapping,
} from '../../electron/shared/voice-mapping';

const CLOSEST: VoiceMapping = { unknownVoices: 'closest', aliases: {} };

describe('guessVoiceClue', () => {
  it.each([
    // The service's codes, as its collection and its clients write them
    ['hn_female_ngochuyen_full_48k-fhg', { language: 'vi', accent: 'northern', gender: 'female' }],
    ['n_hanoi_female_nguyetnga2_book_vc', { language: 'vi', accent: 'northern', gender: 'female' }],
    ['hn_male_manhdung_news_48k-fhg', { language: 'vi', accent: 'northern', gender: 'male' }],
    ['sg_female_lantrinh_vdts_48k-fhg', { language: 'vi', accent: 'southern', gender: 'female' }],
    ['sg_male_trungkien_vdts_48k-fhg', { language: 'vi', accent: 'southern', gender: 'male' }],
    ['hcm_male_x', { language: 'vi', accent: 'southern', gender: 'male' }],
    ['SAIGON-Female-Y', { language: 'vi', accent: 'southern', gender: 'female' }],
    ['hue_female_huonggiang_full_48k-fhg', { language: 'vi', gender: 'female' }],
    ['vi_male_someone', { language: 'vi', gender: 'male' }],
    ['vi-VN', { language: 'vi' }],
    ['en_male_someone_uk', { language: 'en', gender: 'male' }],
    ['jp_female_hana', { language: 'ja', gender: 'female' }],
  ])('%s names %j', (code, clue) => {
    expect(guessVoiceClue(code)).toEqual(clue);
  });

  it.each(['female_only', 'hnx_female', 'shanghai_male', 'voice-42', 'nova_female_vietnam', ''])(
    '%j names no language (a gender alone is no clue)',
    (code) => {
      expect(guessVoiceClue(code)).toBeUndefined();
    },
  );
});

describe('closestVoice', () => {
  it('picks gender first, then region, then a native accent', () => {
    expect(closestVoice({ language: 'vi', accent: 'northern', gender: 'female' })?.voice_code).toBe(
      'vi_female_thuytrang_mb',
    );
    expect(closestVoice({ language: 'vi', accent: 'southern', gender: 'female' })?.voice_code).toBe(
      'vi_female_kieunhi_mn',
    );
    // No southern man: a northern one, not the southern woman, nor an American-accent voice
    expect(closestVoice({ language: 'vi', accent: 'southern', gender: 'male' })?.voice_code).toBe(
      'vi_male_lehoang_mb',
    );
    expect(closestVoice({ language: 'vi', gender: 'male' })?.voice_code).toBe('vi_male_lehoang_mb');
    expect(closestVoice({ language: 'ja', gender: 'male' })?.voice_code).toBe('jp_female_yuki_default');
    expect(closestVoice({ language: 'en', gender: 'male' })?.voice_code).toBe('en_male_echo_default');
  });
});

describe('resolveVoiceCode', () => {
  it('keeps our own codes whatever the mapping', () => {
    expect(resolveVoiceCode('en_female_emily_us', { unknownVoices: 'refuse', aliases: {} })).toMatchObject({
      voice: { voice_code: 'en_female_emily_us' },
      match: 'exact',
    });
  });

  it('refuses an unknown code under refuse, speaks it with the closest voice under closest', () => {
    const code = 'hn_female_ngochuyen_full_48k-fhg';
    expect(resolveVoiceCode(code, { unknownVoices: 'refuse', aliases: {} })).toBeUndefined();
    expect(resolveVoiceCode(code, CLOSEST)).toMatchObject({
      voice: { voice_code: 'vi_female_thuytrang_mb' },
      match: 'closest',
    });
    expect(resolveVoiceCode('no-clue-at-all', CLOSEST)).toBeUndefined();
  });

  it('lets an alias win over closest, and work under refuse', () => {
    const aliases = { 'hn_female_ngochuyen_full_48k-fhg': 'vi_female_hacuc_mb' };
    for (const unknownVoices of ['refuse', 'closest'] as const) {
      expect(resolveVoiceCode('hn_female_ngochuyen_full_48k-fhg', { unknownVoices, aliases })).toMatchObject({
        voice: { voice_code: 'vi_female_hacuc_mb' },
        match: 'alias',
      });
    }
  });
});

describe('parseVoiceAlias', () => {
  it('reads CODE=OURCODE', () => {
    expect(parseVoiceAlias('hn_female_ngochuyen_full_48k-fhg=vi_female_hacuc_mb')).toEqual([
      'hn_female_ngochuyen_full_48k-fhg',
      'vi_female_hacuc_mb',
    ]);
  });

  it.each([
    ['nothing', /must be CODE=OURCODE/],
    ['=vi_female_hacuc_mb', /must be CODE=OURCODE/],
    ['a=', /must be CODE=OURCODE/],
    ['a=b_c', /"b_c" \(the voice for "a"\) is not one of our voice codes/],
    ['en_female_emily_us=vi_female_hacuc_mb', /already one of our voice codes/],
  ])('refuses %j in one line', (text, message) => {
    expect(() => parseVoiceAlias(text)).toThrow(message);
    try {
      parseVoiceAlias(text);
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });
});
