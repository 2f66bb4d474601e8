// Development only: when the app runs from TypeScript source (tsx, vitest), a worker
// thread cannot load a .ts entry directly on Node 20, so it starts here, registers
// tsx's loader, then imports the real entry given in workerData.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.tsEntry);
