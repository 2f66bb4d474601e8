/**
 * Which voice speaks each voice code: a default table in code (a preference list per code, the
 * first entry being the code's default neural voice), the user's overrides in
 * `<dataDir>/voices/assignments.json` (written atomically), and `resolveEngineVoice`, the pure
 * function that turns (voice code, model_id, installed packs, overrides) into an engine voice.
 *
 * What `model_id` means for a standard voice:
 * - `std-v1.6`: the best installed neural voice of the code's language. Ranked by accent (a
 *   British voice prefers a British pack), then quality tier, then the code's preference list
 *   (its assigned voice, or the same voice in another pack of its family), then Kokoro before
 *   Piper and the larger Kokoro export first. A user override for the code wins when installed.
 * - `std-v1.5`: a Piper medium voice of the language (the assigned one when it is one).
 * - `std-v1.5-turbo`: the fastest installed voice: Piper x_low, then low.
 * - `std-v1`: eSpeak, "the original base model", always.
 * When nothing suitable is installed the answer is eSpeak. Korean has no neural voice in either
 * family (Piper has no Korean voice, Kokoro v1.0 none either), so Korean codes are always eSpeak.
 */

import { Value } from '@sinclair/typebox/value';
import { mkdir, readFile } from 'node:fs/promises';
import { AppError } from '../../shared/errors';
import type { ModelId } from '../../shared/options';
import {
  ASSIGNMENTS_FORMAT,
  AssignmentOverridesSchema,
  KOKORO_PRECISIONS,
  isValidPackId,
  qualityRank,
  type AssignmentOverrides,
  type CatalogueEntry,
  type EngineVoice,
  type NeuralModelId,
  type PackManifest,
  type VoiceAssignment,
} from '../../shared/voice-packs';
import { packLocale } from '../../shared/languages';
import { findVoice, VOICES, type VoiceInfo } from '../../shared/voices';
import { silentLog, type Log } from '../platform/log';
import { StagedFile } from '../platform/staged-file';
import { assignmentsPath, voicesDir } from './layout';
import { speakerGender, speakerNames } from './speaker-metadata';

/** The Kokoro export the default table names (the smallest; any installed export is used). */
export const DEFAULT_KOKORO_PACK = 'kokoro-v1.0-q8';

const kokoro = (voice: string): VoiceAssignment => ({ packId: DEFAULT_KOKORO_PACK, speaker: voice });
const piper = (packId: string, speaker?: string): VoiceAssignment =>
  speaker === undefined ? { packId } : { packId, speaker };

/**
 * Vietnamese: Piper's only Vietnamese voice of medium quality with a clear licence is
 * vais1000 (one speaker, CC BY 4.0 data), so all thirteen codes share it by default; vivos
 * (x_low, 65 speakers, non-commercial data) and 25hours_single (low, licence unknown) are used
 * only when the user installs them (turbo gives each code a distinct vivos speaker of its
 * gender, from speaker-metadata.ts) or assigns them.
 */
const VIETNAMESE = [piper('vi_VN-vais1000-medium')];

/**
 * Default neural voices per voice code, in order of preference: the first is the code's default
 * voice; later entries are the same character in other packs (used when the first is not
 * installed or does not fit the model_id). Kokoro names its voices (af_* American female, am_*
 * American male, bf_* British female…); Piper's multi-speaker packs are chosen so that voices of
 * one language stay distinct. `null`: no neural voice exists for the language (Korean).
 */
