/**
 * What `say` and `export` share: the voice and prosody options, where the text comes from, the
 * installed neural voice that speaks a voice code, and a progress bar.
 */

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import {
  DEFAULT_SYNTHESIS,
  isOneDecimalInRange,
  MODEL_IDS,
  RATE_MAX,
  RATE_MIN,
  VOLUME_MAX,
  VOLUME_MIN,
  type ModelId,
} from '../../shared/options';
import { findVoice, VOICES, type VoiceInfo } from '../../shared/voices';
import type { NeuralVoice } from '../engine';
import type { CustomVoice } from '../../shared/custom-voices';
import { composeProsody, CUSTOM_VOICE_CODE_PATTERN } from '../../shared/custom-voice-rules';
import { UsageError } from './usage';

/** The `parseArgs` options of the voice and its prosody, the text file, workers and data folder. */
export const VOICE_OPTIONS = {
  voice: { type: 'string' },
  model: { type: 'string' },
  speed: { type: 'string' },
  pitch: { type: 'string' },
  volume: { type: 'string' },
  file: { type: 'string', short: 'f' },
  workers: { type: 'string' },
  'data-dir': { type: 'string' },
} as const;

/** Usage lines of VOICE_OPTIONS (but `--voice` and `--file`, which each command words itself). */
export const VOICE_USAGE = `  --model <id>        ${MODEL_IDS.join(' | ')} (standard voices only; default ${DEFAULT_SYNTHESIS.model_id})
  --speed <x>         ${RATE_MIN}–${RATE_MAX}, one decimal (default 1.0)
  --pitch <x>         ${RATE_MIN}–${RATE_MAX}, one decimal (default 1.0)
  --volume <n>        ${VOLUME_MIN}–${VOLUME_MAX} (default 100)`;

/** Usage lines of `--workers` and `--data-dir`. */
export const ENGINE_USAGE = `  --workers <n>       engine worker threads at most (default: CPU count; started as the text needs them)
  --data-dir <dir>    data folder whose installed neural voices speak (default: the per-user app data folder)`;

/** The voice and prosody a command line asks for, checked. */
export interface VoiceChoice {
  /** The catalogue voice that speaks (a custom voice's voice_code). */
  voice: VoiceInfo;
  /**
   * The custom voice `--voice` named: `speed`, `pitch` and `volume` are then the options times
   * its prosody; its base and lexicon are applied by `customNeuralVoice` and `customLexicon`.
   */
  custom?: CustomVoice | undefined;
  model: ModelId;
  speed: number;
  pitch: number;
  volume: number;
  workers: number | undefined;
}

function parseRate(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+(\.\d)?$/.test(value) || !isOneDecimalInRange(n, RATE_MIN, RATE_MAX)) {
    throw new UsageError(
      `--${name} must be a number from ${RATE_MIN} to ${RATE_MAX} with at most one decimal, got "${value}"`,
    );
  }
  return n;
}

/** Checks the voice options (UsageError for a bad one); notes on stderr what will be ignored. */
export function parseVoiceOptions(
  values: {
    voice?: string | undefined;
    model?: string | undefined;
    speed?: string | undefined;
    pitch?: string | undefined;
    volume?: string | undefined;
    workers?: string | undefined;
  },
  /** The custom voice `values.voice` names (see `findCustomVoice`), if any. */
  custom?: CustomVoice,
): VoiceChoice {
  if (!values.voice) throw new UsageError('--voice is required (see --list-voices)');
  const voice = findVoice(values.voice) ?? (custom && findVoice(custom.voice_code));
  if (!voice)
    throw new UsageError(
      `unknown voice "${values.voice}" (see --list-voices, and "voices custom list" for your own)`,
    );
  const model = (values.model ?? DEFAULT_SYNTHESIS.model_id) as ModelId;
  if (!MODEL_IDS.includes(model))
    throw new UsageError(`--model must be one of ${MODEL_IDS.join(', ')}, got "${values.model}"`);
  if (values.model && !voice.standard) {
    process.stderr.write(
      `note: ${voice.voice_code} is not a standard voice; --model does not apply and is ignored\n`,
    );
  }
  const speed = parseRate('speed', values.speed, 1);
  const pitch = parseRate('pitch', values.pitch, 1);
  const volume = values.volume === undefined ? 100 : Number(values.volume);
  if (!/^\d+$/.test(values.volume ?? '100') || volume < VOLUME_MIN || volume > VOLUME_MAX) {
    throw new UsageError(
      `--volume must be a whole number from ${VOLUME_MIN} to ${VOLUME_MAX}, got "${values.volume}"`,
    );
  }
  const workers = values.workers === undefined ? undefined : Number(values.workers);
  if (workers !== undefined && (!Number.isInteger(workers) || workers < 1)) {
    throw new UsageError(`--workers must be a positive whole number, got "${values.workers}"`);
  }
  if (custom && !findVoice(values.voice)) {
    const composed = composeProsody(custom.prosody, { speed_rate: speed, pitch_rate: pitch, volume });
    return {
      voice,
      custom,
      model,
      speed: composed.speed_rate,
      pitch: composed.pitch_rate,
      volume: composed.volume,
      workers,
    };
  }
  return { voice, model, speed, pitch, volume, workers };
}

