/** A new project's row and its narrator, from the settings given (its cover checked). */

import { AppError } from '../../shared/errors';
import { DEFAULT_SYNTHESIS } from '../../shared/options';
import { DEFAULT_NARRATOR_NAME, type ProjectSettings } from '../../shared/projects';
import { cleanText } from '../../shared/text';
import { findVoice } from '../../shared/voices';
import type { CharacterRow, ProjectRow, Repos } from '../store';
import type { ProjectContext } from './project-history';
import { newId } from './project-rows';
import { checkVoice, defaultVoice, normaliseLanguage } from './project-voices';
import { spokenStructureFields } from './spoken-structure';

const MAX_COVER_BYTES = 2 * 1024 * 1024;

export async function insertProject(
  { store, stamp }: Pick<ProjectContext, 'store' | 'stamp'>,
  keyId: string,
  settings: ProjectSettings & { title: string },
  source: { name: string; format: ProjectRow['source_format'] } | null,
  cover: { type: string; base64: string } | null,
): Promise<{ project: ProjectRow; narrator: CharacterRow; repos: (tx: Repos) => Promise<void> }> {
  const at = stamp();
  const language = normaliseLanguage(
    settings.language ?? findVoice(settings.voice_code ?? '')?.language ?? 'en',
  );
  const voiceCode = settings.voice_code ?? defaultVoice(language);
  await checkVoice(voiceCode, keyId, store);
  const project: ProjectRow = {
    seq: 0,
    id: newId(),
    key_id: keyId,
    title: cleanText(settings.title).trim() || 'Untitled',
    author: settings.author ? cleanText(settings.author).trim() || null : null,
    language,
    cover_type: cover?.type ?? null,
    cover_base64: cover?.base64 ?? null,
    model_id: settings.model_id ?? DEFAULT_SYNTHESIS.model_id,
    preset: settings.preset ?? 'acx',
    format: settings.format ?? 'm4b',
    folder_format: (settings.format ?? 'm4b') === 'folder' ? (settings.folder_format ?? 'mp3') : null,
    source_name: source?.name ?? null,
    source_format: source?.format ?? null,
    history_position: 0,
    created_at: at,
    updated_at: at,
    last_export_at: null,
    last_export: null,
    ...spokenStructureFields(settings),
  };
  const narrator: CharacterRow = {
    id: newId(),
    project_id: project.id,
    name: DEFAULT_NARRATOR_NAME,
    name_given: 0,
    voice_code: voiceCode,
    speed_rate: settings.speed_rate ?? DEFAULT_SYNTHESIS.speed_rate,
    pitch_rate: settings.pitch_rate ?? DEFAULT_SYNTHESIS.pitch_rate,
    volume: settings.volume ?? DEFAULT_SYNTHESIS.volume,
    narrator: 1,
    confirmed: 1,
  };
  return {
    project,
    narrator,
    repos: async (tx) => {
      await tx.projects.insertProject(project);
      await tx.projects.putCharacters([narrator]);
    },
  };
}

/** A cover from base64 (a `data:` prefix allowed): JPEG or PNG of at most 2 MiB; INVALID_FIELD otherwise. */
export function parseCover(text: string): { type: 'image/jpeg' | 'image/png'; base64: string } {
  const invalid = (why: string) =>
    new AppError('INVALID_FIELD', `cover must be a JPEG or PNG picture in base64: ${why}.`, {
      field: 'cover',
    });
  const base64 = text.replace(/^data:image\/(?:jpeg|png);base64,/i, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 === 1) throw invalid('not base64');
  const data = Buffer.from(base64, 'base64');
  if (data.length > MAX_COVER_BYTES) throw invalid(`it has ${data.length} bytes, at most ${MAX_COVER_BYTES}`);
  if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return { type: 'image/jpeg', base64 };
  if (data.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))) return { type: 'image/png', base64 };
  throw invalid('it is neither');
}
