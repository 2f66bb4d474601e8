import { defineMessages } from 'react-intl';
import type { RequestDetail, TtsRequest } from '../../../electron/shared/api';
import { isSsml } from '../../../electron/shared/ssml';
import { ApiError, errorMessage } from '../lib/api-client';
import { ssmlErrorPlace } from '../lib/dialogue-ssml';
import { createFollower } from '../lib/follow';
import type { ShownText } from '../lib/intl-text';
import { composedInput, type TextPlace } from './compose-slice';
import { callbackUrlProblem, sanitiseOptions } from './options-slice';
import type { SliceCreator } from './types';

export interface JobSlice {
  /** The request in the preview: being made, finished, or opened from history. */
  job: RequestDetail | null;
  generating: boolean;
  /**
   * The Compose panel's one current error: why the last Generate could not be sent or failed to
   * submit (or following it failed). Cleared when the next action starts, replaced by a newer one.
   * A message for the view to format, or the server's sentence.
   */
  jobError: ShownText | null;
  /** The API's error code of jobError (SSML_INVALID, NOTHING_TO_SPEAK…), or null. */
  jobErrorCode: string | null;
  /** Where in the draft jobError is (an SSML error's line and column), or null. */
  jobErrorPlace: TextPlace | null;
  /** Counts the Generate attempts: a panel clears its own older error when it changes. */
  attempts: number;
  /**
   * Counts the requests that reached their result (finished, failed, or opened from History)
   * after the user asked for them: the preview moves the focus to the result when it changes.
   */
  results: number;
  /** Submits the draft with the current options and follows it until SUCCESS or FAILURE. */
  generate(): Promise<void>;
  /**
   * Opens a stored request in the preview (follows it if unfinished). With `restore`, its text
   * and settings (voice, model, format, bitrate, speed, pitch, volume, subtitles, callback)
   * replace the draft's first; the draft is kept for Undo.
   */
  openRequest(id: string, options?: { restore?: boolean }): Promise<void>;
  /** Forgets the Compose panel's error (another action of that panel started). */
  clearJobError(): void;
  /** Stops following the current request (the request itself keeps running on the server). */
  stopFollowing(): void;
  /** Cancels the current request on the server (refunded) and shows its final state. */
  cancel(): Promise<void>;
}

const messages = defineMessages({
  callback: { id: 'compose.problem.callback', defaultMessage: 'Callback URL: {problem}' },
});

const isFinal = (job: RequestDetail) => job.status === 'SUCCESS' || job.status === 'FAILURE';

export const createJobSlice: SliceCreator<JobSlice> =
  ({ client, pollMs = 1000 }) =>
  (set, get) => {
    const follower = createFollower();

    /**
     * Follows a request: progress arrives as server-sent events; the detail is re-read when an
     * event says the request finished, and every `pollMs` anyway (lib/follow.ts).
     */
    const follow = (id: string) =>
      follower.follow({
        pollMs,
        read: () => client.request(id),
        show: (job) => set({ job }),
        isFinal,
        done() {
          set({ generating: false, results: get().results + 1 });
          void get().refreshSession();
        },
        fail(error) {
          set({
            generating: false,
            jobError: errorMessage(error),
            jobErrorCode: null,
            jobErrorPlace: null,
          });
        },
        listen: ({ signal, current, wake }) =>
          client.streamEvents(
            {
              onRequest(event) {
                const job = get().job;
                if (!current() || event.request_id !== id || !job || job.request_id !== id) return;
                set({ job: { ...job, status: event.status, progress: event.progress } });
                if (event.status === 'SUCCESS' || event.status === 'FAILURE') wake();
              },
            },
            signal,
          ),
      });

    const noError = { jobError: null, jobErrorCode: null, jobErrorPlace: null } as const;

    return {
      job: null,
      generating: false,
      ...noError,
      attempts: 0,
      results: 0,
      async generate() {
        if (get().generating) return;
        const { options } = get();
        set({ ...noError, attempts: get().attempts + 1 });
        const input = composedInput(get());
        if (input.problem !== undefined) {
          set({
            jobError: input.problem,
            jobErrorCode: input.code ?? null,
            jobErrorPlace: input.place ?? null,
          });
          return;
        }
        const problem = callbackUrlProblem(options.callback_url);
        if (problem) {
          set({ jobError: { message: messages.callback, values: { problem } } });
          return;
        }
        const request: TtsRequest = {
          input_text: input.input_text,
          voice_code: options.voice_code,
          model_id: options.model_id,
          audio_type: options.audio_type,
          speed_rate: options.speed_rate,
          pitch_rate: options.pitch_rate,
          volume: options.volume,
          generate_srt: options.generate_srt,
          ...(options.audio_type === 'mp3' ? { bitrate: options.bitrate } : {}),
          ...(options.callback_url.trim() ? { callback_url: options.callback_url.trim() } : {}),
        };
        set({ generating: true });
        try {
          const record = await client.submit(request);
          await follow(record.request_id);
        } catch (error) {
          const code = error instanceof ApiError ? error.code : null;
          const message = errorMessage(error);
          set({
            generating: false,
            jobError: message,
            jobErrorCode: code,
            // The place from the server's own sentence: the one shown may be in another language.
            jobErrorPlace:
              code === 'SSML_INVALID' ? (ssmlErrorPlace((error as ApiError).message) ?? null) : null,
          });
        }
      },
      async openRequest(id, { restore = false } = {}) {
        set({ ...noError, attempts: get().attempts + 1 });
        if (restore) {
          let detail: RequestDetail;
          try {
            detail = await client.request(id);
          } catch (error) {
            set({ jobError: errorMessage(error), view: 'studio' });
            return;
          }
          const state = get();
          if (state.text !== detail.input_text) {
            state.rememberDraft({ kind: 'history', requestId: id });
            state.setText(detail.input_text);
          }
          state.setSsml(isSsml(detail.input_text));
          // Sent as it was: dialogue voices of the draft would change what it says.
          if (state.dialogue.enabled) state.setDialogueEnabled(false);
          state.setOptions(
            sanitiseOptions({
              ...state.options,
              voice_code: detail.voice_code,
              model_id: detail.model_id,
              audio_type: detail.audio_type as 'mp3' | 'wav',
              bitrate: detail.bitrate,
              speed_rate: detail.speed_rate,
              pitch_rate: detail.pitch_rate,
              volume: detail.volume,
              generate_srt: detail.generate_srt,
              callback_url: detail.callback_url ?? '',
            }),
          );
          set({ job: detail });
        }
        set({ view: 'studio' });
        await follow(id);
      },
      clearJobError() {
        set(noError);
      },
      async cancel() {
        const job = get().job;
        if (!job || isFinal(job)) return;
        follower.stop();
        try {
          set({ job: await client.cancel(job.request_id), generating: false });
          void get().refreshSession();
        } catch (error) {
          set({ generating: false, jobError: errorMessage(error), jobErrorCode: null, jobErrorPlace: null });
        }
      },
      stopFollowing() {
        follower.stop();
        set({ generating: false });
      },
    };
  };