export const DEFAULT_ASSIGNMENTS: Readonly<Record<string, readonly VoiceAssignment[] | null>> = {
  vi_male_lehoang_mb: VIETNAMESE,
  vi_female_thuytrang_mb: VIETNAMESE,
  vi_male_minhtriet_mb: VIETNAMESE,
  vi_male_echo_default: VIETNAMESE,
  vi_female_nova_default: VIETNAMESE,
  vi_male_onyx_default: VIETNAMESE,
  vi_female_hacuc_mb: VIETNAMESE,
  vi_male_ductrong_mb: VIETNAMESE,
  vi_female_kieunhi_mn: VIETNAMESE,
  vi_female_huyenanh_mb: VIETNAMESE,
  vi_female_halinh_mb: VIETNAMESE,
  vi_female_hoaian_mb: VIETNAMESE,
  vi_female_khanhhuyentvc_mb: VIETNAMESE,
  // The three OpenAI-style codes get Kokoro's voices of the same names.
  en_male_echo_default: [kokoro('am_echo'), piper('en_US-ryan-medium'), piper('en_US-ryan-low')],
  en_female_nova_default: [kokoro('af_nova'), piper('en_US-amy-medium'), piper('en_US-amy-low')],
  en_male_onyx_default: [kokoro('am_onyx'), piper('en_US-joe-medium'), piper('en_US-danny-low')],
  en_female_emily_us: [kokoro('af_bella'), piper('en_US-hfc_female-medium'), piper('en_US-kathleen-low')],
  en_female_alice_default: [kokoro('af_heart'), piper('en_US-lessac-medium'), piper('en_US-lessac-low')],
  // No Australian or Indian English voice exists in either family (the accent is approximated,
  // as VOICES says); Meera's Piper voice is an L2-ARCTIC speaker whose first language is Hindi.
  en_female_jessica_au: [kokoro('af_jessica'), piper('en_US-arctic-medium', 'slt')],
  en_female_elara_br: [
    kokoro('bf_emma'),
    piper('en_GB-alba-medium'),
    piper('en_GB-southern_english_female-low'),
  ],
  en_female_meera_indian: [kokoro('bf_isabella'), piper('en_US-l2arctic-medium', 'SVBI')],
  'zh_female_liu-ying_default': [
    kokoro('zf_xiaobei'),
    piper('zh_CN-huayan-medium'),
    piper('zh_CN-huayan-x_low'),
  ],
  // Piper has no Japanese voice: Kokoro only.
  jp_female_yuki_default: [kokoro('jf_alpha')],
  'kr_female_seo-yeon_default': null,
  fr_female_camille_default: [
    kokoro('ff_siwis'),
    piper('fr_FR-siwis-medium'),
    piper('fr_FR-upmc-medium', 'jessica'),
    piper('fr_FR-siwis-low'),
  ],
  es_female_elana_default: [kokoro('ef_dora'), piper('es_ES-sharvard-medium', 'F')],
};

/** A Piper voice without its quality tier (`en_US-lessac-high` → `en_US-lessac`). */
function piperVoiceName(id: string): string {
  return id.replace(/-(x_low|low|medium|high)$/, '');
}

/** Pack-local speaker of an assignment, when the pack has it. */
function speakerIn(pack: PackManifest, speaker: string | undefined): EngineVoice | undefined {
  if (pack.family === 'kokoro') {
    if (speaker === undefined) return undefined;
    const voice = pack.voices.find((v) => v.name === speaker);
    return voice && { kind: 'kokoro', packId: pack.id, voiceFile: voice.file, voice: voice.name };
  }
  if (speaker === undefined)
    return pack.num_speakers === 1 ? { kind: 'piper', packId: pack.id, speaker: 0 } : undefined;
  const byName = pack.speakers[speaker];
  if (byName !== undefined) return { kind: 'piper', packId: pack.id, speaker: byName };
  if (/^\d+$/.test(speaker) && Number(speaker) < pack.num_speakers) {
    return { kind: 'piper', packId: pack.id, speaker: Number(speaker) };
  }
  return undefined;
}

/**
 * A speaker for a code in a pack nothing assigned. Piper: where the dataset's public metadata
 * gives the speakers' genders (speaker-metadata.ts), the codes of one language and gender
 * spread over the pack's speakers of that gender, in VOICES order and speaker id order; where
 * it gives none of that gender, by index over all speakers (their label then says "gender
 * unknown"). Kokoro: over voices of the code's accent and gender first.
 */
