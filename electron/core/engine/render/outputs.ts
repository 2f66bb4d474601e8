/**
 * The files one render writes: the audio (any AudioFormat, through the volume limiter), and when
 * asked the SRT subtitles and the word timings (JSON). Each is staged under a temporary name
 * and appears under its own only when `finish` succeeds; `abort` removes them all.
 */

import { StagedFile } from '../../platform/staged-file';
import type { AudioSink } from '../audio/audio-sink';
import { createVolumeProcessor } from '../audio/dsp';
import { createEncoderSink } from '../audio/encoder-sink';
import { createWavSink } from '../audio/wav';
import type { MarkTiming, RenderRequest } from '../engine';
import { createCueBuilder } from '../subtitles/cues';
import { formatSrtCue } from '../subtitles/srt';
import type { WordTiming } from '../types';

export interface RenderOutputs {
  /** Whether word timings are wanted (an SRT or a timings file): they cost CPU otherwise. */
  readonly wantsWords: boolean;
  /** Samples written so far, before the limiter's look-ahead: the position of the next sample. */
  readonly samplesWritten: number;
  /** Number of subtitle cues written so far. */
  readonly cueCount: number;
  /** Appends PCM through the volume processor. */
  writeAudio(pcm: Int16Array): Promise<void>;
  /**
   * Appends a chunk's timed words, and the cues they complete (speech of the chunk ends at
   * `speechEndMs`); `marks` (SSML) go into the timings among the words, by text offset;
   * `abbreviations`: the chunk's lexicon's, which do not end a cue's sentence (`CueBuilder.push`).
   */
  writeWords(
    words: WordTiming[],
    chunkText: string,
    chunkStart: number,
    speechEndMs: number,
    marks?: readonly MarkTiming[],
    abbreviations?: ReadonlySet<string>,
  ): Promise<void>;
  /** Appends SSML marks that stand between chunks to the timings. */
  writeMarks(marks: readonly MarkTiming[]): Promise<void>;
  /** Flushes everything and renames each file to its final name; resolves with the audio's size and duration. */
  finish(): Promise<{ durationMs: number; bytes: number }>;
  /** Removes every temporary file. */
  abort(): Promise<void>;
}

/**
 * The audio file's sink for `request.audio_type`: WAV and MP3 have file writers of their own
 * (WAV writes its real sizes at the end); the other formats write their stream encoder's bytes.
 * Encoders other than WAV's are loaded on first use.
 */
async function openAudioSink(request: RenderRequest, sampleRate: number): Promise<AudioSink> {
  switch (request.audio_type) {
    case 'wav':
      return createWavSink(request.audioPath, sampleRate);
    case 'mp3': {
      // Loaded when first needed, as the stream encoders are: a WAV render never loads LAME.
      const { createMp3Sink } = await import('../audio/mp3');
      return createMp3Sink(request.audioPath, { sampleRate, bitrate: request.bitrate });
    }
    case 'opus':
    case 'aac':
    case 'flac':
    case 'pcm':
      return createEncoderSink(request.audioPath, request.audio_type, { sampleRate });
  }
}

/** Opens the files of `request` for audio at `sampleRate` Hz. */
export async function openRenderOutputs(request: RenderRequest, sampleRate: number): Promise<RenderOutputs> {
  const sink = await openAudioSink(request, sampleRate);
  let srt: StagedFile | undefined;
  let timings: StagedFile | undefined;
  try {
    srt = request.srtPath ? await StagedFile.create(request.srtPath, 'the subtitle file') : undefined;
    timings = request.timingsPath
      ? await StagedFile.create(request.timingsPath, 'the word timings file')
      : undefined;
  } catch (error) {
    await Promise.allSettled([sink.abort(), srt?.discard()]);
    throw error;
  }
  const volume = createVolumeProcessor({ gain: request.volume / 100, sampleRate });
  const cues = createCueBuilder();
  let cueCount = 0;
  let samplesWritten = 0;
  let firstWord = true;

  const writeTiming = async (item: WordTiming | MarkTiming | undefined) => {
    if (!timings || !item) return;
    await timings.write(`${firstWord ? '[\n' : ',\n'}${JSON.stringify(item)}`);
    firstWord = false;
  };

  const writeCues = async (list: ReturnType<typeof cues.finish>) => {
    cueCount += list.length;
    if (srt) for (const cue of list) await srt.write(formatSrtCue(cue));
  };

  return {
    wantsWords: srt !== undefined || timings !== undefined,
    get samplesWritten() {
      return samplesWritten;
    },
    get cueCount() {
      return cueCount;
    },
    async writeAudio(pcm) {
      samplesWritten += pcm.length;
      // Views on `pcm` where the volume stage leaves it as it is: the render is done with a
      // chunk's audio once it is written, so neither the sink nor `onAudio` sees it change.
      for (const out of volume.processViews(pcm)) {
        if (out.length === 0) continue;
        request.onAudio?.(out, sampleRate);
        await sink.write(out);
      }
    },
    async writeWords(words, chunkText, chunkStart, speechEndMs, marks = [], abbreviations) {
      if (timings) {
        let m = 0;
        for (const w of words) {
          while (m < marks.length && (marks[m] as MarkTiming).charStart <= w.charStart)
            await writeTiming(marks[m++]);
          await writeTiming(w);
        }
        while (m < marks.length) await writeTiming(marks[m++]);
      }
      await writeCues(cues.push(words, chunkText, chunkStart, speechEndMs, abbreviations));
    },
    async writeMarks(marks) {
      for (const mark of marks) await writeTiming(mark);
    },
    async finish() {
      const tail = volume.flush();
      if (tail.length > 0) {
        request.onAudio?.(tail, sampleRate);
        await sink.write(tail);
      }
      await writeCues(cues.finish());
      if (timings) await timings.write(firstWord ? '[]\n' : '\n]\n');
      const done = await sink.finish();
      await srt?.commit();
      await timings?.commit();
      return { durationMs: done.durationMs, bytes: done.bytes };
    },
    async abort() {
      await Promise.allSettled([sink.abort(), srt?.discard(), timings?.discard()]);
    },
  };
}
