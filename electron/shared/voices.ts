/**
 * The voice catalogue of the cloud service (spec: "Voices"), with what the UI and the API
 * need to know about each voice. Engine settings for each code live in
 * `electron/core/engine/espeak/voices.ts`; this file holds only data both sides share.
 */

import { LANGUAGE_NAMES, type LanguageCode } from './languages';

export { LANGUAGE_NAMES, type LanguageCode };
export type Gender = 'male' | 'female';
/** Price in credits per 1000 characters of input. */
export type VoicePrice = 100 | 1000;

export interface VoiceInfo {
  voice_code: string;
  /** Display name, e.g. "Lê Hoàng". */
  name: string;
  language: LanguageCode;
  language_name: string;
  gender: Gender;
  /**
   * The accent, as the studio shows it and filters by it: one capitalised word of ACCENTS
   * ("Northern", "American"). The spec's table writes "northern" and "American-accent"; whether
   * the engine only approximates it is `accent_approximated`, a note, not another accent.
   */
  accent: Accent;
  /** Credits per 1000 characters. */
  price: VoicePrice;
  /** Whether `model_id` applies (the spec's "standard voices"). */
  standard: boolean;
  /**
   * True where the engine has no such accent and the voice only approximates it
   * (e.g. Australian or Indian English), so the UI can say so honestly.
   */
  accent_approximated: boolean;
}

/** Every accent of the catalogue, each spelt once (a filter lists them as they are). */
export const ACCENTS = [
  'Northern',
  'Southern',
  'American',
  'British',
  'Australian',
  'Indian',
  'Mandarin',
  'Standard',
] as const;
export type Accent = (typeof ACCENTS)[number];

type Row = [
  code: string,
  name: string,
  gender: Gender,
  accent: Accent,
  price: VoicePrice,
  approximated?: boolean,
];

function rows(language: LanguageCode, list: Row[]): VoiceInfo[] {
  return list.map(([voice_code, name, gender, accent, price, approximated]) => ({
    voice_code,
    name,
    language,
    language_name: LANGUAGE_NAMES[language],
    gender,
    accent,
    price,
    // The six OpenAI-style "*_default" voices with price 100 are not standard voices.
    standard: !/_(echo|nova|onyx)_default$/.test(voice_code),
    accent_approximated: approximated ?? false,
  }));
}

/** All 26 voices of the spec, in the spec's order. */
export const VOICES: readonly VoiceInfo[] = [
  ...rows('vi', [
    ['vi_male_lehoang_mb', 'Lê Hoàng', 'male', 'Northern', 1000],
    ['vi_female_thuytrang_mb', 'Thùy Trang', 'female', 'Northern', 1000],
    ['vi_male_minhtriet_mb', 'Minh Triết', 'male', 'Northern', 1000],
    // The spec's "American-accent": the engine cannot speak Vietnamese with an American accent,
    // so these read Vietnamese natively (approximated).
    ['vi_male_echo_default', 'Echo', 'male', 'American', 100, true],
    ['vi_female_nova_default', 'Nova', 'female', 'American', 100, true],
    ['vi_male_onyx_default', 'Onyx', 'male', 'American', 100, true],
    ['vi_female_hacuc_mb', 'Hạ Cúc', 'female', 'Northern', 1000],
    ['vi_male_ductrong_mb', 'Đức Trọng', 'male', 'Northern', 1000],
    ['vi_female_kieunhi_mn', 'Kiều Nhi', 'female', 'Southern', 1000],
    ['vi_female_huyenanh_mb', 'Huyền Anh', 'female', 'Northern', 1000],
    ['vi_female_halinh_mb', 'Hà Linh', 'female', 'Northern', 1000],
    ['vi_female_hoaian_mb', 'Hoài An', 'female', 'Northern', 1000],
    ['vi_female_khanhhuyentvc_mb', 'Khánh Huyền', 'female', 'Northern', 1000],
  ]),
  ...rows('en', [
    ['en_male_echo_default', 'Echo', 'male', 'American', 100],
    ['en_female_nova_default', 'Nova', 'female', 'American', 100],
    ['en_male_onyx_default', 'Onyx', 'male', 'American', 100],
    ['en_female_emily_us', 'Emily', 'female', 'American', 1000],
    ['en_female_alice_default', 'Alice', 'female', 'American', 1000],
    // eSpeak NG has no Australian or Indian English; these are the nearest accents it has.
    ['en_female_jessica_au', 'Jessica', 'female', 'Australian', 1000, true],
    ['en_female_elara_br', 'Elara', 'female', 'British', 1000],
    ['en_female_meera_indian', 'Meera', 'female', 'Indian', 1000, true],
  ]),
  ...rows('zh', [['zh_female_liu-ying_default', 'Liu Ying', 'female', 'Mandarin', 1000]]),
  ...rows('ja', [['jp_female_yuki_default', 'Yuki', 'female', 'Standard', 1000]]),
  ...rows('ko', [['kr_female_seo-yeon_default', 'Seo-yeon', 'female', 'Standard', 1000]]),
  ...rows('fr', [['fr_female_camille_default', 'Camille', 'female', 'Standard', 1000]]),
  ...rows('es', [['es_female_elana_default', 'Elana', 'female', 'Standard', 1000]]),
];

const BY_CODE = new Map(VOICES.map((v) => [v.voice_code, v]));

/** The voice with this exact code, or undefined. */
export function findVoice(code: string): VoiceInfo | undefined {
  return BY_CODE.get(code);
}
