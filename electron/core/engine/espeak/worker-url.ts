import { scriptBeside } from '../../platform/script-url';

/**
 * The eSpeak worker's script: the file beside this one from TypeScript sources; in the built app
 * every module is bundled into one entry and the worker is built beside it as espeak-worker.js
 * (electron/launch/build.ts).
 */
export function espeakWorkerUrl(): URL {
  return scriptBeside('espeak-worker', import.meta.url);
}
