/**
 * One render, text to files, in named steps: clean and check the text, resolve the voice,
 * plan the engine calls, synthesise them on the pool in order with a bounded window, then
 * for each chunk trim its audio, time its words, write audio and subtitles, and add the
 * pause that follows it. Memory is bounded by the chunks in flight, whatever the length.
 * Plain text is one segment with the request's voice; SSML input is several (`./ssml-segments`),
 * each with its own voice, backend and prosody, with its breaks and marks between them.
 */

import { randomUUID } from 'node:crypto';
import { AppError, isAppError } from '../../../shared/errors';
import { silence } from '../audio/dsp';
import { cachedBackend } from '../cache/cached-backend';
import { blankMarkerLines } from '../text/chapters';
import type { SentenceCache } from '../cache/sentence-cache';
import { espeakBackend } from '../espeak/espeak-backend';
import type { RenderRequest, RenderResult } from '../engine';
import { openNeuralBackend } from '../onnx/neural-backends';
import type { NeuralModels } from '../onnx/neural-models';
import type { WorkerPool } from '../espeak/worker-pool';
import type { SpeechBackend } from '../speech-backend';
import { cleanText, countCharacters } from '../../../shared/text';
import { timeChunkWords } from '../subtitles/word-timing';
import { compileLexicon, lexiconUnits } from '../text/lexicon';
import type { CompiledLexicon, PrepareOptions } from '../text/rule-kit';
import { createResampler } from '../audio/resampler';
import { isSsml, parseSsml, type SsmlDocument, type SsmlEvent } from '../../../shared/ssml';
import type { LanguageCode } from '../../../shared/voices';
import { hasSpeakableContent } from '../../../shared/text';
import { trimChunkAudio, wordMarks } from './chunk-audio';
import { DroppedPhonemes } from './dropped-phonemes';
import { openRenderOutputs, type RenderOutputs } from './outputs';
import { planSpeech } from './speech-plan';
import { synthesizeInOrder } from './synthesis-window';
import { plainSegments, segmentReadings, ssmlSegments, type RenderSegment } from './ssml-segments';
import { prepareOptions, resolveVoice, type ResolvedVoice } from './voice';

/** What a render runs on: the eSpeak pool (speech, and phonemes for neural voices) and the open neural models. */
export interface RenderContext {
  pool: WorkerPool;
  models: NeuralModels;
  /** Where engine calls are looked up before they are synthesised (none: every call synthesises). */
  cache?: SentenceCache | undefined;
}

/**
 * The backend that speaks `request`: its neural voice when it has one and the voice opens,
 * else eSpeak (a pack removed or damaged since the voice was chosen must not fail the render;
 * the result's `engine` says which spoke).
 */
export async function chooseBackend(
  { pool, models, cache }: RenderContext,
  request: Pick<RenderRequest, 'neuralVoice' | 'speed_rate' | 'pitch_rate'>,
  resolved: ResolvedVoice,
): Promise<SpeechBackend> {
  if (request.neuralVoice) {
    try {
      return cachedBackend(await openNeuralBackend(request.neuralVoice, pool, models, request), cache, pool);
    } catch {
      // Fall through to the base engine.
    }
  }
  return cachedBackend(espeakBackend(pool, resolved.engine), cache, pool);
}

