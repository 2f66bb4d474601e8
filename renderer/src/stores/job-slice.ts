import type { RequestDetail, TtsRequest } from '../../../electron/shared/api';
import { ApiError, errorMessage, isSignedOut } from '../lib/api-client';
import { composedInput } from './compose-slice';
import { callbackUrlProblem } from './options-slice';
import type { SliceCreator } from './types';

export interface JobSlice {
  /** The request in the preview: being made, finished, or opened from history. */
  job: RequestDetail | null;
  generating: boolean;
  /** Readable message of the last failed submit or poll, shown next to the Generate button. */
  jobError: string | null;
  /** The API's error code of the last failed submit (e.g. SSML_INVALID, shown at the editor), or null. */
  jobErrorCode: string | null;
  /** Submits the draft with the current options and follows it until SUCCESS or FAILURE. */
  generate(): Promise<void>;
  /** Opens a stored request in the preview (history → replay); follows it if unfinished. */
  openRequest(id: string): Promise<void>;
  /** Stops following the current request (the request itself keeps running on the server). */
  stopFollowing(): void;
  /** Cancels the current request on the server (refunded) and shows its final state. */
  cancel(): Promise<void>;
}

const isFinal = (job: RequestDetail) => job.status === 'SUCCESS' || job.status === 'FAILURE';

export const createJobSlice: SliceCreator<JobSlice> =
  ({ client, pollMs = 1000 }) =>
  (set, get) => {
    // Each follow gets a number; a newer one makes older loops stop.
    let following = 0;
    let stream: AbortController | undefined;

    /**
     * Follows a request: progress arrives as server-sent events; the detail is re-read when an
     * event says the request finished, and every `pollMs` anyway (events sent before the stream
     * opened, or a stream that cannot open, cannot leave the bar stuck).
     */
    const follow = async (id: string) => {
      const mine = ++following;
      stream?.abort();
      const controller = new AbortController();
      stream = controller;
      let wake: (() => void) | undefined;
      client
        .streamEvents(
          {
            onRequest(event) {
              const job = get().job;
              if (mine !== following || event.request_id !== id || !job || job.request_id !== id) return;
              set({ job: { ...job, status: event.status, progress: event.progress } });
              if (event.status === 'SUCCESS' || event.status === 'FAILURE') wake?.();
            },
          },
          controller.signal,
        )
        .catch(() => undefined); // Polling carries on without the stream.
      try {
        for (;;) {
          if (mine !== following) return;
          try {
            const job = await client.request(id);
            if (mine !== following) return;
            set({ job });
            if (isFinal(job)) {
              set({ generating: false });
              void get().refreshSession();
              return;
            }
          } catch (error) {
            if (mine !== following) return;
            if (isSignedOut(error)) get().markSignedOut();
            set({ generating: false, jobError: errorMessage(error) });
            return;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
            setTimeout(resolve, pollMs);
          });
        }
      } finally {
        controller.abort();
      }
    };

    return {
      job: null,
      generating: false,
      jobError: null,
      jobErrorCode: null,
      async generate() {
        const { options } = get();
        const input = composedInput(get());
        if (input.problem !== undefined) {
          set({ jobError: input.problem, jobErrorCode: null });
          return;
        }
        const problem = callbackUrlProblem(options.callback_url);
        if (problem) {
          set({ jobError: `Callback URL: ${problem}`, jobErrorCode: null });
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
        set({ generating: true, jobError: null, jobErrorCode: null });
        try {
          const record = await client.submit(request);
          await follow(record.request_id);
        } catch (error) {
          if (isSignedOut(error)) get().markSignedOut();
          set({
            generating: false,
            jobError: errorMessage(error),
            jobErrorCode: error instanceof ApiError ? error.code : null,
          });
        }
      },
      async openRequest(id) {
        set({ jobError: null, jobErrorCode: null, view: 'studio' });
        await follow(id);
      },
      async cancel() {
        const job = get().job;
        if (!job || isFinal(job)) return;
        following++;
        stream?.abort();
        try {
          set({ job: await client.cancel(job.request_id), generating: false });
          void get().refreshSession();
        } catch (error) {
          if (isSignedOut(error)) get().markSignedOut();
          set({ generating: false, jobError: errorMessage(error) });
        }
      },
      stopFollowing() {
        following++;
        stream?.abort();
        set({ generating: false });
      },
    };
  };
