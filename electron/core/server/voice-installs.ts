/**
 * Background voice-pack installs started over the API: at most one per pack, each with its own
 * AbortController, progress and completion published as `voice-pack` events. `close()` cancels
 * every install still running and waits for it to clean up (the server calls it on shutdown).
 * Every install promise is handled here: a failure becomes a `failed` event and a log line.
 */

import { isAppError } from '../../shared/errors';
import type { VoicePackEvent, VoicePackProgress } from '../../shared/voice-packs';
import type { JobEvents } from '../jobs';
import type { Log } from '../platform/log';
import type { VoiceLibrary } from '../voices';
import { redactPaths } from '../platform/redact-paths';
import { errorDetails } from '../platform/error-details';

/** Progress events per install at most this often (the last one of a phase always goes out). */
const PROGRESS_INTERVAL_MS = 150;

export interface VoiceInstalls {
  /** The progress of the install of `id`, when one is running. */
  progress(id: string): VoicePackProgress | undefined;
  /**
   * Starts installing the catalogue pack `id` in the background; when one is running already,
   * nothing new starts. Returns the install's progress so far.
   */
  start(id: string): VoicePackProgress;
  /** Cancels the install of `id`; false when none is running. */
  cancel(id: string): boolean;
  /** Cancels every running install and waits until each has ended. */
  close(): Promise<void>;
}

interface Running {
  controller: AbortController;
  progress: VoicePackProgress;
  done: Promise<void>;
}

export function createVoiceInstalls({
  voices,
  events,
  log,
}: {
  voices: Pick<VoiceLibrary, 'install'>;
  events: Pick<JobEvents, 'emit'>;
  log: Log;
}): VoiceInstalls {
  const running = new Map<string, Running>();
  const publish = (event: VoicePackEvent) => events.emit('voice-pack', event);

  return {
    progress: (id) => running.get(id)?.progress,
    start(id) {
      const current = running.get(id);
      if (current) return current.progress;
      const controller = new AbortController();
      const entry: Running = {
        controller,
        progress: { phase: 'download', bytes: 0, total: null },
        done: Promise.resolve(),
      };
      running.set(id, entry);
      publish({ id, state: 'installing', progress: entry.progress });
      let lastSent = 0;
      entry.done = voices
        .install(
          { kind: 'catalogue', id },
          {
            signal: controller.signal,
            onProgress(p) {
              const phaseChanged = p.phase !== entry.progress.phase;
              entry.progress = { phase: p.phase, bytes: p.bytesDone, total: p.bytesTotal ?? null };
              const now = Date.now();
              if (!phaseChanged && now - lastSent < PROGRESS_INTERVAL_MS) return;
              lastSent = now;
              publish({ id, state: 'installing', progress: entry.progress });
            },
          },
        )
        .then(
          () => {
            publish({ id, state: 'installed' });
          },
          (error: unknown) => {
            if (controller.signal.aborted || (isAppError(error) && error.code === 'CANCELLED')) {
              publish({ id, state: 'cancelled' });
              return;
            }
            const code = isAppError(error) ? error.code : 'INTERNAL';
            const message = isAppError(error) ? redactPaths(error.message) : 'Internal error.';
            if (!isAppError(error)) log.warn(`voice pack ${id}: ${(error as Error)?.stack ?? String(error)}`);
            const details = isAppError(error) ? errorDetails(error) : undefined;
            publish({
              id,
              state: 'failed',
              error_code: code,
              error_message: message,
              ...(details ? { error_details: details } : {}),
            });
          },
        )
        .catch((error: unknown) => log.warn(`voice pack ${id}: ${String(error)}`))
        .finally(() => {
          running.delete(id);
        });
      return entry.progress;
    },
    cancel(id) {
      const current = running.get(id);
      if (!current) return false;
      current.controller.abort();
      return true;
    },
    async close() {
      const all = [...running.values()];
      for (const entry of all) entry.controller.abort();
      await Promise.all(all.map((entry) => entry.done));
    },
  };
}
