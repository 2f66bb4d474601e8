/**
 * Voice codes as the studio's pickers hold them: a catalogue code or the code of one of the
 * user's own voices (shared/custom-voices.ts), with what the catalogue says of either.
 */

import { defineMessages, type IntlShape } from 'react-intl';
import {
  CUSTOM_VOICE_CODE_PATTERN,
  type CustomVoice,
  type CustomVoiceBase,
} from '../../../electron/shared/custom-voices';
import { findVoice, type VoiceInfo } from '../../../electron/shared/voices';
import { currentIntl } from './intl-text';

const m = defineMessages<{ blend: { parts: string } }>({
  blend: { id: 'lib.voiceCodes.blend', defaultMessage: 'Kokoro blend {parts}' },
});

const CUSTOM_CODE_RE = new RegExp(CUSTOM_VOICE_CODE_PATTERN);

/**
 * A code a picker may hold before the custom voices are loaded: a catalogue code, or one shaped
 * as a custom voice's code (the server says when no such voice exists).
 */
export function mayBeVoiceCode(code: unknown): code is string {
  return typeof code === 'string' && (findVoice(code) !== undefined || CUSTOM_CODE_RE.test(code));
}

/** The catalogue voice that prices and prepares text for `code`: itself, or a custom voice's `voice_code`. */
export function catalogueVoiceOf(code: string, customVoices: readonly CustomVoice[]): VoiceInfo | undefined {
  const custom = customVoices.find((v) => v.code === code);
  return findVoice(custom ? custom.voice_code : code);
}

/** A voice code's name as pickers show it (a custom voice's own name; the code when unknown). */
export function voiceNameOf(code: string, customVoices: readonly CustomVoice[]): string {
  return customVoices.find((v) => v.code === code)?.name ?? findVoice(code)?.name ?? code;
}

/** Each part's share of a blend, in percent (weights normalised to sum 100). */
export function blendShares(weights: readonly number[]): number[] {
  const valid = weights.map((w) => (Number.isFinite(w) && w > 0 ? w : 0));
  const total = valid.reduce((a, b) => a + b, 0);
  return valid.map((w) => (total > 0 ? (w / total) * 100 : 0));
}

/** The base in a few words: `vi_female_thuytrang_mb`, `pack vi_VN-… · speaker 3`, `Kokoro blend af_heart 60 % + …`. */
export function describeBase(base: CustomVoiceBase, intl: IntlShape = currentIntl()): string {
  if (base.kind === 'code') return base.voice_code;
  if (base.kind === 'pack') return `${base.pack_id}${base.speaker ? ` · ${base.speaker}` : ''}`;
  const shares = blendShares(base.parts.map((p) => p.weight));
  const parts = base.parts.map((p, i) => `${p.voice} ${Math.round(shares[i]!)} %`).join(' + ');
  return intl.formatMessage(m.blend, { parts });
}
