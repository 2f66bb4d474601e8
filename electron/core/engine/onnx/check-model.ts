/**
 * The voice library's model check: a pack's `.onnx` is usable when the engine can open it as
 * its family and it speaks a short utterance (finite samples, not all silent). Opening alone
 * would pass a model whose graph loads but fails or gives garbage when run.
 */

import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { AppError } from '../../../shared/errors';
import { KOKORO_STYLE_SIZE, openKokoroModel } from './kokoro-model';
import { openPiperModel } from './piper-model';
import { phonemesToPiperIds } from './piper-phonemes';
import type { NeuralAudio } from './tensors';
import { parsePiperConfig } from './voice-config';

/**
 * The trial utterance, as eSpeak IPA code points: "hello, world." (en-us). A voice's map need
 * not hold them all; the ones it holds are spoken (at least one must be).
 */
const TRIAL_PHONEMES = Array.from('həlˈoʊ, wˈɜːld.');

/** Kokoro's trial: token ids every Kokoro vocabulary has (letters of its IPA set), pads at both ends. */
const KOKORO_TRIAL_IDS = [0, 50, 83, 54, 156, 57, 135, 0];

/**
 * Opens the model as `family`, synthesises the trial utterance with it, and closes it again.
 * A Piper model is run with its config beside it (`<model>.json`), speaker 0.
 * @throws AppError VOICE_PACK_INVALID for a file that is not such a model or does not speak
 * (the message names its base name)
 */
export async function checkVoiceModel(path: string, family: 'piper' | 'kokoro'): Promise<void> {
  if (family === 'piper') {
    const configPath = `${path}.json`;
    const config = parsePiperConfig(await readFile(configPath, 'utf8'), configPath);
    const { ids } = phonemesToPiperIds(
      TRIAL_PHONEMES.filter((p) => config.phonemeIdMap[p] !== undefined),
      config.phonemeIdMap,
    );
    const model = await openPiperModel(path);
    try {
      const audio = await trial(path, () =>
        model.run({
          ids,
          lengthScale: config.inference.lengthScale,
          noiseScale: config.inference.noiseScale,
          noiseW: config.inference.noiseW,
          ...(model.multiSpeaker ? { speakerId: 0 } : {}),
        }),
      );
      checkAudio(path, audio);
    } finally {
      await model.close();
    }
    return;
  }
  const model = await openKokoroModel(path);
  try {
    const audio = await trial(path, () =>
      model.run({ ids: KOKORO_TRIAL_IDS, style: new Float32Array(KOKORO_STYLE_SIZE), speed: 1 }),
    );
    checkAudio(path, audio);
  } finally {
    await model.close();
  }
}

async function trial(path: string, run: () => Promise<NeuralAudio>): Promise<NeuralAudio> {
  try {
    return await run();
  } catch (error) {
    throw invalid(path, `it fails to synthesise a short sentence: ${(error as Error).message}`, error);
  }
}

function checkAudio(path: string, { audio }: NeuralAudio): void {
  if (audio.length === 0) throw invalid(path, 'it gave no audio for a short sentence');
  let peak = 0;
  for (const x of audio) {
    if (!Number.isFinite(x))
      throw invalid(path, 'its audio for a short sentence holds non-numbers (NaN or infinity)');
    peak = Math.max(peak, Math.abs(x));
  }
  if (peak === 0) throw invalid(path, 'its audio for a short sentence is silent');
}

function invalid(path: string, reason: string, cause?: unknown): AppError {
  return new AppError(
    'VOICE_PACK_INVALID',
    `${basename(path)} is not a usable voice model: ${reason}.`,
    { path },
    cause === undefined ? undefined : { cause },
  );
}