/** Renders `request` to its files. Rejects with AppError; partial files are removed. */
export async function renderToFiles(context: RenderContext, request: RenderRequest): Promise<RenderResult> {
  const { pool } = context;
  const timing = new RenderTiming();
  const base = resolveVoice(request);
  const input = readInput(request);
  const { document, text } = input;
  const { segments, after, pauseAt } = document
    ? ssmlSegments(document, request, base.voice.language)
    : plainSegments(text, request);
  const speakers = openSpeakers(context, request, base.voice.language);
  const first = await speakers.of(segments[0] as RenderSegment);
  const rate = first.backend.sampleRate;
  const owner = randomUUID();
  const outputs = await openRenderOutputs(request, rate);
  const writer = new RenderWriter(outputs, rate, timing);
  try {
    let previous: { segment: RenderSegment; speaker: Speaker } | undefined;
    for (const [index, segment] of segments.entries()) {
      const speaker = await speakers.of(segment);
      if (index > 0 || segment.before.length > 0) {
        const pauseMs = previous
          ? (pauseAt(segment.start) * previous.speaker.resolved.profile.pauseScale) /
            previous.segment.speed_rate
          : 0;
        await writer.writeBetween(segment.before, pauseMs);
      }
      await speakSegment(segment, speaker, input, writer, { owner, request });
      previous = { segment, speaker };
      if (index === segments.length - 1 && after.length > 0) await writer.writeBetween(after, 0);
    }
    const done = await outputs.finish();
    const times = timing.finish();
    return {
      characters: input.characters,
      durationMs: done.durationMs,
      audioBytes: done.bytes,
      cueCount: outputs.cueCount,
      engine: await speakers.labels(),
      droppedPhonemes: writer.dropped.counts(),
      warnings: writer.dropped.warnings(),
      timing: times,
    };
  } catch (error) {
    // Chunks still queued for this render would only keep the workers busy.
    pool.cancel(owner);
    await outputs.abort();
    if (isAppError(error)) throw error;
    throw new AppError('ENGINE_FAILED', 'The render failed unexpectedly.', undefined, { cause: error });
  }
}

/** What a render speaks: the text (SSML's spoken text), its SSML document, the characters billed. */
interface RenderInput {
  document: SsmlDocument | undefined;
  text: string;
  characters: number;
}

/** The cleaned text of `request`, parsed when it is SSML; throws NOTHING_TO_SPEAK when it has nothing to say. */
function readInput(request: RenderRequest): RenderInput {
  const source = cleanText(request.text);
  const document = isSsml(source)
    ? parseSsml(source, { voiceCode: request.voice_code, customVoices: request.customVoices })
    : undefined;
  // Billed as submitted (the spoken text of SSML); `[chapter: …]` lines name chapters and are
  // never spoken (see text/chapters.ts).
  const characters = countCharacters(document ? document.text : source);
  const text = document ? document.text : blankMarkerLines(source);
  if (!hasSpeakableContent(text)) {
    throw new AppError(
      'NOTHING_TO_SPEAK',
      'input_text has nothing to speak (only punctuation, symbols or emoji)',
      { field: 'input_text' },
    );
  }
  return { document, text, characters };
}

/** The render's timing: its wall time, and the time to its first audio (what a listener waits). */
class RenderTiming {
  private readonly startedAt = performance.now();
  private firstAudioAt: number | undefined;

  /** Notes that audio was written: the first time counts. */
  audioWritten(): void {
    this.firstAudioAt ??= performance.now();
  }

  /** Both times, ms, at the end of the render (no audio: the first audio is the end). */
  finish(): { wallMs: number; firstAudioMs: number } {
    const endedAt = performance.now();
    return {
      wallMs: endedAt - this.startedAt,
      firstAudioMs: (this.firstAudioAt ?? endedAt) - this.startedAt,
    };
  }
}

/**
 * Writes a render's audio, pauses, words and marks in order. Nothing is written before the first
 * chunk's speech but breaks and marks: no pause opens a file, and nor does a silent first chunk.
 */
class RenderWriter {
  /** Phonemes the backends could not say, by backend. */
  readonly dropped = new DroppedPhonemes();
  private isFirstChunk = true;

  constructor(
    private readonly outputs: RenderOutputs,
    readonly rate: number,
    private readonly timing: RenderTiming,
  ) {}

  /** Whether word timings are wanted (they cost CPU otherwise). */
  get wantsWords(): boolean {
    return this.outputs.wantsWords;
  }

  /** Where the next sample falls, ms. */
  private nowMs(): number {
    return (this.outputs.samplesWritten / this.rate) * 1000;
  }

  /** Writes what stands before a segment's words (or after the last): breaks replace the pause. */
  async writeBetween(events: readonly SsmlEvent[], pauseMs: number): Promise<void> {
    const hasBreak = events.some((e) => e.kind === 'break');
    if (!hasBreak && pauseMs > 0 && !this.isFirstChunk)
      await this.outputs.writeAudio(silence(pauseMs, this.rate));
    for (const event of events) {
      if (event.kind === 'break' && event.ms > 0) await this.outputs.writeAudio(silence(event.ms, this.rate));
      if (event.kind === 'mark')
        await this.outputs.writeMarks([{ mark: event.name, startMs: this.nowMs(), charStart: event.offset }]);
    }
  }

