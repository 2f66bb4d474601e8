/**
 * A voice's short preview: one sentence in its language (or the given text), spoken through
 * the render's own steps (chunks, trimming, pauses, volume) but to no file. `streamAudition`
 * hands the audio over chunk by chunk as it is synthesised, so a player can start on the first
 * sentence; `auditionWav` collects it into a WAV in memory.
 */

import { randomUUID } from 'node:crypto';
import { AppError, isAppError } from '../../shared/errors';
import { cleanText } from '../../shared/text';
import { isSsml, parseSsml } from '../../shared/ssml';
import type { LanguageCode } from '../../shared/voices';
import { createVolumeProcessor, silence } from './audio/dsp';
import { encodeWav } from './audio/wav';
import type { AuditionOptions, AuditionResult, AuditionStreamRequest } from './engine';
import { trimChunkAudio } from './render/chunk-audio';
import { chooseBackend, type RenderContext } from './render/render';
import { planSpeech, type PlannedChunk } from './render/speech-plan';
import type { SpeechBackend } from './speech-backend';
import type { SentenceCacheUse } from '../../shared/sentence-cache';
import { synthesizeInOrder } from './render/synthesis-window';
import { compileLexicon, lexiconUnits } from './text/lexicon';
import { resolveVoice } from './render/voice';
import { hasSpeakableContent } from '../../shared/text';

const AUDITION_TEXT: Record<LanguageCode, string> = {
  vi: 'Xin chào, đây là giọng đọc của tôi.',
  en: 'Hello, this is how I sound.',
  zh: '你好，这是我的声音。',
  ja: 'こんにちは、これが私の声です。',
  ko: '안녕하세요, 제 목소리입니다.',
  fr: 'Bonjour, voici ma voix.',
  es: 'Hola, así suena mi voz.',
};

/**
 * Synthesises the audition with the default model; no files, no charge. `onAudio` gets the
 * samples in order as each chunk (a sentence) is ready: the first call comes as soon as the
 * first sentence is synthesised. Rejects with AppError (UNKNOWN_VOICE, SSML_INVALID, NOTHING_TO_SPEAK for a
 * text with nothing to say, ENGINE_*, or the signal's reason when aborted).
 */
export async function streamAudition(
  context: RenderContext,
  request: AuditionStreamRequest,
): Promise<AuditionResult> {
  const resolved = resolveVoice({ ...request, model_id: 'std-v1.6' });
  const source = cleanText(request.text ?? AUDITION_TEXT[resolved.voice.language]);
  // An audition is a preview of the voice: an SSML document is checked (SSML_INVALID) and its
  // text read in that voice, without the markup's breaks, prosody or voice changes.
  const text = isSsml(source) ? parseSsml(source, { voiceCode: request.voice_code }).text : source;
  if (!hasSpeakableContent(text)) {
    throw new AppError('NOTHING_TO_SPEAK', 'text has nothing to speak (only punctuation, symbols or emoji)', {
      field: 'text',
    });
  }
  // Without the cache, every sentence is synthesised and none is stored.
  const backend = await chooseBackend(
    request.bypassCache ? { ...context, cache: undefined } : context,
    request,
    resolved,
  );
  const rate = backend.sampleRate;
  const volume = createVolumeProcessor({ gain: request.volume / 100, sampleRate: rate });
  let samples = 0;
  const emit = (pcm: Int16Array) => {
    if (pcm.length === 0) return;
    samples += pcm.length;
    request.onAudio(pcm, rate);
  };
  const owner = randomUUID();
  try {
    // The first clause alone: "Hello," is synthesised 5-8 times faster than the sentence,
    // and the rest of it meanwhile on another worker (bench:footprint).
    const lexicon = compileLexicon(request.lexicon, resolved.voice.language);
    const units = lexiconUnits(request.lexicon);
    // An audition is short (300 characters at most through the API): its whole plan is made
    // first, so the answer can say how much of it the sentence cache holds before any audio.
    const planned: PlannedChunk[] = [];
    for await (const chunk of planSpeech(text, resolved, { firstClauseAlone: true, lexicon, units }))
      planned.push(chunk);
    request.onCache?.(request.bypassCache ? 'bypass' : cacheUse(backend, planned));
    const plan = (async function* () {
      yield* planned;
    })();
    const chunks = synthesizeInOrder(plan, {
      backend,
      owner,
      signal: request.signal,
    });
    let isFirstChunk = true;
    for await (const { chunk, output, more } of chunks) {
      if (output) {
        const { pcm } = trimChunkAudio(output, resolved.profile.fadeMs);
        if (!isFirstChunk || pcm.length > 0) emit(volume.process(pcm));
        isFirstChunk = false;
      }
      if (more && !isFirstChunk) {
        const pauseMs = (chunk.pauseAfterMs * resolved.profile.pauseScale) / request.speed_rate;
        if (pauseMs > 0) emit(volume.process(silence(pauseMs, rate)));
      }
    }
    emit(volume.flush());
    return { sampleRate: rate, durationMs: (samples / rate) * 1000, engine: backend.label };
  } catch (error) {
    context.pool.cancel(owner);
    if (isAppError(error)) throw error;
    throw new AppError('ENGINE_FAILED', 'The audition failed unexpectedly.', undefined, { cause: error });
  }
}

/** How much of `planned` the backend's sentence cache answers (`miss` when it keeps none). */
function cacheUse(backend: SpeechBackend, planned: readonly PlannedChunk[]): SentenceCacheUse {
  const texts = planned.flatMap((p) => (p.prepared ? [p.prepared.engineText] : []));
  const hits = backend.isCached ? texts.filter((t) => backend.isCached!(t)).length : 0;
  return hits === 0 ? 'miss' : hits === texts.length ? 'hit' : 'partial';
}

/** The whole audition as a WAV in memory (16-bit mono at the voice's rate). */
export async function auditionWav(context: RenderContext, options: AuditionOptions): Promise<Uint8Array> {
  const parts: Int16Array[] = [];
  const { sampleRate } = await streamAudition(context, {
    ...options,
    onAudio: (pcm) => parts.push(pcm),
  });
  const all = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return encodeWav(all, sampleRate);
}
