/**
 * One claimed request rendered by the job runner: the voices chosen from what is installed
 * when the render starts (a custom voice's snapshot, a Kokoro pack, the voice library, else
 * eSpeak), the engine's render with progress and audio passed on, the chapters of a text with
 * chapter lines, and the SUCCESS outcome it records. Failures throw; the runner records them.
 */

import { ssmlVoices, type Engine } from '../engine';
import { findVoice } from '../../shared/voices';
import { spokenVoiceCode } from '../../shared/voice-mapping';
import type { RequestRow } from '../store';
import type { Clock } from '../platform/clock';
import type { Log } from '../platform/log';
import type { JobEvents } from './events';
import { renderRequestOf } from './render-request';
import type { ResultFiles } from './result-files';
import { customVoiceRender, ssmlCustomVoices, type CustomVoiceLookups } from './custom-voice-render';
import { chapterPlanOf, writeRequestChapters } from './request-chapters';
import type { Outcome } from './request-outcomes';

/** Receives a render's audio in order: mono 16-bit PCM at `sampleRate` Hz. */
export type AudioListener = (pcm: Int16Array, sampleRate: number) => void;

export interface RequestRenderingContext {
  engine: Engine;
  files: ResultFiles;
  events: JobEvents;
  clock: Clock;
  log: Log;
  /** What is installed (the runner's options). */
  lookups: CustomVoiceLookups;
  /** The listeners of a request's audio now. */
  listenersOf(requestId: string): Iterable<AudioListener>;
}

/** A render in flight, as this module updates it. */
export interface RenderingState {
  controller: AbortController;
  progress: number;
  lastEmit: number;
  /** Set once audio has reached the listeners: a late listener would miss the start. */
  audioStarted: boolean;
}

/**
 * For SSML input, the neural voices and lexicons of the document's other voices and languages
 * (the document was checked at submit; should it fail now, the render reports its error).
 */
const ssmlVoicesOf = (context: RequestRenderingContext, row: RequestRow) => {
  const { lookups, log } = context;
  const custom = ssmlCustomVoices(row.custom_voice, row.model_id, lookups, (message) =>
    log.warn(`request ${row.id}: ${message}`),
  );
  return ssmlVoices(
    row.input_text,
    spokenVoiceCode(row),
    {
      neuralVoice: async (code) => lookups.neuralVoice?.(code, row.model_id),
      lexicon: async (language) => (await lookups.lexicon?.(language)) ?? [],
      customVoice: custom.customVoice,
    },
    custom.customVoices,
  ).catch(() => ({}));
};

/**
 * The neural voice of a request without a custom voice, chosen when the render starts from
 * what is installed then; a library that cannot be read leaves the request to eSpeak rather
 * than failing it. A Kokoro name or mix: a Kokoro pack holding it, else (also when that pack
 * cannot be read) the voice code that stands in for it.
 */
const neuralVoiceOf = (context: RequestRenderingContext, row: RequestRow, voiceCode: string) => {
  const { lookups, log } = context;
  const kokoro = row.kokoro_voice === null ? undefined : lookups.kokoroVoice?.(row.kokoro_voice);
  return (kokoro ?? Promise.resolve(undefined))
    .catch((error: unknown) => {
      log.warn(`request ${row.id}: ${row.kokoro_voice} cannot be opened: ${(error as Error).message}`);
      return undefined;
    })
    .then((voice) => voice ?? lookups.neuralVoice?.(voiceCode, row.model_id))
    .catch((error: unknown) => {
      log.warn(`request ${row.id}: voice library unreadable, eSpeak speaks: ${(error as Error).message}`);
      return undefined;
    });
};

/** Progress for people watching: a few updates a second are plenty. */
const progressReporter =
  (context: RequestRenderingContext, row: RequestRow, entry: RenderingState) => (fraction: number) => {
    entry.progress = fraction;
    const now = context.clock.now();
    if (now - entry.lastEmit >= 200) {
      entry.lastEmit = now;
      context.events.emit('request', {
        keyId: row.key_id,
        request_id: row.id,
        status: 'processing',
        progress: fraction,
      });
    }
  };

/** Renders a claimed request; its SUCCESS outcome, or throws what failed it. */
export async function renderClaimedRequest(
  context: RequestRenderingContext,
  row: RequestRow,
  entry: RenderingState,
): Promise<Outcome> {
  const { engine, files, log } = context;
  const voiceCode = spokenVoiceCode(row);
  // A request accepted with a custom voice: its snapshot (not today's definition) resolved
  // into the voice code, prosody, lexicon and neural voice it renders with, and a warning when
  // its pack or blend is not installed.
  const custom = await customVoiceRender(row.custom_voice, row, context.lookups, (message) =>
    log.warn(`request ${row.id}: ${message}`),
  );
  const neuralVoice = custom ? custom.resolved.neuralVoice : await neuralVoiceOf(context, row, voiceCode);
  const language = findVoice(voiceCode)?.language;
  const lexicon = custom ? custom.lexicon : language ? await context.lookups.lexicon?.(language) : undefined;
  const ssml = await ssmlVoicesOf(context, row);
  // A text with chapter lines: its word timings give the chapters' times.
  const chapterPlan = chapterPlanOf(row.input_text);
  const result = await engine.render(
    renderRequestOf(
      row,
      {
        voiceCode,
        neuralVoice,
        lexicon,
        ssml,
        prosody: custom?.resolved,
        timings: Boolean(chapterPlan || row.word_timings),
        signal: entry.controller.signal,
        onAudio: (pcm, sampleRate) => {
          entry.audioStarted = true;
          for (const listener of context.listenersOf(row.id)) listener(pcm, sampleRate);
        },
        onProgress: progressReporter(context, row, entry),
      },
      files,
    ),
  );
  if (chapterPlan) {
    await writeRequestChapters(
      chapterPlan,
      files.timingsPath(row),
      files.chaptersPath(row),
      result.durationMs,
      { keepTimings: row.word_timings === 1 },
    );
  }
  if (row.voice_match) {
    log.info(
      `request ${row.id}: voice_code "${row.voice_code}" was spoken by ${voiceCode} (${row.voice_match}), engine ${result.engine}`,
    );
  }
  for (const warning of result.warnings) log.warn(`request ${row.id}: ${warning}`);
  return {
    status: 'SUCCESS',
    durationMs: Math.round(result.durationMs),
    audioBytes: result.audioBytes,
    cueCount: result.cueCount,
    engine: result.engine,
    warnings: [...(custom?.warnings ?? []), ...result.warnings],
  };
}
