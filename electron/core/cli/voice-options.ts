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
import type { NeuralVoice } from '../engine/engine';
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
  voice: VoiceInfo;
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
export function parseVoiceOptions(values: {
  voice?: string | undefined;
  model?: string | undefined;
  speed?: string | undefined;
  pitch?: string | undefined;
  volume?: string | undefined;
  workers?: string | undefined;
}): VoiceChoice {
  if (!values.voice) throw new UsageError('--voice is required (see --list-voices)');
  const voice = findVoice(values.voice);
  if (!voice) throw new UsageError(`unknown voice "${values.voice}" (see --list-voices)`);
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
  return { voice, model, speed, pitch, volume, workers };
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
    import('../engine/onnx/check-model'),
    import('../voices/library'),
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
