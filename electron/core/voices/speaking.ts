/**
 * The light entry of `core/voices`, for the commands that speak (`say`, `export`): the installed
 * library, custom voices and pack speeds. The installer (download, archives: undici, tar, yauzl)
 * is loaded by library.ts on first install only; the barrel (index.ts) no longer re-exports it
 * either, so today both entries load the same modules.
 */

export { createVoiceLibrary } from './library';
export { customLexicon, fromCustomVoiceRow, librarySpeakers, resolveCustomVoice } from './custom-voice';
export { recordPackSpeed } from './pack-speed';
