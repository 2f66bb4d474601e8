/** Starting a worker thread from the app's TypeScript sources or from its built JavaScript. */

import { Worker } from 'node:worker_threads';

/** Starts a worker; TypeScript sources (under tsx or vitest) go through the tsx bootstrap. */
export function startWorker(url: URL): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url);
  return new Worker(new URL('./ts-worker-bootstrap.mjs', import.meta.url), {
    workerData: { tsEntry: url.href },
  });
}
