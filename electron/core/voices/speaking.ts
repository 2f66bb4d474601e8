/**
 * The light entry of `core/voices`, for the commands that speak (`say`, `export`): the installed
 * library, custom voices and pack speeds, without what the barrel (index.ts) adds for installing
 * packs (download, archives: undici, tar, yauzl).
 */

export { createVoiceLibrary } from './library';
export { customLexicon, fromCustomVoiceRow, librarySpeakers, resolveCustomVoice } from './custom-voice';
export { recordPackSpeed } from './pack-speed';
