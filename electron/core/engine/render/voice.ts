/** Which engine voice, model profile and engine settings a request's voice code and prosody mean. */

import { AppError } from '../../../shared/errors';
import type { SynthesisOptions } from '../../../shared/options';
import { findVoice } from '../../../shared/voices';
import type { EngineSettings } from '../espeak/protocol';
import { ENGINE_AMPLITUDE, pitchForRate, rateForSpeed } from '../espeak/prosody';
import { espeakVoiceName, voiceSettings, type VoiceEngineSettings } from '../espeak/voices';
import { modelProfile, type ModelProfile } from '../model-profiles';
import type { PrepareOptions } from '../text/rule-kit';

export interface ResolvedVoice {
  voice: VoiceEngineSettings;
  profile: ModelProfile;
  engine: EngineSettings;
}

/** Resolves a voice code with prosody and model; AppError UNKNOWN_VOICE for a code not in the catalogue. */
export function resolveVoice(
  options: Pick<SynthesisOptions, 'voice_code' | 'speed_rate' | 'pitch_rate'> & {
    model_id?: SynthesisOptions['model_id'];
  },
): ResolvedVoice {
  const info = findVoice(options.voice_code);
  if (!info)
    throw new AppError('UNKNOWN_VOICE', `unknown voice_code: ${options.voice_code}`, {
      field: 'voice_code',
      voice_code: options.voice_code,
    });
  const voice = voiceSettings(options.voice_code);
  const profile = modelProfile(options.model_id ?? 'std-v1.6', info.standard);
  return {
    voice,
    profile,
    engine: {
      voice: espeakVoiceName(voice),
      rate: rateForSpeed(options.speed_rate, voice.fastRateExponent),
      pitch: pitchForRate(options.pitch_rate, voice.basePitch),
      range: profile.range,
      volume: ENGINE_AMPLITUDE,
    },
  };
}

/** Numeric dates: month first for American English, day first elsewhere. */
export function prepareOptions(voice: VoiceEngineSettings): PrepareOptions {
  return {
    dateOrder: voice.espeakVoice === 'en-us' ? 'mdy' : 'dmy',
    // British and Australian English say "one hundred and twenty".
    andAfterHundred: voice.espeakVoice === 'en' || voice.espeakVoice.startsWith('en-gb'),
  };
}

/**
 * How a catalogue voice's renders read numbers and dates (`prepareOptions`: an ambiguous numeric
 * date's order, British "and" after hundred), for the reading of a text in it.
 */
export function readingStyleOf(
  voiceCode: string,
): Required<Pick<PrepareOptions, 'dateOrder' | 'andAfterHundred'>> {
  const { dateOrder = 'mdy', andAfterHundred = false } = prepareOptions(voiceSettings(voiceCode));
  return { dateOrder, andAfterHundred };
}
