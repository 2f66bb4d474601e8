/**
 * The neural voice library (`core/voices`): the catalogue of Piper and Kokoro packs, installing
 * them (download with resume, or import from files and archives), the installed packs, the
 * voice assignments and `resolveEngineVoice`. It never loads ONNX itself: the engine passes its
 * model check in as `validateModel`.
 */

export {
  DEFAULT_ASSIGNMENTS,
  checkAssignment,
  engineLabel,
  parseAssignment,
  resolveEngineVoice,
} from './assignment';
export { CATALOGUE, sampleUrl, findCatalogueEntry, kokoroVoiceInfo } from './catalogue';
export {
  checkCustomVoiceInput,
  composeProsody,
  createCustomVoices,
  customLexicon,
  customVoiceSchemaError,
  fromCustomVoiceRow,
  librarySpeakers,
  parseCustomVoiceSnapshot,
  parseSsmlVoicesSnapshot,
  customVoiceSnapshot,
  keyAccess,
  maySpeakWith,
  PUBLIC_ACCESS,
  resolveCustomVoice,
  STUDIO_ACCESS,
  toCustomVoiceRow,
  type CustomVoiceAccess,
  type CustomVoices,
  type RequestProsody,
  type ResolvedCustomVoice,
} from './custom-voice';
export { KOKORO_V1_VOICES, kokoroFallbackVoice, parseKokoroVoice, type KokoroMix } from './kokoro-names';
export type { InstallProgress } from './install';
export { createVoiceLibrary, type VoiceLibrary } from './library';
export { recordingPackSpeed, recordPackSpeed } from './pack-speed';
export { speakerGenderCoverage, speakerLabel } from './speaker-metadata';
