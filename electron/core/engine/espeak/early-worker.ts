/**
 * An eSpeak worker started before there is an engine: `say` starts one as the process starts, so
 * that eSpeak's loading and warm-up (~0.25 s) runs beside the CLI's own start (its modules, the
 * lexicon, the reading rules) instead of after it. The first pool that needs a worker of the same
 * script takes it, with the messages it sent meanwhile (its "ready"). Until then it does not keep
 * the process alive; one that fails before it is taken is dropped, and the pool starts its own.
 */

import type { Worker } from 'node:worker_threads';
import { scriptBeside } from '../../platform/script-url';
import { startWorker } from '../threads/worker-thread';

interface EarlyWorker {
  worker: Worker;
  script: string;
  /** What the worker sent before a pool took it, in order. */
  said: unknown[];
  detach(): void;
}

let early: EarlyWorker | undefined;

/** The eSpeak worker's script, beside this module once built: the one the pool starts too. */
export function espeakWorkerScript(): URL {
  return scriptBeside('espeak-worker', import.meta.url);
}

/**
 * Starts the eSpeak worker now, unless one waits already (`script`: another worker script, for
 * tests). Resolves once the worker has said its first word ("ready") or was dropped; nothing
 * needs to wait for it.
 */
export function startEspeakWorkerEarly(script = espeakWorkerScript()): Promise<void> {
  if (early) return Promise.resolve();
  const worker = startWorker(script);
  const said: unknown[] = [];
  let heard: () => void = () => {};
  const first = new Promise<void>((resolve) => (heard = resolve));
  const keep = (message: unknown) => {
    said.push(message);
    heard();
  };
  const drop = () => {
    heard();
    if (early?.worker !== worker) return;
    early = undefined;
    void worker.terminate();
  };
  worker.on('message', keep);
  worker.on('error', drop);
  worker.on('exit', drop);
  worker.unref();
  early = {
    worker,
    script: script.href,
    said,
    detach: () => {
      worker.off('message', keep);
      worker.off('error', drop);
      worker.off('exit', drop);
      worker.ref();
    },
  };
  return first;
}

/**
 * The early worker if it runs `script`: the caller listens to it from now on (it keeps the
 * process alive again) and reads `said` first.
 */
export function takeEarlyWorker(script: URL): { worker: Worker; said: unknown[] } | undefined {
  if (!early || early.script !== script.href) return undefined;
  const taken = early;
  early = undefined;
  taken.detach();
  return { worker: taken.worker, said: taken.said };
}
