/**
 * One render, text to files, in named steps: clean and check the text, resolve the voice,
 * plan the engine calls, synthesise them on the pool in order with a bounded window, then
 * for each chunk trim its audio, time its words, write audio and subtitles, and add the
 * pause that follows it. Memory is bounded by the chunks in flight, whatever the length.
 */

import { randomUUID } from 'node:crypto';
import { AppError, isAppError } from '../../../shared/errors';
import { SAMPLE_RATE } from '../../../shared/options';
import { silence } from '../audio/dsp';
import type { RenderRequest, RenderResult } from '../engine';
import type { WorkerPool } from '../pool';
import { cleanText, countCharacters } from '../../../shared/text';
import { timeChunkWords } from '../subtitles/word-timing';
import { hasSpeakableContent } from '../text/speakable';
import { trimChunkAudio, wordMarks } from './chunk-audio';
import { openRenderOutputs } from './outputs';
import { planSpeech } from './speech-plan';
import { synthesizeInOrder } from './synthesis-window';
import { resolveVoice } from './voice';

/** Chunks in flight per worker: enough to keep every worker busy while the head is written. */
const CHUNKS_PER_WORKER = 3;

/** Renders `request` to its files on `pool`. Rejects with AppError; partial files are removed. */
export async function renderToFiles(pool: WorkerPool, request: RenderRequest): Promise<RenderResult> {
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
  const owner = randomUUID();
  const outputs = await openRenderOutputs(request);
  try {
    const chunks = synthesizeInOrder(planSpeech(text, resolved), {
      pool,
      settings: resolved.engine,
      owner,
      window: pool.size * CHUNKS_PER_WORKER,
      signal: request.signal,
    });
    let isFirstChunk = true;
    for await (const { chunk, prepared, output, more } of chunks) {
      if (output && prepared) {
        const { pcm, leadMs } = trimChunkAudio(output, profile.fadeMs);
        if (outputs.wantsWords) {
          const chunkOffsetMs = (outputs.samplesWritten / SAMPLE_RATE) * 1000;
          const speechEndMs = chunkOffsetMs + (pcm.length / SAMPLE_RATE) * 1000;
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
        if (pauseMs > 0 && !isFirstChunk) await outputs.writeAudio(silence(pauseMs, SAMPLE_RATE));
      }
      request.onProgress?.(Math.min(1, (chunk.start + chunk.text.length) / text.length));
    }
    const done = await outputs.finish();
    return { characters, durationMs: done.durationMs, audioBytes: done.bytes, cueCount: outputs.cueCount };
  } catch (error) {
    // Chunks still queued for this render would only keep the workers busy.
    pool.cancel(owner);
    await outputs.abort();
    if (isAppError(error)) throw error;
    throw new AppError('ENGINE_FAILED', 'The render failed unexpectedly.', undefined, { cause: error });
  }
}
