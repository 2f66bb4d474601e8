/**
 * One render, text to files, in named steps: clean and check the text, resolve the voice,
 * plan the engine calls, synthesise them on the pool in order with a bounded window, then
 * for each chunk trim its audio, time its words, write audio and subtitles, and add the
 * pause that follows it. Memory is bounded by the chunks in flight, whatever the length.
 */

import { randomUUID } from 'node:crypto';
import { AppError, isAppError } from '../../../shared/errors';
import { silence } from '../audio/dsp';
import { espeakBackend } from '../espeak/espeak-backend';
import type { RenderRequest, RenderResult } from '../engine';
import { openNeuralBackend } from '../onnx/neural-backends';
import type { NeuralModels } from '../onnx/neural-models';
import type { WorkerPool } from '../pool';
import type { SpeechBackend } from '../speech-backend';
import { cleanText, countCharacters } from '../../../shared/text';
import { timeChunkWords } from '../subtitles/word-timing';
import { compileLexicon } from '../text/lexicon';
import { hasSpeakableContent } from '../text/speakable';
import { trimChunkAudio, wordMarks } from './chunk-audio';
import { openRenderOutputs } from './outputs';
import { planSpeech } from './speech-plan';
import { synthesizeInOrder } from './synthesis-window';
import { resolveVoice, type ResolvedVoice } from './voice';

/** What a render runs on: the eSpeak pool (speech, and phonemes for neural voices) and the open neural models. */
export interface RenderContext {
  pool: WorkerPool;
  models: NeuralModels;
}

/**
 * The backend that speaks `request`: its neural voice when it has one and the voice opens,
 * else eSpeak (a pack removed or damaged since the voice was chosen must not fail the render;
 * the result's `engine` says which spoke).
 */
export async function chooseBackend(
  { pool, models }: RenderContext,
  request: Pick<RenderRequest, 'neuralVoice' | 'speed_rate' | 'pitch_rate'>,
  resolved: ResolvedVoice,
): Promise<SpeechBackend> {
  if (request.neuralVoice) {
    try {
      return await openNeuralBackend(request.neuralVoice, pool, models, request);
    } catch {
      // Fall through to the base engine.
    }
  }
  return espeakBackend(pool, resolved.engine);
}

/** Renders `request` to its files. Rejects with AppError; partial files are removed. */
export async function renderToFiles(context: RenderContext, request: RenderRequest): Promise<RenderResult> {
  const { pool } = context;
  const resolved = resolveVoice(request);
  const text = cleanText(request.text);
  const characters = countCharacters(text);
  if (!hasSpeakableContent(text)) {
    throw new AppError(
      'NOTHING_TO_SPEAK',
      'input_text has nothing to speak (only punctuation, symbols or emoji)',
      { field: 'input_text' },
    );
  }
  const { profile } = resolved;
  const backend = await chooseBackend(context, request, resolved);
  const rate = backend.sampleRate;
  const owner = randomUUID();
  const outputs = await openRenderOutputs(request, rate);
  try {
    const lexicon = compileLexicon(request.lexicon, resolved.voice.language);
    const chunks = synthesizeInOrder(planSpeech(text, resolved, { lexicon }), {
      backend,
      owner,
      signal: request.signal,
    });
    let isFirstChunk = true;
    for await (const { chunk, prepared, output, more } of chunks) {
      if (output && prepared) {
        const { pcm, leadMs } = trimChunkAudio(output, profile.fadeMs);
        if (outputs.wantsWords) {
          const chunkOffsetMs = (outputs.samplesWritten / rate) * 1000;
          const speechEndMs = chunkOffsetMs + (pcm.length / rate) * 1000;
          const words = timeChunkWords({
            text: chunk.text,
            textOffset: chunk.start,
            marks: wordMarks(output, prepared, leadMs),
            chunkOffsetMs,
            speechEndMs,
          });
          await outputs.writeWords(words, chunk.text, chunk.start, speechEndMs);
        }
        if (!isFirstChunk || pcm.length > 0) await outputs.writeAudio(pcm);
        isFirstChunk = false;
      }
      if (more) {
        const pauseMs = (chunk.pauseAfterMs * profile.pauseScale) / request.speed_rate;
        if (pauseMs > 0 && !isFirstChunk) await outputs.writeAudio(silence(pauseMs, rate));
      }
      request.onProgress?.(Math.min(1, (chunk.start + chunk.text.length) / text.length));
    }
    const done = await outputs.finish();
    return {
      characters,
      durationMs: done.durationMs,
      audioBytes: done.bytes,
      cueCount: outputs.cueCount,
      engine: backend.label,
    };
  } catch (error) {
    // Chunks still queued for this render would only keep the workers busy.
    pool.cancel(owner);
    await outputs.abort();
    if (isAppError(error)) throw error;
    throw new AppError('ENGINE_FAILED', 'The render failed unexpectedly.', undefined, { cause: error });
  }
}
