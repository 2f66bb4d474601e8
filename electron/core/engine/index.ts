/**
 * The synthesis engine: text → chunks → worker pool → trimmed, joined, volume-limited
 * PCM → WAV/MP3 file, with word timings and SRT subtitles, all streamed to disk so
 * memory stays bounded by the number of chunks in flight, whatever the text length.
 */

import { randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { AppError, isAppError } from '../../shared/errors';
import { SAMPLE_RATE, type SynthesisOptions } from '../../shared/options';
import { findVoice, type LanguageCode } from '../../shared/voices';
import type { Engine, RenderRequest, RenderResult } from './engine';
import { createWorkerPool, type SynthesisOutput, type WorkerPool } from './pool';
import type { EngineSettings } from './espeak/protocol';
import { espeakVoiceName, voiceSettings, type VoiceEngineSettings } from './espeak/voices';
import { modelProfile, type ModelProfile } from './models';
import { ENGINE_AMPLITUDE, pitchForRate, rateForSpeed } from './espeak/prosody';
import {
  cleanText,
  countCharacters,
  hasSpeakableContent,
  prepareForEngine,
  splitIntoChunks,
  type PrepareOptions,
  type SpeechChunk,
} from './text';
import { prepareJapanese } from './japanese';
import { createVolumeProcessor, fadeEdges, silence, trimSilence } from './audio/dsp';
import { outputFailedError } from './audio/audio-sink';
import { createWavSink, encodeWav, type AudioSink } from './audio/wav';
import { createMp3Sink } from './audio/mp3';
import { createCueBuilder, formatSrtCue, timeChunkWords } from './subtitles';
import type { EngineWordMark, PreparedText, TextChunk, WordTiming } from './types';

export type { Engine, RenderRequest, RenderResult } from './engine';

export interface EngineOptions {
  /** Worker threads; default: the machine's available parallelism. */
  poolSize?: number;
  /** A chunk taking longer than this fails its render (hung worker), ms. */
  taskTimeoutMs?: number;
  /**
   * Worker script of the pool (default: the eSpeak worker). For fault tests only: the fault
   * suite passes a worker that crashes or hangs on request (test/fixtures/faulty-worker.ts).
   */
  workerUrl?: URL;
}

/** Silence kept at each end of a chunk when the engine's own is trimmed, ms. */
const KEEP_EDGE_MS = 20;

const AUDITION_TEXT: Record<LanguageCode, string> = {
  vi: 'Xin chào, đây là giọng đọc của tôi.',
  en: 'Hello, this is how I sound.',
  zh: '你好，这是我的声音。',
  ja: 'こんにちは、これが私の声です。',
  ko: '안녕하세요, 제 목소리입니다.',
  fr: 'Bonjour, voici ma voix.',
  es: 'Hola, así suena mi voz.',
};

interface ResolvedVoice {
  voice: VoiceEngineSettings;
  profile: ModelProfile;
  engine: EngineSettings;
}

function resolve(
  options: Pick<SynthesisOptions, 'voice_code' | 'speed_rate' | 'pitch_rate'> & {
    model_id?: SynthesisOptions['model_id'];
  },
): ResolvedVoice {
  const info = findVoice(options.voice_code);
  if (!info)
    throw new AppError('UNKNOWN_VOICE', `unknown voice_code: ${options.voice_code}`, { field: 'voice_code' });
  const voice = voiceSettings(options.voice_code);
  const profile = modelProfile(options.model_id ?? 'std-v1.6', info.standard);
  return {
    voice,
    profile,
    engine: {
      voice: espeakVoiceName(voice),
      rate: rateForSpeed(options.speed_rate, voice.fastRateExponent),
      pitch: pitchForRate(options.pitch_rate, voice.basePitch),
      range: profile.range,
      volume: ENGINE_AMPLITUDE,
    },
  };
}

/** Prepared text that is the source itself: only SSML-significant characters are blanked. */
function asIs(text: string): PreparedText {
  const engineText = text.replace(/[<>&]/g, ' ');
  // eSpeak counts code points; the source is indexed in UTF-16 code units.
  const unitOffsets: number[] = [];
  for (let i = 0; i < text.length; i++) {
    unitOffsets.push(i);
    if ((text.codePointAt(i) ?? 0) > 0xffff) i++;
  }
  unitOffsets.push(text.length);
  const at = (cp: number) => unitOffsets[Math.max(0, Math.min(cp, unitOffsets.length - 1))] ?? text.length;
  return {
    engineText,
    toSource: (textPosition, wordLength) => ({
      start: at(textPosition - 1),
      end: at(textPosition - 1 + wordLength),
    }),
  };
}

/** Numeric dates: month first for American English, day first elsewhere. */
function prepareOptions(voice: VoiceEngineSettings): PrepareOptions {
  return { dateOrder: voice.espeakVoice === 'en-us' ? 'mdy' : 'dmy' };
}

async function prepare(
  text: string,
  voice: VoiceEngineSettings,
  profile: ModelProfile,
): Promise<PreparedText> {
  // Kana conversion is not optional: without it the engine reads kanji as "Chinese letter".
  if (voice.language === 'ja') return prepareJapanese(text);
  return profile.textPreparation === 'full'
    ? prepareForEngine(text, voice.language, prepareOptions(voice))
    : asIs(text);
}

/**
 * Groups consecutive sentences of one paragraph into one engine call of at most
 * `maxChars` (turbo). Without merging every chunk is its own group.
 */
function* groupChunks(
  chunks: Iterable<SpeechChunk>,
  merge: boolean,
  maxChars: number,
): Generator<SpeechChunk[]> {
  let group: SpeechChunk[] = [];
  let length = 0;
  for (const chunk of chunks) {
    if (group.length > 0 && (!merge || !chunk.speakable || length + chunk.text.length > maxChars)) {
      yield group;
      group = [];
      length = 0;
    }
    group.push(chunk);
    length += chunk.text.length;
    const joinable = chunk.speakable && (chunk.breakAfter === 'sentence' || chunk.breakAfter === 'clause');
    if (!merge || !joinable) {
      yield group;
      group = [];
      length = 0;
    }
  }
  if (group.length > 0) yield group;
}

/** One engine text for several chunks, mapping positions back into the whole group's text. */
function joinPrepared(parts: Array<{ prepared: PreparedText; sourceOffset: number }>): PreparedText {
  let cp = 0;
  const spans = parts.map(({ prepared, sourceOffset }) => {
    const span = { startCp: cp, prepared, sourceOffset };
    cp += [...prepared.engineText].length + 1;
    return span;
  });
  return {
    engineText: parts.map((p) => p.prepared.engineText).join(' '),
    toSource(textPosition, wordLength) {
      let span = spans[0]!;
      for (const s of spans) if (s.startCp < textPosition) span = s;
      const r = span.prepared.toSource(textPosition - span.startCp, wordLength);
      return { start: r.start + span.sourceOffset, end: r.end + span.sourceOffset };
    },
  };
}

/** A text file written under a temporary name and renamed when complete. */
class AtomicTextFile {
  private readonly stream: WriteStream;
  private failure: Error | undefined;
  constructor(private readonly path: string) {
    this.stream = createWriteStream(`${path}.partial`);
    // Kept and rethrown by the next write or commit, so a disk error fails the render.
    this.stream.on('error', (error) => (this.failure ??= error));
  }
  async write(text: string): Promise<void> {
    if (this.failure) throw this.failure;
    // `once` also rejects on 'error', and removes both of its listeners either way.
    if (!this.stream.write(text)) await once(this.stream, 'drain');
  }
  async commit(): Promise<void> {
    await new Promise<void>((resolve) => this.stream.end(resolve));
    if (this.failure) throw this.failure;
    await rename(`${this.path}.partial`, this.path);
  }
  async discard(): Promise<void> {
    if (!this.stream.closed) await new Promise<void>((resolve) => this.stream.end(resolve));
    await rm(`${this.path}.partial`, { force: true });
  }
}

/** Starts the worker pool; resolves once every worker's engine is loaded and warm. */
export async function createEngine(options: EngineOptions = {}): Promise<Engine> {
  const pool: WorkerPool = await createWorkerPool({
    size: options.poolSize,
    taskTimeoutMs: options.taskTimeoutMs,
    workerUrl: options.workerUrl,
  });
  let closed = false;

  async function render(request: RenderRequest): Promise<RenderResult> {
    if (closed) throw new AppError('SHUTTING_DOWN', 'the engine is shutting down');
    const resolved = resolve(request);
    const { voice, profile, engine } = resolved;
    const text = cleanText(request.text);
    const characters = countCharacters(text);
    if (!hasSpeakableContent(text)) {
      throw new AppError(
        'NOTHING_TO_SPEAK',
        'input_text has nothing to speak (only punctuation, symbols or emoji)',
        {
          field: 'input_text',
        },
      );
    }
    const owner = randomUUID();
    const sink: AudioSink =
      request.audio_type === 'wav'
        ? await createWavSink(request.audioPath, SAMPLE_RATE)
        : await createMp3Sink(request.audioPath, { sampleRate: SAMPLE_RATE, bitrate: request.bitrate });
    const srt = request.srtPath ? new AtomicTextFile(request.srtPath) : undefined;
    const timings = request.timingsPath ? new AtomicTextFile(request.timingsPath) : undefined;
    const volume = createVolumeProcessor({ gain: request.volume / 100, sampleRate: SAMPLE_RATE });
    const cues = createCueBuilder();
    let cueCount = 0;
    let samplesIn = 0;
    let firstWord = true;

    const write = async (pcm: Int16Array) => {
      samplesIn += pcm.length;
      const out = volume.process(pcm);
      if (out.length > 0) await sink.write(out);
    };
    const writeCues = async (list: ReturnType<typeof cues.finish>) => {
      cueCount += list.length;
      if (srt) for (const cue of list) await srt.write(formatSrtCue(cue));
    };
    const writeWords = async (words: WordTiming[]) => {
      if (!timings) return;
      for (const w of words) {
        await timings.write(`${firstWord ? '[\n' : ',\n'}${JSON.stringify(w)}`);
        firstWord = false;
      }
    };

    // In-flight chunks, in order. The window keeps every worker busy while bounding memory.
    const window = pool.size * 3;
    const inFlight: Array<{
      chunk: TextChunk;
      prepared?: PreparedText;
      result: Promise<SynthesisOutput | undefined>;
    }> = [];
    const chunks = groupChunks(
      splitIntoChunks(text, voice.language, { maxChars: profile.mergeSentences ? 300 : profile.chunkChars }),
      profile.mergeSentences,
      profile.chunkChars,
    );
    let exhausted = false;
    let isFirstChunk = true;

    const refill = async () => {
      while (!exhausted && inFlight.length < window) {
        const next = chunks.next();
        if (next.done) {
          exhausted = true;
          break;
        }
        const group = next.value;
        const first = group[0]!;
        const last = group.at(-1)!;
        const chunk: TextChunk = {
          index: first.index,
          start: first.start,
          text: text.slice(first.start, last.start + last.text.length),
          pauseAfterMs: last.pauseAfterMs,
        };
        if (!first.speakable) {
          inFlight.push({ chunk, result: Promise.resolve(undefined) });
          continue;
        }
        const prepared =
          group.length === 1
            ? await prepare(first.text, voice, profile)
            : joinPrepared(
                await Promise.all(
                  group.map(async (c) => ({
                    prepared: await prepare(c.text, voice, profile),
                    sourceOffset: c.start - first.start,
                  })),
                ),
              );
        const result = pool.synthesize(prepared.engineText, engine, owner);
        // Rejections are awaited in order below; this only keeps them from being reported as unhandled.
        result.catch(() => undefined);
        inFlight.push({ chunk, prepared, result });
      }
    };

    try {
      await refill();
      while (inFlight.length > 0) {
        if (request.signal?.aborted) throw new AppError('SHUTTING_DOWN', 'render aborted');
        const head = inFlight.shift()!;
        const output = await head.result;
        await refill();
        const { chunk, prepared } = head;
        if (output && prepared) {
          const keep = Math.round((KEEP_EDGE_MS / 1000) * SAMPLE_RATE);
          const edges = trimSilence(output.pcm);
          const start = Math.max(0, edges.start - keep);
          const end = Math.min(output.pcm.length, output.pcm.length - edges.end + keep);
          const pcm = output.pcm.slice(start, Math.max(start, end));
          fadeEdges(pcm, SAMPLE_RATE, profile.fadeMs);
          const leadMs = (start / SAMPLE_RATE) * 1000;
          const chunkOffsetMs = (samplesIn / SAMPLE_RATE) * 1000;
          const speechEndMs = chunkOffsetMs + (pcm.length / SAMPLE_RATE) * 1000;
          // Word timings and cues cost CPU: only when a subtitle or timings file is wanted.
          if (srt || timings) {
            const marks: EngineWordMark[] = output.words.map((w) => {
              const span = prepared.toSource(w.textPosition, w.wordLength);
              return {
                sourceStart: span.start,
                sourceEnd: span.end,
                audioMs: Math.max(0, w.audioMs - leadMs),
              };
            });
            const words = timeChunkWords({
              text: chunk.text,
              textOffset: chunk.start,
              marks,
              chunkOffsetMs,
              speechEndMs,
            });
            await writeWords(words);
            await writeCues(cues.push(words, chunk.text, chunk.start, speechEndMs));
          }
          if (!isFirstChunk || pcm.length > 0) await write(pcm);
          isFirstChunk = false;
        }
        if (inFlight.length > 0 || !exhausted) {
          const pauseMs = (chunk.pauseAfterMs * profile.pauseScale) / request.speed_rate;
          if (pauseMs > 0 && !isFirstChunk) await write(silence(pauseMs, SAMPLE_RATE));
        }
        request.onProgress?.(Math.min(1, (chunk.start + chunk.text.length) / text.length));
      }
      const tail = volume.flush();
      if (tail.length > 0) await sink.write(tail);
      await writeCues(cues.finish());
      if (timings) await timings.write(firstWord ? '[]\n' : '\n]\n');
      const done = await sink.finish();
      await srt?.commit();
      await timings?.commit();
      return { characters, durationMs: done.durationMs, audioBytes: done.bytes, cueCount };
    } catch (error) {
      // Chunks still queued for this render would only keep the workers busy.
      pool.cancel(owner);
      await Promise.allSettled([sink.abort(), srt?.discard(), timings?.discard()]);
      if (isAppError(error)) throw error;
      // The subtitle or timings file (the audio sink reports its own errors as AppError).
      throw outputFailedError('the subtitle files', request.srtPath ?? request.audioPath, 'write', error);
    }
  }

  return {
    poolSize: pool.size,
    render,
    async audition(options) {
      const resolved = resolve({ ...options, model_id: 'std-v1.6' });
      const text = options.text ?? AUDITION_TEXT[resolved.voice.language];
      const prepared =
        resolved.voice.language === 'ja'
          ? await prepareJapanese(text)
          : prepareForEngine(cleanText(text), resolved.voice.language, prepareOptions(resolved.voice));
      const output = await pool.synthesize(prepared.engineText, resolved.engine, 'audition');
      const edges = trimSilence(output.pcm);
      const pcm = output.pcm.slice(edges.start, output.pcm.length - edges.end);
      const processor = createVolumeProcessor({ gain: options.volume / 100, sampleRate: SAMPLE_RATE });
      const head = processor.process(pcm);
      const tail = processor.flush();
      const all = new Int16Array(head.length + tail.length);
      all.set(head);
      all.set(tail, head.length);
      return encodeWav(all, SAMPLE_RATE);
    },
    async close() {
      closed = true;
      await pool.close();
    },
  };
}
