/**
 * The neural voice library (`core/voices`): the catalogue of Piper and Kokoro packs, installing
 * them (download with resume, or import from files and archives), the installed packs, the
 * voice assignments and `resolveEngineVoice`. It never loads ONNX itself: the engine passes its
 * model check in as `validateModel`.
 */

export {
  DEFAULT_ASSIGNMENTS,
  DEFAULT_KOKORO_PACK,
  checkAssignment,
  emptyAssignments,
  engineLabel,
  loadAssignments,
  parseAssignment,
  resolveEngineVoice,
  saveAssignments,
  setAssignment,
} from './assignment';
export {
  CATALOGUE,
  DEFAULT_SAMPLE_MIRROR,
  DEFAULT_VOICE_MIRROR,
  catalogueFileUrl,
  sampleUrl,
  findCatalogueEntry,
  kokoroVoiceInfo,
} from './catalogue';
export {
  blendText,
  checkCustomVoiceInput,
  composeProsody,
  createCustomVoices,
  customLexicon,
  fromCustomVoiceRow,
  librarySpeakers,
  parseCustomVoiceSnapshot,
  parseSsmlVoicesSnapshot,
  customVoiceSnapshot,
  reservedCodeReason,
  resolveCustomVoice,
  toCustomVoiceRow,
  type CustomVoiceChecks,
  type CustomVoices,
  type CustomVoicesOptions,
  type CustomVoiceSpeakers,
  type RequestProsody,
  type ResolvedCustomVoice,
} from './custom-voice';
export type { HttpOptions } from './download';
export {
  KOKORO_V1_VOICES,
  kokoroFallbackVoice,
  parseKokoroVoice,
  type KokoroMix,
  type KokoroMixPart,
} from './kokoro-names';
export {
  installPack,
  parseInstallSource,
  type InstallOptions,
  type InstallProgress,
  type InstallResult,
  type InstallSource,
} from './install';
export { assignmentsPath, packDir, samplesDir, voicesDir } from './layout';
export {
  createVoiceLibrary,
  getPack,
  listPacks,
  removePack,
  sweepRemovedPacks,
  type VoiceLibrary,
  type VoiceLibraryOptions,
} from './library';
export { MANIFEST_FILE, readManifest } from './manifest';
export { readPackSpeed, recordPackSpeed, recordingPackSpeed, measuredPackId } from './pack-speed';
export { DEFAULT_SAMPLE_LIMIT, voiceSample, type Sample } from './samples';
export type { ValidateModel } from './pack-contents';
export {
  SPEAKER_METADATA,
  speakerGender,
  speakerGenderCoverage,
  speakerLabel,
  type SpeakerGender,
} from './speaker-metadata';
