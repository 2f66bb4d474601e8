/**
 * How each voice code of the catalogue is spoken by eSpeak NG: base language voice,
 * variant (timbre and pitch family), base pitch, and a make-up gain that evens out
 * loudness between variants. Chosen so that no two voices of one language sound the
 * same (test/core/engine/espeak/voices.test.ts measures it) and so that every voice keeps the
 * prosody ranges of the API (speed, pitch and volume behave the same for all).
 *
 * Variants were picked by measurement (median F0, duration at 0.5×/2× speed): variants
 * that change speaking rate on their own (Andrea, anika) or whose pitch barely moves
 * (Annie in British voices) are not used.
 */

import { findVoice, type LanguageCode, VOICES } from '../../../shared/voices';
import { AppError } from '../../../shared/errors';

export interface VoiceEngineSettings {
  /** eSpeak language voice, e.g. "vi", "vi-vn-x-south", "en-us", "en-gb-x-rp", "cmn". */
  espeakVoice: string;
  /** eSpeak variant file, e.g. "f3", "m8", "steph". */
  variant: string;
  /**
   * Variant family for the distinctness rule: variants of one family ("f1".."f5",
   * "m1".."m8") share a timbre model and must differ in pitch instead.
   */
  family: string;
  /** eSpeak pitch at pitch_rate 1.0 (0–100; 50 is the variant's own pitch). */
  basePitch: number;
  /** Language used for text preparation. */
  language: LanguageCode;
  /** Exponent on speed_rate above 1 (see rateForSpeed); 1 for most voices. */
  fastRateExponent: number;
}

/** Languages whose eSpeak duration does not halve at twice the rate (measured). */
const FAST_RATE_EXPONENT: Partial<Record<string, number>> = { es: 1.25 };

type Row = [code: string, espeakVoice: string, variant: string, basePitch: number];

const ROWS: Row[] = [
  // Vietnamese: northern (_mb) use the default "vi" voice, southern (_mn) "vi-vn-x-south".
  ['vi_male_lehoang_mb', 'vi', 'Nguyen', 50],
  ['vi_female_thuytrang_mb', 'vi', 'f2', 44],
  ['vi_male_minhtriet_mb', 'vi', 'm3', 50],
  ['vi_male_echo_default', 'vi', 'Alex', 50],
  ['vi_female_nova_default', 'vi', 'Annie', 50],
  ['vi_male_onyx_default', 'vi', 'm8', 44],
  ['vi_female_hacuc_mb', 'vi', 'aunty', 50],
  ['vi_male_ductrong_mb', 'vi', 'edward', 56],
  ['vi_female_kieunhi_mn', 'vi-vn-x-south', 'f3', 54],
  ['vi_female_huyenanh_mb', 'vi', 'f5', 56],
  ['vi_female_halinh_mb', 'vi', 'belinda', 44],
  ['vi_female_hoaian_mb', 'vi', 'linda', 58],
  ['vi_female_khanhhuyentvc_mb', 'vi', 'steph', 50],
  // English: eSpeak has American and British English; Australian is approximated with
  // British (non-rhotic) and Indian with Caribbean English (syllable-timed rhythm).
  ['en_male_echo_default', 'en-us', 'Alex', 50],
  ['en_female_nova_default', 'en-us', 'f3', 50],
  ['en_male_onyx_default', 'en-us', 'david', 50],
  ['en_female_emily_us', 'en-us', 'linda', 50],
  ['en_female_alice_default', 'en-us', 'steph', 50],
  ['en_female_jessica_au', 'en', 'f4', 50],
  ['en_female_elara_br', 'en-gb-x-rp', 'belinda', 50],
  ['en_female_meera_indian', 'en-029', 'aunty', 50],
  ['zh_female_liu-ying_default', 'cmn', 'f2', 50],
  ['jp_female_yuki_default', 'ja', 'f3', 50],
  ['kr_female_seo-yeon_default', 'ko', 'f5', 50],
  ['fr_female_camille_default', 'fr', 'f1', 50],
  ['es_female_elana_default', 'es', 'f4', 50],
];

function familyOf(variant: string): string {
  return /^[fm]\d$/.test(variant) ? variant[0]! : variant.replace(/\d+$/, '').toLowerCase();
}

const SETTINGS = new Map<string, VoiceEngineSettings>(
  ROWS.map(([code, espeakVoice, variant, basePitch]) => {
    const info = findVoice(code);
    if (!info) throw new Error(`voice table names an unknown code: ${code}`);
    return [
      code,
      {
        espeakVoice,
        variant,
        family: familyOf(variant),
        basePitch,
        language: info.language,
        fastRateExponent: FAST_RATE_EXPONENT[espeakVoice] ?? 1,
      },
    ];
  }),
);

if (SETTINGS.size !== VOICES.length) throw new Error('every catalogue voice needs engine settings');

/** Engine settings of a catalogue voice; throws AppError UNKNOWN_VOICE for an unknown code. */
export function voiceSettings(voiceCode: string): VoiceEngineSettings {
  const settings = SETTINGS.get(voiceCode);
  if (!settings)
    throw new AppError('UNKNOWN_VOICE', `unknown voice_code: ${voiceCode}`, {
      field: 'voice_code',
      voice_code: voiceCode,
    });
  return settings;
}

/** The eSpeak voice name with variant, as `set_voice` takes it. */
export function espeakVoiceName(settings: VoiceEngineSettings): string {
  return `${settings.espeakVoice}+${settings.variant}`;
}