/**
 * The custom voice `code` names in the data folder's database; undefined for a catalogue code,
 * a code that cannot be a custom voice's, or when there is no database (nothing is created).
 * Opens the database only then (a running server holding it: DATABASE_LOCKED, one line).
 */
export async function findCustomVoice(
  dataDirOption: string | undefined,
  code: string | undefined,
): Promise<CustomVoice | undefined> {
  if (!code || findVoice(code) || !new RegExp(CUSTOM_VOICE_CODE_PATTERN).test(code)) return undefined;
  const [{ dataPaths, defaultDataDir }, { openStore }, { fromCustomVoiceRow }] = await Promise.all([
    import('../platform/paths'),
    import('../store'),
    import('../voices'),
  ]);
  const path = dataPaths(dataDirOption ?? defaultDataDir()).database;
  if (!existsSync(path)) return undefined;
  const store = await openStore({ path, holder: 'Narration Studio say' });
  try {
    const row = await store.customVoices.get(code);
    return row && fromCustomVoiceRow(row);
  } finally {
    await store.close();
  }
}

/**
 * What speaks a custom voice with `model`: its pack speaker or Kokoro blend when installed,
 * else its voice_code's neural voice; undefined: eSpeak speaks. `fallback` when the base is not installed.
 */
export async function findCustomNeuralVoice(
  dataDirOption: string | undefined,
  custom: CustomVoice,
  model: ModelId,
): Promise<{ neuralVoice: NeuralVoice | undefined; fallback: boolean }> {
  const [
    { defaultDataDir },
    { checkVoiceModel },
    { createVoiceLibrary, librarySpeakers, resolveCustomVoice },
  ] = await Promise.all([import('../platform/paths'), import('../engine'), import('../voices')]);
  const library = createVoiceLibrary({
    dataDir: dataDirOption ?? defaultDataDir(),
    validateModel: checkVoiceModel,
  });
  const resolved = await resolveCustomVoice(
    custom,
    { speed_rate: 1, pitch_rate: 1, volume: 100 },
    librarySpeakers(library, model),
  );
  return { neuralVoice: resolved.neuralVoice, fallback: resolved.fallback };
}

/** The voice codes, one line each, for `say --list-voices`. */
export function listVoices(): string {
  const lines = VOICES.map(
    (v) =>
      `${v.voice_code.padEnd(28)} ${v.language_name.padEnd(11)} ${v.gender.padEnd(7)} ${(v.accent + (v.accent_approximated ? ' (approximated)' : '')).padEnd(28)} ${String(v.price).padStart(5)} credits/1000 chars${v.standard ? '' : '  (model_id does not apply)'}`,
  );
  return lines.join('\n');
}

/** The installed neural voice that speaks `voiceCode` with `model`; undefined: eSpeak speaks it. */
export async function findNeuralVoice(
  dataDirOption: string | undefined,
  voiceCode: string,
  model: ModelId,
): Promise<NeuralVoice | undefined> {
  const [{ defaultDataDir }, { voicesDir }] = await Promise.all([
    import('../platform/paths'),
    import('../voices/layout'),
  ]);
  const dataDir = dataDirOption ?? defaultDataDir();
  // Without a voices folder nothing is installed and eSpeak speaks every voice: the library
  // (manifests and their schemas, the model check) is not even loaded.
  if (!existsSync(voicesDir(dataDir))) return undefined;
  const [{ checkVoiceModel }, { createVoiceLibrary }] = await Promise.all([
    import('../engine'),
    import('../voices'),
  ]);
  return createVoiceLibrary({ dataDir, validateModel: checkVoiceModel }).neuralVoice(voiceCode, model);
}

async function readStdin(): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of process.stdin) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/** The text to speak: `--file`, else the arguments, else standard input (not a terminal). */
export async function readText(file: string | undefined, positionals: readonly string[]): Promise<string> {
  if (file) return readFile(file, 'utf8');
  if (positionals.length > 0) return positionals.join(' ');
  if (!process.stdin.isTTY) return readStdin();
  throw new UsageError('give the text as arguments, with --file, or on standard input');
}

/** `[#####-----]  50%` for a fraction from 0 to 1. */
export function progressBar(fraction: number): string {
  const width = 30;
  const filled = Math.round(fraction * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.floor(fraction * 100)
    .toString()
    .padStart(3)}%`;
}
