/**
 * Last-resort handlers of headless `serve`: an error nothing else caught is logged, never a
 * silent exit. A rejected promise nobody awaited leaves the server consistent (each background
 * job records its own outcome, and the database is consistent at every commit), so serving goes
 * on. An uncaught exception may have left any state half-changed, so the server stops in
 * order (the core closed: requests in flight requeued, the store closed) and exits non-zero.
 */

import type { Log } from '../platform/log';

export interface ProcessErrorHandlersOptions {
  log: Log;
  /** Shuts down in order and ends the command with exit code 1 (called at most once). */
  stop(): Promise<void>;
  /** Ends the process at once: a second fatal error, or a shutdown that does not finish. */
  exit(code: number): void;
  /** How long the shutdown after an uncaught exception may take before `exit(1)`, ms (default 15 000). */
  stopLimitMs?: number;
}

/** The handlers (exposed for tests) and their removal. */
export interface ProcessErrorHandlers {
  onUnhandledRejection(reason: unknown): void;
  onUncaughtException(error: unknown): void;
  uninstall(): void;
}

/** Installs `unhandledRejection` and `uncaughtException` handlers on `process`. */
export function installProcessErrorHandlers(options: ProcessErrorHandlersOptions): ProcessErrorHandlers {
  const { log } = options;
  let stopping = false;
  const onUnhandledRejection = (reason: unknown) => {
    log.warn(`unhandled rejection (still serving): ${describe(reason)}`);
  };
  const onUncaughtException = (error: unknown) => {
    if (stopping) {
      log.warn(`uncaught exception while stopping: ${describe(error)}; exiting at once`);
      options.exit(1);
      return;
    }
    stopping = true;
    log.warn(`uncaught exception: ${describe(error)}; shutting down`);
    const limit = setTimeout(() => {
      log.warn('shutdown after the uncaught exception did not finish; exiting at once');
      options.exit(1);
    }, options.stopLimitMs ?? 15_000);
    limit.unref();
    options.stop().then(
      () => clearTimeout(limit),
      (stopError: unknown) => {
        clearTimeout(limit);
        log.warn(`shutdown after the uncaught exception failed: ${describe(stopError)}`);
        options.exit(1);
      },
    );
  };
  process.on('unhandledRejection', onUnhandledRejection);
  process.on('uncaughtException', onUncaughtException);
  return {
    onUnhandledRejection,
    onUncaughtException,
    uninstall() {
      process.off('unhandledRejection', onUnhandledRejection);
      process.off('uncaughtException', onUncaughtException);
    },
  };
}

/** The stack when there is one (the message is its first line), else the value as text. */
function describe(reason: unknown): string {
  if (reason instanceof Error) return reason.stack ?? `${reason.name}: ${reason.message}`;
  return String(reason);
}
