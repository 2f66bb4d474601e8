/** A project's settings edited (undoable): title, author, cover, language, the narrator's voice, format. */

import { AppError } from '../../shared/errors';
import type { ProjectDetail, ProjectSettings } from '../../shared/projects';
import { cleanText } from '../../shared/text';
import type { CharacterRow, ProjectFields } from '../store';
import { parseCover } from './new-project';
import type { ProjectContext } from './project-history';
import { checkVoice, normaliseLanguage, recastVoices } from './project-voices';
import { spokenStructureFields } from './spoken-structure';

export function createProjectSettings({ edit }: ProjectContext) {
  return {
    /** Title, author, cover, language, the narrator's voice and prosody, model, preset, format (undoable). */
    async updateSettings(
      keyId: string,
      projectId: string,
      settings: ProjectSettings,
    ): Promise<ProjectDetail> {
      const { detail } = await edit(keyId, projectId, 'Settings', async (tx, project) => {
        const fields: ProjectFields = {};
        if (settings.title !== undefined) {
          const title = cleanText(settings.title).trim();
          if (!title) throw new AppError('INVALID_FIELD', 'title must not be empty.', { field: 'title' });
          fields.title = title;
        }
        if (settings.author !== undefined)
          fields.author = settings.author ? cleanText(settings.author).trim() || null : null;
        if (settings.language !== undefined) fields.language = normaliseLanguage(settings.language);
        if (settings.cover !== undefined) {
          const cover = settings.cover ? parseCover(settings.cover) : null;
          fields.cover_type = cover?.type ?? null;
          fields.cover_base64 = cover?.base64 ?? null;
        }
        if (settings.model_id !== undefined) fields.model_id = settings.model_id;
        if (settings.preset !== undefined) fields.preset = settings.preset;
        const format = settings.format ?? project.format;
        if (settings.format !== undefined) fields.format = settings.format;
        if (settings.folder_format !== undefined || settings.format !== undefined) {
          fields.folder_format =
            format === 'folder' ? (settings.folder_format ?? project.folder_format ?? 'mp3') : null;
        }
        Object.assign(fields, spokenStructureFields(settings));
        const before: ProjectFields = {};
        for (const k of Object.keys(fields) as (keyof ProjectFields)[]) {
          (before as Record<string, unknown>)[k] = project[k];
        }
        const cast = await tx.projects.characters(project.id);
        const narrator = cast.find((c) => c.narrator === 1)!;
        const voice: CharacterRow = { ...narrator };
        if (settings.voice_code !== undefined) {
          await checkVoice(settings.voice_code, project.key_id, tx);
          voice.voice_code = settings.voice_code;
        }
        if (settings.speed_rate !== undefined) voice.speed_rate = settings.speed_rate;
        if (settings.pitch_rate !== undefined) voice.pitch_rate = settings.pitch_rate;
        if (settings.volume !== undefined) voice.volume = settings.volume;
        const others = cast.filter((c) => c.narrator !== 1);
        const recast = settings.recast
          ? recastVoices(
              voice,
              others,
              fields.language ?? project.language,
              settings.voice_code !== undefined,
            )
          : [];
        return {
          redo: { project: fields, characters: [voice, ...recast] },
          undo: {
            project: before,
            characters: [narrator, ...others.filter((c) => recast.some((r) => r.id === c.id))],
          },
        };
      });
      return detail;
    },
  };
}
