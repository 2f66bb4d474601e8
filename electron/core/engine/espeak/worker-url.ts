/**
 * The eSpeak worker's script. From TypeScript sources it is the file beside this one; in the
 * built app every module is bundled into dist/electron/main/index.js and the worker is built
 * beside it as espeak-worker.js (electron/launch/build.ts), which the same relative URL names.
 */
export const ESPEAK_WORKER_URL = new URL(
  import.meta.url.endsWith('.ts') ? './espeak-worker.ts' : './espeak-worker.js',
  import.meta.url,
);
