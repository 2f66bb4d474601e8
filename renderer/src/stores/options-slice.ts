import { defineMessages } from 'react-intl';
import {
  BITRATES,
  DEFAULT_SYNTHESIS,
  MODEL_IDS,
  RATE_MAX,
  RATE_MIN,
  VOLUME_MAX,
  VOLUME_MIN,
  type AudioType,
  type Bitrate,
  type ModelId,
} from '../../../electron/shared/options';
import { VOICES } from '../../../electron/shared/voices';
import { resolveLocale, type Locale } from '../i18n/locale';
import { mayBeVoiceCode } from '../lib/voice-codes';
import type { Described } from '../lib/intl-text';
import { readJson, type SliceCreator } from './types';
import { storedLocaleChoice, type LocaleChoice } from './ui-slice';

export const OPTIONS_KEY = 'narration-studio.options';
export const DEFAULT_VOICE = 'en_female_emily_us';

/**
 * The voice a fresh studio (no options saved) starts on, by interface language: Emily in
 * English, the catalogue's first Vietnamese voice (Lê Hoàng) in Vietnamese.
 */
export const FIRST_VOICES: Readonly<Record<Locale, string>> = {
  en: DEFAULT_VOICE,
  vi: VOICES.find((v) => v.language === 'vi')!.voice_code,
};

/** Everything the Controls set for the next request. */
export interface StudioOptions {
  voice_code: string;
  model_id: ModelId;
  audio_type: AudioType;
  bitrate: Bitrate;
  speed_rate: number;
  pitch_rate: number;
  volume: number;
  generate_srt: boolean;
  callback_url: string;
}

export const DEFAULT_OPTIONS: StudioOptions = {
  voice_code: DEFAULT_VOICE,
  model_id: DEFAULT_SYNTHESIS.model_id,
  audio_type: DEFAULT_SYNTHESIS.audio_type,
  bitrate: DEFAULT_SYNTHESIS.bitrate,
  speed_rate: DEFAULT_SYNTHESIS.speed_rate,
  pitch_rate: DEFAULT_SYNTHESIS.pitch_rate,
  volume: DEFAULT_SYNTHESIS.volume,
  generate_srt: true,
  callback_url: '',
};

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** Speed or pitch as the API accepts it: 0.5–2.0, one decimal. NaN → `fallback`. */
export function normaliseRate(value: number, fallback = 1): number {
  if (!Number.isFinite(value)) return fallback;
  return Math.round(clamp(value, RATE_MIN, RATE_MAX) * 10) / 10;
}

/** Volume as the API accepts it: integer 50–150. NaN → `fallback`. */
export function normaliseVolume(value: number, fallback = 100): number {
  if (!Number.isFinite(value)) return fallback;
  return Math.round(clamp(value, VOLUME_MIN, VOLUME_MAX));
}

/**
 * Options made valid: unknown values fall back to defaults (a voice to `firstVoice`, the
 * interface language's first voice in the studio's store), numbers are clamped and rounded.
 */
export function sanitiseOptions(
  input: Partial<StudioOptions> | undefined,
  firstVoice: string = DEFAULT_VOICE,
): StudioOptions {
  const o = { ...DEFAULT_OPTIONS, ...input };
  return {
    // A custom voice's code too: the custom voices' list drops it once it is known to be gone.
    voice_code: mayBeVoiceCode(o.voice_code) ? o.voice_code : firstVoice,
    model_id: (MODEL_IDS as readonly string[]).includes(o.model_id) ? o.model_id : DEFAULT_OPTIONS.model_id,
    audio_type: o.audio_type === 'wav' ? 'wav' : 'mp3',
    bitrate: (BITRATES as readonly number[]).includes(o.bitrate) ? o.bitrate : DEFAULT_OPTIONS.bitrate,
    speed_rate: normaliseRate(Number(o.speed_rate)),
    pitch_rate: normaliseRate(Number(o.pitch_rate)),
    volume: normaliseVolume(Number(o.volume)),
    generate_srt: Boolean(o.generate_srt),
    callback_url: typeof o.callback_url === 'string' ? o.callback_url : '',
  };
}

const callbackMessages = defineMessages({
  scheme: { id: 'controls.callback.scheme', defaultMessage: 'Use an http:// or https:// address.' },
  incomplete: {
    id: 'controls.callback.incomplete',
    defaultMessage: 'This is not a complete address (e.g. http://127.0.0.1:9000/hook).',
  },
});

/** A problem with the callback URL, or null when it is empty or a valid http(s) URL. */
export function callbackUrlProblem(url: string): Described | null {
  if (url.trim() === '') return null;
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === 'http:' || parsed.protocol === 'https:'
      ? null
      : { message: callbackMessages.scheme };
  } catch {
    return { message: callbackMessages.incomplete };
  }
}

export interface OptionsSlice {
  options: StudioOptions;
  /** Sets one option; numbers are clamped into the API's range so invalid values cannot be sent. */
  setOption<K extends keyof StudioOptions>(key: K, value: StudioOptions[K]): void;
  /** Replaces every option at once (a request opened from History); made valid first. */
  setOptions(options: StudioOptions): void;
  /** Speed, pitch and volume back to 1.0, 1.0, 100. */
  resetProsody(): void;
  /**
   * The interface language changed: a studio that never saved its options moves to the first
   * voice of that language (FIRST_VOICES); saved options stay as they are.
   */
  followInterfaceLanguage(locale: LocaleChoice): void;
  /**
   * The voice the studio falls back to when its voice is gone (a custom voice deleted) or was
   * never valid: the first voice of the interface language (FIRST_VOICES), as a fresh studio's.
   */
  firstVoice(): string;
}

export const createOptionsSlice: SliceCreator<OptionsSlice> =
  ({ storage, languages = [] }) =>
  (set, get) => {
    const save = (options: StudioOptions) => {
      set({ options });
      storage.setItem(OPTIONS_KEY, JSON.stringify(options));
    };
    const firstVoice = (choice: LocaleChoice) => FIRST_VOICES[resolveLocale(choice, languages)];
    const firstVoiceNow = () => firstVoice(get().locale);
    const startVoice = firstVoice(storedLocaleChoice(storage));
    return {
      options: sanitiseOptions(
        { voice_code: startVoice, ...readJson<Partial<StudioOptions>>(storage, OPTIONS_KEY) },
        startVoice,
      ),
      setOption(key, value) {
        save(sanitiseOptions({ ...get().options, [key]: value }, firstVoiceNow()));
      },
      setOptions(options) {
        save(sanitiseOptions(options, firstVoiceNow()));
      },
      resetProsody() {
        const { speed_rate, pitch_rate, volume } = DEFAULT_OPTIONS;
        save({ ...get().options, speed_rate, pitch_rate, volume });
      },
      followInterfaceLanguage(locale) {
        if (storage.getItem(OPTIONS_KEY) !== null) return;
        set({ options: { ...get().options, voice_code: firstVoice(locale) } });
      },
      firstVoice: firstVoiceNow,
    };
  };
