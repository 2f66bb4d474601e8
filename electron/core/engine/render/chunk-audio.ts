/** A chunk's audio as it joins the rest: engine silence trimmed, edges faded, word marks moved with it. */

import { fadeEdges, trimSilence } from '../audio/dsp';
import type { SynthesisOutput } from '../espeak/worker-pool';
import type { EngineWordMark, PreparedText } from '../types';

/** Silence kept at each end of a chunk when the engine's own is trimmed, ms. */
const KEEP_EDGE_MS = 20;

export interface ChunkAudio {
  pcm: Int16Array;
  /** Audio cut from the start of the engine's output, ms: word marks move back by this much. */
  leadMs: number;
}

/**
 * Trims the engine's leading and trailing silence to `KEEP_EDGE_MS` and fades the edges over
 * `fadeMs`. The result is a view on `output.pcm`, faded in place: an engine call's output is
 * read once, here (the sentence cache copies what it keeps before the render sees it), and not
 * copying saves a pass over every sample of a render and the garbage it leaves.
 */
export function trimChunkAudio(output: SynthesisOutput, fadeMs: number): ChunkAudio {
  const rate = output.sampleRate;
  const keep = Math.round((KEEP_EDGE_MS / 1000) * rate);
  const edges = trimSilence(output.pcm);
  const start = Math.max(0, edges.start - keep);
  const end = Math.min(output.pcm.length, output.pcm.length - edges.end + keep);
  const pcm = output.pcm.subarray(start, Math.max(start, end));
  fadeEdges(pcm, rate, fadeMs);
  return { pcm, leadMs: (start / rate) * 1000 };
}

/** The engine's word events as ranges of the chunk's source text, timed within the trimmed audio. */
export function wordMarks(output: SynthesisOutput, prepared: PreparedText, leadMs: number): EngineWordMark[] {
  return output.words.map((w) => {
    const span = prepared.toSource(w.textPosition, w.wordLength);
    return { sourceStart: span.start, sourceEnd: span.end, audioMs: Math.max(0, w.audioMs - leadMs) };
  });
}
