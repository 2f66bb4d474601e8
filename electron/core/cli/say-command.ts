/**
 * `say`: synthesise text to an audio file (and optionally SRT subtitles and word
 * timings) from the command line, with every option of the API.
 */

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, resolve as resolvePath } from 'node:path';
import {
  AUDIO_TYPES,
  BITRATES,
  DEFAULT_SYNTHESIS,
  isOneDecimalInRange,
  MODEL_IDS,
  RATE_MAX,
  RATE_MIN,
  VOLUME_MAX,
  VOLUME_MIN,
  type AudioType,
  type Bitrate,
  type ModelId,
} from '../../shared/options';
import { findVoice, VOICES } from '../../shared/voices';
import type { NeuralVoice } from '../engine/engine';
import { parseCommandLine, runCommand, UsageError } from './usage';

export const SAY_USAGE = `usage: say --voice <code> --out <file> [options] [text…]
  --voice <code>      voice code (see --list-voices)
  --out <file>        audio file to write (.mp3 or .wav)
  --model <id>        ${MODEL_IDS.join(' | ')} (standard voices only; default ${DEFAULT_SYNTHESIS.model_id})
  --format <type>     mp3 | wav (default: from --out's extension, else mp3)
  --bitrate <kbps>    ${BITRATES.join(' | ')} (mp3 only; default ${DEFAULT_SYNTHESIS.bitrate})
  --speed <x>         ${RATE_MIN}–${RATE_MAX}, one decimal (default 1.0)
  --pitch <x>         ${RATE_MIN}–${RATE_MAX}, one decimal (default 1.0)
  --volume <n>        ${VOLUME_MIN}–${VOLUME_MAX} (default 100)
  --srt <file>        also write SRT subtitles
  --timings <file>    also write word timings (JSON)
  --file <path>       read the text from a file (else the arguments, else stdin)
  --workers <n>       engine worker threads at most (default: CPU count; started as the text needs them)
  --data-dir <dir>    data folder whose installed neural voices speak (default: the per-user app data folder)
  --list-voices       print the voice codes and exit`;

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

function listVoices(): string {
  const lines = VOICES.map(
    (v) =>
      `${v.voice_code.padEnd(28)} ${v.language_name.padEnd(11)} ${v.gender.padEnd(7)} ${(v.accent + (v.accent_approximated ? ' (approximated)' : '')).padEnd(28)} ${String(v.price).padStart(5)} credits/1000 chars${v.standard ? '' : '  (model_id does not apply)'}`,
  );
  return lines.join('\n');
}

/** The installed neural voice that speaks `voiceCode` with `model`; undefined: eSpeak speaks it. */
async function findNeuralVoice(
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

function progressBar(fraction: number): string {
  const width = 30;
  const filled = Math.round(fraction * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.floor(fraction * 100)
    .toString()
    .padStart(3)}%`;
}

/** Runs `say` with the arguments after the command name; resolves to the exit code once the files are written. */
export function runSay(argv: string[]): Promise<number> {
  return runCommand(SAY_USAGE, () => say(argv));
}

async function say(argv: string[]): Promise<void> {
  const { values, positionals } = parseCommandLine(
    argv,
    {
      voice: { type: 'string' },
      model: { type: 'string' },
      format: { type: 'string' },
      bitrate: { type: 'string' },
      speed: { type: 'string' },
      pitch: { type: 'string' },
      volume: { type: 'string' },
      srt: { type: 'string' },
      timings: { type: 'string' },
      out: { type: 'string', short: 'o' },
      file: { type: 'string', short: 'f' },
      workers: { type: 'string' },
      'data-dir': { type: 'string' },
      'list-voices': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  if (values.help) {
    process.stdout.write(`${SAY_USAGE}\n`);
    return;
  }
  if (values['list-voices']) {
    process.stdout.write(`${listVoices()}\n`);
    return;
  }
  if (!values.voice) throw new UsageError('--voice is required (see --list-voices)');
  const voice = findVoice(values.voice);
  if (!voice) throw new UsageError(`unknown voice "${values.voice}" (see --list-voices)`);
  if (!values.out) throw new UsageError('--out <file> is required');

  const model = (values.model ?? DEFAULT_SYNTHESIS.model_id) as ModelId;
  if (!MODEL_IDS.includes(model))
    throw new UsageError(`--model must be one of ${MODEL_IDS.join(', ')}, got "${values.model}"`);
  if (values.model && !voice.standard) {
    process.stderr.write(
      `note: ${voice.voice_code} is not a standard voice; --model does not apply and is ignored\n`,
    );
  }
  const fromExtension = extname(values.out).slice(1).toLowerCase();
  const format = (values.format ?? (fromExtension === 'wav' ? 'wav' : 'mp3')) as AudioType;
  if (!AUDIO_TYPES.includes(format))
    throw new UsageError(`--format must be mp3 or wav, got "${values.format}"`);
  const bitrate = Number(values.bitrate ?? DEFAULT_SYNTHESIS.bitrate) as Bitrate;
  if (!BITRATES.includes(bitrate) || (values.bitrate !== undefined && !/^\d+$/.test(values.bitrate))) {
    throw new UsageError(`--bitrate must be one of ${BITRATES.join(', ')}, got "${values.bitrate}"`);
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

  let text: string;
  if (values.file) text = await readFile(values.file, 'utf8');
  else if (positionals.length > 0) text = positionals.join(' ');
  else if (!process.stdin.isTTY) text = await readStdin();
  else throw new UsageError('give the text as arguments, with --file, or on standard input');

  const showProgress = process.stderr.isTTY && text.length > 2000;
  // Loaded only now: `--help`, `--list-voices` and a usage error never load the engine.
  const [{ createEngine }, neuralVoice] = await Promise.all([
    import('../engine/create-engine'),
    findNeuralVoice(values['data-dir'], voice.voice_code, model),
  ]);
  // The pool starts workers as the render needs them: a sentence starts one, a book all of them.
  const engine = await createEngine({ poolSize: workers });
  const started = performance.now();
  try {
    const result = await engine.render({
      neuralVoice,
      text,
      voice_code: voice.voice_code,
      model_id: model,
      audio_type: format,
      bitrate,
      speed_rate: speed,
      pitch_rate: pitch,
      volume,
      audioPath: resolvePath(values.out),
      srtPath: values.srt ? resolvePath(values.srt) : undefined,
      timingsPath: values.timings ? resolvePath(values.timings) : undefined,
      onProgress: showProgress ? (f) => process.stderr.write(`\r${progressBar(f)}`) : undefined,
    });
    if (showProgress) process.stderr.write('\n');
    const seconds = (performance.now() - started) / 1000;
    process.stderr.write(
      `wrote ${values.out}: ${(result.durationMs / 1000).toFixed(1)} s of audio, ${result.characters} characters, ${(result.audioBytes / 1024).toFixed(0)} KiB` +
        `${values.srt ? `, ${result.cueCount} cues in ${values.srt}` : ''}, spoken by ${result.engine} (${seconds.toFixed(1)} s, ${(result.durationMs / 1000 / seconds).toFixed(0)}× real time)\n`,
    );
  } finally {
    await engine.close();
  }
}