function automaticSpeaker(pack: PackManifest, info: VoiceInfo): EngineVoice | undefined {
  const sameLanguage = VOICES.filter((v) => v.language === info.language);
  if (pack.family === 'piper') {
    const ofGender = speakerNames(pack)
      .map((name, id) => ({ id, gender: name === undefined ? undefined : speakerGender(pack.id, name) }))
      .filter((s) => s.gender === info.gender);
    if (ofGender.length > 0) {
      const index = Math.max(0, sameLanguage.filter((v) => v.gender === info.gender).indexOf(info));
      return { kind: 'piper', packId: pack.id, speaker: ofGender[index % ofGender.length]!.id };
    }
    const index = sameLanguage.indexOf(info);
    return { kind: 'piper', packId: pack.id, speaker: Math.max(0, index) % pack.num_speakers };
  }
  const ofLanguage = pack.voices.filter((v) => v.language === info.language);
  if (ofLanguage.length === 0) return undefined;
  const locale = packLocale(info.language, info.accent);
  const ofLocale = ofLanguage.filter((v) => v.locale === locale);
  const pool = ofLocale.length > 0 ? ofLocale : ofLanguage;
  const ofGender = pool.filter((v) => v.gender === info.gender);
  const choices = (ofGender.length > 0 ? ofGender : pool)
    .slice()
    .sort((a, b) => a.name.localeCompare(b.name));
  const index = Math.max(0, sameLanguage.filter((v) => v.gender === info.gender).indexOf(info));
  const voice = choices[index % choices.length]!;
  return { kind: 'kokoro', packId: pack.id, voiceFile: voice.file, voice: voice.name };
}

/** How well a pack fits a preference list: exact pack first, then the same voice elsewhere. */
function preferenceScore(
  pack: PackManifest,
  prefs: readonly VoiceAssignment[],
): { score: number; speaker?: string } {
  for (const [i, pref] of prefs.entries()) {
    if (pack.id === pref.packId)
      return { score: i * 2, ...(pref.speaker !== undefined ? { speaker: pref.speaker } : {}) };
  }
  for (const [i, pref] of prefs.entries()) {
    const kokoroPref = pref.packId.startsWith('kokoro-');
    const same =
      pack.family === 'kokoro'
        ? kokoroPref && pref.speaker !== undefined && pack.voices.some((v) => v.name === pref.speaker)
        : !kokoroPref && piperVoiceName(pack.id) === piperVoiceName(pref.packId);
    if (same && speakerIn(pack, pref.speaker ?? (pack.num_speakers === 1 ? undefined : '0'))) {
      return { score: i * 2 + 1, ...(pref.speaker !== undefined ? { speaker: pref.speaker } : {}) };
    }
  }
  return { score: Number.MAX_SAFE_INTEGER };
}

function fitsModel(pack: PackManifest, modelId: NeuralModelId): boolean {
  switch (modelId) {
    case 'std-v1.6':
      return true;
    case 'std-v1.5':
      return pack.family === 'piper' && pack.quality === 'medium';
    case 'std-v1.5-turbo':
      return pack.family === 'piper' && (pack.quality === 'x_low' || pack.quality === 'low');
  }
}

export const precisionRank = (pack: PackManifest): number =>
  pack.precision ? KOKORO_PRECISIONS.length - KOKORO_PRECISIONS.indexOf(pack.precision) : 0;

/**
 * The engine voice for `voiceCode` under `modelId`, given the installed packs and the user's
 * overrides. Pure; never throws (anything unknown or unsuitable is eSpeak).
 */