  /**
   * Times a chunk's words, from the chunk's word marks and its speech of `samples` samples about to
   * be written, and writes them with the SSML marks that fall due (at the first word after them,
   * or at the end of the speech of the segment's last chunk). Resolves to the marks still to come.
   */
  async writeWords(
    chunk: {
      text: string;
      start: number;
      marks: ReturnType<typeof wordMarks>;
      samples: number;
      more: boolean;
      /** The lexicon's abbreviations the chunk was cut with (`CompiledLexicon.abbreviations`). */
      abbreviations: ReadonlySet<string> | undefined;
    },
    marks: readonly SegmentMark[],
  ): Promise<SegmentMark[]> {
    const chunkOffsetMs = this.nowMs();
    const speechEndMs = chunkOffsetMs + (chunk.samples / this.rate) * 1000;
    const words = timeChunkWords({
      text: chunk.text,
      textOffset: chunk.start,
      marks: chunk.marks,
      chunkOffsetMs,
      speechEndMs,
    });
    // A mark is at the first word after it, or at the end of the chunk's speech.
    const chunkEnd = chunk.start + chunk.text.length;
    const due = marks.filter((m) => m.offset < chunkEnd || !chunk.more);
    const timed = due.map((m) => ({
      mark: m.name,
      startMs: words.find((w) => w.charStart >= m.offset)?.startMs ?? speechEndMs,
      charStart: m.offset,
    }));
    await this.outputs.writeWords(words, chunk.text, chunk.start, speechEndMs, timed, chunk.abbreviations);
    return marks.filter((m) => !due.includes(m));
  }

  /** Writes a chunk's speech (a silent first chunk writes nothing). */
  async writeSpeech(pcm: Int16Array): Promise<void> {
    if (!this.isFirstChunk || pcm.length > 0) await this.outputs.writeAudio(pcm);
    if (pcm.length > 0) this.timing.audioWritten();
    this.isFirstChunk = false;
  }

  /** Writes the pause after a chunk. */
  async writePause(pauseMs: number): Promise<void> {
    if (pauseMs > 0 && !this.isFirstChunk) await this.outputs.writeAudio(silence(pauseMs, this.rate));
  }

  /** Writes marks at the current position (those left at a segment's end). */
  async writeMarksHere(marks: readonly SegmentMark[]): Promise<void> {
    const nowMs = this.nowMs();
    await this.outputs.writeMarks(marks.map((m) => ({ mark: m.name, startMs: nowMs, charStart: m.offset })));
  }
}

/** An SSML mark inside a segment. */
type SegmentMark = RenderSegment['marks'][number];

/**
 * Speaks one segment: its chunks planned and synthesised in order, each trimmed, timed and
 * written with the pause after it, progress reported; the marks left at its end written there.
 */
async function speakSegment(
  segment: RenderSegment,
  speaker: Speaker,
  { document, text }: RenderInput,
  writer: RenderWriter,
  { owner, request }: { owner: string; request: RenderRequest },
): Promise<void> {
  const { resolved, backend } = speaker;
  const { profile } = resolved;
  const piece = text.slice(segment.start, segment.end);
  const readings = document
    ? segmentReadings(document.readings, text, segment.start, segment.end, resolved.voice.language, {
        ...prepareOptions(resolved.voice),
        units: speaker.units,
      })
    : undefined;
  const { lexicon, units } = speaker;
  const chunks = synthesizeInOrder(planSpeech(piece, resolved, { lexicon, units, readings }), {
    backend,
    owner,
    signal: request.signal,
  });
  let marks = segment.marks;
  for await (const { chunk, prepared, output, more } of chunks) {
    const chunkStart = segment.start + chunk.start;
    if (output && prepared) {
      writer.dropped.add(backend.label, output.dropped);
      const trimmed = trimChunkAudio(output, profile.fadeMs);
      const pcm = await speaker.toOutput(trimmed.pcm, writer.rate, segment.gain);
      if (writer.wantsWords) {
        const wordTimes = wordMarks(output, prepared, trimmed.leadMs);
        marks = await writer.writeWords(
          {
            text: chunk.text,
            start: chunkStart,
            marks: wordTimes,
            samples: pcm.length,
            more,
            abbreviations: lexicon?.abbreviations,
          },
          marks,
        );
      }
      await writer.writeSpeech(pcm);
      // Written: the sinks and the volume stage keep no view of it. `onAudio`'s listeners may.
      if (!request.onAudio) output.release?.();
    }
    if (more) await writer.writePause((chunk.pauseAfterMs * profile.pauseScale) / segment.speed_rate);
    request.onProgress?.(Math.min(1, (chunkStart + chunk.text.length) / text.length));
  }
  if (marks.length > 0) await writer.writeMarksHere(marks);
}

