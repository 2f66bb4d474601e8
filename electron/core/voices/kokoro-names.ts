/**
 * Kokoro-FastAPI's voice names: the 54 voices of Kokoro-82M v1.0 (hexgrad/Kokoro-82M's
 * VOICES.md; remsky/Kokoro-FastAPI ships the same files under `api/src/voices/v1_0/`) and its
 * mixes `af_bella+af_sky`, `af_bella(2)+af_sky(1)`, `af_bella-af_sky`. What speaks a name:
 * that Kokoro voice (or the blend of the mix's style vectors) when an installed Kokoro pack
 * holds every part, otherwise our catalogue voice of the first part's language and gender.
 */

import { AppError } from '../../shared/errors';
import type { KokoroVoice, PackManifest } from '../../shared/voice-packs';
import { VOICES, type VoiceInfo } from '../../shared/voices';
import { kokoroVoiceInfo } from './catalogue';

/** Kokoro v1.0's voices, as Kokoro-FastAPI lists them (its extra `af_jadzia` aside). */
// prettier-ignore
export const KOKORO_V1_VOICES: readonly string[] = [
  'af_heart', 'af_alloy', 'af_aoede', 'af_bella', 'af_jessica', 'af_kore', 'af_nicole', 'af_nova',
  'af_river', 'af_sarah', 'af_sky', 'am_adam', 'am_echo', 'am_eric', 'am_fenrir', 'am_liam',
  'am_michael', 'am_onyx', 'am_puck', 'am_santa', 'bf_alice', 'bf_emma', 'bf_isabella', 'bf_lily',
  'bm_daniel', 'bm_fable', 'bm_george', 'bm_lewis', 'ef_dora', 'em_alex', 'em_santa', 'ff_siwis',
  'hf_alpha', 'hf_beta', 'hm_omega', 'hm_psi', 'if_sara', 'im_nicola', 'jf_alpha', 'jf_gongitsune',
  'jf_nezumi', 'jf_tebukuro', 'jm_kumo', 'pf_dora', 'pm_alex', 'pm_santa', 'zf_xiaobei', 'zf_xiaoni',
  'zf_xiaoxiao', 'zf_xiaoyi', 'zm_yunjian', 'zm_yunxi', 'zm_yunxia', 'zm_yunyang',
];

const KNOWN = new Set(KOKORO_V1_VOICES);

/** One voice of a mix: its name and signed weight (the weights' absolute values sum to 1). */
export interface KokoroMixPart {
  name: string;
  weight: number;
}

/** A Kokoro voice name or mix as a request names it. */
export interface KokoroMix {
  parts: KokoroMixPart[];
  /** The canonical spelling stored with the request: `af_bella`, `af_bella(2)+af_sky(1)`. */
  text: string;
}

/** A mix item: a name, optionally `(weight)` (Kokoro-FastAPI's `_VOICE_WEIGHT_PATTERN`). */
const ITEM = /^([a-z]{2}_[a-z0-9]+)(?:\(([^()]*)\))?$/;

/**
 * The Kokoro voice or mix `voice` names, undefined when it is not Kokoro's syntax with a
 * Kokoro v1.0 name. As in Kokoro-FastAPI, spaces are dropped, items are joined by `+` (added)
 * or `-` (subtracted), a weight is a positive number (default 1), and the weights are divided
 * by their sum. Throws INVALID_FIELD (field `voice`) for a Kokoro-looking mix that is wrong.
 */
export function parseKokoroVoice(voice: string): KokoroMix | undefined {
  const text = voice.replace(/ /g, '');
  const tokens = text.split(/([+-])/);
  const first = ITEM.exec(tokens[0] ?? '');
  if (!first || !KNOWN.has(first[1]!)) return undefined;
  const invalid = (message: string) => new AppError('INVALID_FIELD', message, { field: 'voice' });
  const raw: { name: string; weight: number; sign: number; given: string | undefined }[] = [];
  for (let i = 0; i < tokens.length; i += 2) {
    const match = ITEM.exec(tokens[i]!);
    if (!match) throw invalid(`Voice "${tokens[i]}" in "${voice}" is not a voice or voice(weight).`);
    const name = match[1]!;
    if (!KNOWN.has(name)) throw invalid(`"${name}" is not a Kokoro v1.0 voice (GET /v1/audio/voices).`);
    const given = match[2];
    const weight = given === undefined ? 1 : Number(given.trim());
    if (given !== undefined && (given.trim() === '' || !Number.isFinite(weight) || weight <= 0)) {
      throw invalid(`Voice "${tokens[i]}" must use a positive weight.`);
    }
    raw.push({ name, weight, sign: i > 0 && tokens[i - 1] === '-' ? -1 : 1, given });
  }
  const total = raw.reduce((sum, part) => sum + part.weight, 0);
  const parts = raw.map((part) => ({ name: part.name, weight: (part.sign * part.weight) / total }));
  const canonical = raw
    .map((part, i) => {
      const item = part.given === undefined ? part.name : `${part.name}(${part.weight})`;
      return i === 0 ? item : `${part.sign < 0 ? '-' : '+'}${item}`;
    })
    .join('');
  return { parts, text: canonical };
}

/**
 * Our catalogue voice for a Kokoro name when no Kokoro pack speaks it: the same language, then
 * the same gender, then the accent (British names prefer a British voice), then a standard
 * voice. Hindi, Italian and Portuguese
 * have no voice of ours: English of the same gender speaks them.
 */
export function kokoroFallbackVoice(name: string): VoiceInfo {
  const info = kokoroVoiceInfo(name);
  const british = info.locale === 'en_GB';
  const ofLanguage = VOICES.filter((v) => v.language === info.language);
  const pool = ofLanguage.length > 0 ? ofLanguage : VOICES.filter((v) => v.language === 'en');
  // Gender, then accent, then a standard voice over the OpenAI-style `*_default` ones.
  const score = (v: VoiceInfo) =>
    (v.gender === info.gender ? 0 : 4) +
    ((v.accent === 'British') === british ? 0 : 2) +
    (v.standard ? 0 : 1);
  return pool.slice().sort((a, b) => score(a) - score(b))[0]!;
}

/**
 * The installed Kokoro pack holding every voice of `mix` (the larger export first, as the
 * assignment ranks them), with each part's voice in it; undefined when none holds them all.
 */
export function kokoroPackFor(
  mix: KokoroMix,
  packs: readonly PackManifest[],
  rank: (pack: PackManifest) => number,
): { pack: PackManifest; voices: KokoroVoice[] } | undefined {
  const holding = packs
    .filter((p) => p.family === 'kokoro')
    .map((pack) => ({
      pack,
      voices: mix.parts.map((part) => pack.voices.find((v) => v.name === part.name)),
    }))
    .filter((entry): entry is { pack: PackManifest; voices: KokoroVoice[] } =>
      entry.voices.every((v) => v !== undefined),
    );
  holding.sort((a, b) => rank(b.pack) - rank(a.pack) || a.pack.id.localeCompare(b.pack.id));
  return holding[0];
}