export function resolveEngineVoice(
  voiceCode: string,
  modelId: ModelId,
  installedPacks: readonly PackManifest[],
  assignments: AssignmentOverrides = emptyAssignments(),
): EngineVoice {
  const info = findVoice(voiceCode);
  const defaults = DEFAULT_ASSIGNMENTS[voiceCode];
  // Korean (and any code without a table entry) has no neural voice.
  if (!info || !defaults || modelId === 'std-v1') return { kind: 'espeak' };
  const speaks = installedPacks.filter((p) => p.languages.includes(info.language));
  const byId = new Map(speaks.map((p) => [p.id, p]));
  const override = assignments.voices[voiceCode];

  // An override for exactly this model id: the user's choice, whatever its tier.
  const forModel = override?.models?.[modelId];
  const exact = forModel && byId.get(forModel.packId);
  if (exact) {
    const voice = speakerIn(exact, forModel.speaker) ?? automaticSpeaker(exact, info);
    if (voice) return voice;
  }
  // The code's override for all models: used when installed and fit for the model id.
  const all = override?.all;
  const chosen = all && byId.get(all.packId);
  if (chosen && fitsModel(chosen, modelId)) {
    const voice = speakerIn(chosen, all.speaker) ?? automaticSpeaker(chosen, info);
    if (voice) return voice;
  }

  const prefs = [...(forModel ? [forModel] : []), ...(all ? [all] : []), ...defaults];
  const locale = packLocale(info.language, info.accent);
  const candidates = speaks
    .filter((p) => fitsModel(p, modelId))
    .map((pack) => ({
      pack,
      locale: pack.locales.includes(locale) ? 1 : 0,
      ...preferenceScore(pack, prefs),
    }));
  candidates.sort(
    (a, b) =>
      b.locale - a.locale ||
      (modelId === 'std-v1.5-turbo'
        ? qualityRank(a.pack.quality) - qualityRank(b.pack.quality) // fastest first
        : qualityRank(b.pack.quality) - qualityRank(a.pack.quality)) ||
      a.score - b.score ||
      (a.pack.family === b.pack.family ? 0 : a.pack.family === 'kokoro' ? -1 : 1) ||
      precisionRank(b.pack) - precisionRank(a.pack) ||
      a.pack.id.localeCompare(b.pack.id),
  );
  for (const candidate of candidates) {
    const voice = speakerIn(candidate.pack, candidate.speaker) ?? automaticSpeaker(candidate.pack, info);
    if (voice) return voice;
  }
  return { kind: 'espeak' };
}

/** `espeak`, `piper:vi_VN-vais1000-medium#0` or `kokoro:kokoro-v1.0-q8#af_heart`. */
export function engineLabel(voice: EngineVoice): string {
  switch (voice.kind) {
    case 'espeak':
      return 'espeak';
    case 'piper':
      return `piper:${voice.packId}#${voice.speaker}`;
    case 'kokoro':
      return `kokoro:${voice.packId}#${voice.voice}`;
  }
}

// ---------------------------------------------------------------------------------------------
// The overrides file

export function emptyAssignments(): AssignmentOverrides {
  return { format: ASSIGNMENTS_FORMAT, voices: {} };
}

/**
 * The user's overrides; an empty set when there is no file. A damaged file is reported on `log`
 * and read as empty (renders must not fail over it); the next `setAssignment` rewrites it.
 */
export async function loadAssignments(dataDir: string, log: Log = silentLog): Promise<AssignmentOverrides> {
  const path = assignmentsPath(dataDir);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyAssignments();
    log.warn(`${path}: cannot be read (${(error as Error).message}); using the default voices`);
    return emptyAssignments();
  }
  try {
    const value: unknown = JSON.parse(text);
    if (Value.Check(AssignmentOverridesSchema, value)) return value;
  } catch {
    // reported below
  }
  log.warn(`${path}: not a voice assignments file; using the default voices`);
  return emptyAssignments();
}

/** Writes the overrides atomically (a temporary file renamed over the old one). */
export async function saveAssignments(dataDir: string, overrides: AssignmentOverrides): Promise<void> {
  await mkdir(voicesDir(dataDir), { recursive: true });
  const file = await StagedFile.create(assignmentsPath(dataDir), 'the voice assignments');
  try {
    await file.write(`${JSON.stringify(overrides, null, 2)}\n`);
    await file.commit();
  } catch (error) {
    await file.discard();
    throw error;
  }
}