/** The speakers of a render, each opened once per voice, custom speaker and prosody. */
function openSpeakers(context: RenderContext, request: RenderRequest, ownLanguage: LanguageCode) {
  const speakers = new Map<string, Promise<Speaker>>();
  return {
    of(segment: RenderSegment): Promise<Speaker> {
      const key = `${segment.voice_code}|${segment.speaker ?? ''}|${segment.speed_rate}|${segment.pitch_rate}`;
      let speaker = speakers.get(key);
      if (!speaker) {
        speaker = openSpeaker(context, request, segment, ownLanguage);
        speakers.set(key, speaker);
      }
      return speaker;
    },
    /** What spoke: each backend's label once, in the order they were opened, joined by ",". */
    async labels(): Promise<string> {
      return [
        ...new Set(await Promise.all([...speakers.values()].map(async (s) => (await s).backend.label))),
      ].join(',');
    },
  };
}

/** One voice with one prosody as a render speaks with it. */
interface Speaker {
  resolved: ResolvedVoice;
  backend: SpeechBackend;
  lexicon: CompiledLexicon | undefined;
  /** The lexicon's units of measure, for the measure rules. */
  units: PrepareOptions['units'];
  /** A trimmed chunk's audio as the output takes it: at `rate` Hz, × `gain`. */
  toOutput(pcm: Int16Array, rate: number, gain: number): Promise<Int16Array>;
}

/** The voice, backend and lexicon of `segment`: the request's own for plain text. */
async function openSpeaker(
  context: RenderContext,
  request: RenderRequest,
  segment: RenderSegment,
  ownLanguage: LanguageCode,
): Promise<Speaker> {
  const { speaker } = segment;
  const isOwnVoice = segment.voice_code === request.voice_code && speaker === undefined;
  const options = {
    ...request,
    voice_code: segment.voice_code,
    speed_rate: segment.speed_rate,
    pitch_rate: segment.pitch_rate,
  };
  const resolved = resolveVoice(options);
  const neuralVoice = isOwnVoice ? request.neuralVoice : request.voices?.[speaker ?? segment.voice_code];
  const backend = await chooseBackend(context, { ...options, neuralVoice }, resolved);
  const { language } = resolved.voice;
  const rules =
    speaker !== undefined
      ? request.speakerLexicons?.[speaker]
      : language === ownLanguage
        ? request.lexicon
        : request.lexicons?.[language];
  return {
    resolved,
    backend,
    lexicon: compileLexicon(rules, language),
    units: lexiconUnits(rules),
    async toOutput(pcm, rate, gain) {
      let out = pcm;
      if (backend.sampleRate !== rate) {
        const resampler = await createResampler(backend.sampleRate, rate);
        const head = resampler.process(out);
        const tail = resampler.flush();
        out = new Int16Array(head.length + tail.length);
        out.set(head);
        out.set(tail, head.length);
      }
      return gain === 1 ? out : scaleSamples(out, gain);
    },
  };
}

/** `pcm` × `gain`, clipped to 16 bits (the volume stage's limiter follows). */
function scaleSamples(pcm: Int16Array, gain: number): Int16Array {
  const out = new Int16Array(pcm.length);
  for (let i = 0; i < pcm.length; i++)
    out[i] = Math.max(-32768, Math.min(32767, Math.round((pcm[i] as number) * gain)));
  return out;
}