/** `<pack id>[#speaker]` → an assignment; INVALID_FIELD when malformed. */
export function parseAssignment(text: string): VoiceAssignment {
  const [packId = '', speaker, ...rest] = text.split('#');
  if (!isValidPackId(packId) || rest.length > 0 || speaker === '') {
    throw new AppError('INVALID_FIELD', `"${text}" is not <pack id>[#speaker].`, { field: 'assignment' });
  }
  return speaker === undefined ? { packId } : { packId, speaker };
}

/**
 * Checks that `assignment` can speak `voiceCode`: the code is a known, non-Korean voice, the
 * pack (installed manifest, or catalogue entry when not installed) speaks its language, and the
 * speaker exists in it. Throws AppError INVALID_FIELD / UNKNOWN_VOICE with a plain message.
 */
export function checkAssignment(
  voiceCode: string,
  assignment: VoiceAssignment,
  pack: PackManifest | CatalogueEntry,
): void {
  const info = findVoice(voiceCode);
  if (!info)
    throw new AppError('UNKNOWN_VOICE', `There is no voice "${voiceCode}".`, {
      field: 'voice_code',
      voice_code: voiceCode,
    });
  if (!DEFAULT_ASSIGNMENTS[voiceCode]) {
    throw new AppError(
      'INVALID_FIELD',
      `${voiceCode} has no neural voice (${info.language_name} is always eSpeak).`,
      {
        field: 'voice_code',
      },
    );
  }
  if (!pack.languages.includes(info.language)) {
    throw new AppError(
      'INVALID_FIELD',
      `${pack.id} does not speak ${info.language_name} (it speaks ${pack.languages.join(', ') || 'nothing we know'}).`,
      { field: 'pack' },
    );
  }
  const speaker = assignment.speaker;
  if (pack.family === 'kokoro') {
    if (speaker === undefined) return;
    const voice = pack.voices.find((v) => v.name === speaker);
    if (!voice)
      throw new AppError('INVALID_FIELD', `${pack.id} has no voice "${speaker}".`, { field: 'speaker' });
    if (voice.language !== info.language) {
      throw new AppError('INVALID_FIELD', `${speaker} speaks ${voice.locale}, not ${info.language_name}.`, {
        field: 'speaker',
      });
    }
    return;
  }
  if (speaker === undefined) return;
  const names =
    'files' in pack && 'installed_at' in pack ? Object.keys(pack.speakers) : (pack.speakers ?? []);
  const numeric = /^\d+$/.test(speaker) && Number(speaker) < pack.num_speakers;
  if (!numeric && !names.includes(speaker)) {
    throw new AppError(
      'INVALID_FIELD',
      `${pack.id} has no speaker "${speaker}" (it has ${pack.num_speakers}: give a name from its config or a number below ${pack.num_speakers}).`,
      { field: 'speaker' },
    );
  }
}

/**
 * Sets (or, with `assignment` null, clears) the override of `voiceCode`, for one model id or
 * for all of them, and saves the file. Returns the new overrides.
 */
export async function setAssignment(
  dataDir: string,
  voiceCode: string,
  assignment: VoiceAssignment | null,
  modelId?: NeuralModelId,
  log?: Log,
): Promise<AssignmentOverrides> {
  const overrides = await loadAssignments(dataDir, log);
  const current = overrides.voices[voiceCode] ?? {};
  if (modelId) {
    const models = { ...current.models };
    if (assignment) models[modelId] = assignment;
    else delete models[modelId];
    current.models = models;
    if (Object.keys(models).length === 0) delete current.models;
  } else if (assignment) {
    current.all = assignment;
  } else {
    delete current.all;
  }
  if (current.all || current.models) overrides.voices[voiceCode] = current;
  else delete overrides.voices[voiceCode];
  await saveAssignments(dataDir, overrides);
  return overrides;
}
