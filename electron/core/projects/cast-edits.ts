/** A project's cast edited (undoable): characters added, changed, merged, split, removed. */

import { AppError } from '../../shared/errors';
import { DEFAULT_SYNTHESIS } from '../../shared/options';
import { PROJECT_LIMITS, type CharacterRecord, type ProjectDetail } from '../../shared/projects';
import { cleanText } from '../../shared/text';
import type { CharacterRow, Repos } from '../store';
import { splitCharacterPatch } from './character-split';
import type { ProjectContext, ProjectPatch } from './project-history';
import type { CharacterInput } from './project-inputs';
import { requireCharacter } from './project-lookups';
import { newId } from './project-rows';
import { checkVoice } from './project-voices';
import { applySuggestion, moveSpeech, speaksAs } from './segment-changes';

export function createCastEdits({ edit }: ProjectContext) {
  return {
    async addCharacter(keyId: string, projectId: string, input: CharacterInput): Promise<CharacterRecord> {
      const id = newId();
      const { detail } = await edit(keyId, projectId, 'Add character', async (tx, project) => {
        const name = cleanText(input.name ?? '').trim();
        if (!name) throw new AppError('MISSING_FIELD', 'name is required.', { field: 'name' });
        if (!input.voice_code)
          throw new AppError('MISSING_FIELD', 'voice_code is required.', { field: 'voice_code' });
        await checkVoice(input.voice_code, project.key_id, tx);
        if ((await tx.projects.characters(project.id)).length >= PROJECT_LIMITS.cast) {
          throw new AppError(
            'PROJECT_CONFLICT',
            `A project's cast holds at most ${PROJECT_LIMITS.cast} characters.`,
          );
        }
        const row: CharacterRow = {
          id,
          project_id: project.id,
          name,
          voice_code: input.voice_code,
          speed_rate: input.speed_rate ?? DEFAULT_SYNTHESIS.speed_rate,
          pitch_rate: input.pitch_rate ?? DEFAULT_SYNTHESIS.pitch_rate,
          volume: input.volume ?? DEFAULT_SYNTHESIS.volume,
          narrator: 0,
          confirmed: 1,
        };
        return { redo: { characters: [row] }, undo: { removeCharacters: [id] } };
      });
      return detail.characters.find((c) => c.id === id)!;
    },

    /** Changes a character; confirming a suggested one also gives it the segments suggested for it. */
    async updateCharacter(
      keyId: string,
      projectId: string,
      characterId: string,
      input: CharacterInput,
    ): Promise<CharacterRecord> {
      const { detail } = await edit(keyId, projectId, 'Edit character', async (tx, project) => {
        const characters = await requireCharacter(tx, project.id, characterId);
        const before = characters.find((c) => c.id === characterId)!;
        const after = { ...before };
        if (input.name !== undefined) {
          const name = cleanText(input.name).trim();
          if (!name) throw new AppError('INVALID_FIELD', 'name must not be empty.', { field: 'name' });
          after.name = name;
          after.name_given = 1;
        }
        if (input.voice_code !== undefined) {
          await checkVoice(input.voice_code, project.key_id, tx);
          after.voice_code = input.voice_code;
        }
        if (input.speed_rate !== undefined) after.speed_rate = input.speed_rate;
        if (input.pitch_rate !== undefined) after.pitch_rate = input.pitch_rate;
        if (input.volume !== undefined) after.volume = input.volume;
        if (input.confirmed !== undefined) after.confirmed = input.confirmed || before.narrator === 1 ? 1 : 0;
        const redo: ProjectPatch = { characters: [after] };
        const undo: ProjectPatch = { characters: [before] };
        if (input.confirmed === true && before.confirmed === 0) {
          const segments = (await tx.projects.segments(project.id)).filter(
            (s) => s.suggested_speaker === characterId,
          );
          redo.segments = segments.map(applySuggestion);
          undo.segments = segments;
        }
        return { redo, undo };
      });
      return detail.characters.find((c) => c.id === characterId)!;
    },

    /**
     * Merges a character into another (undoable): its segments, suggested segments and quote
     * voices become `into`'s, and it goes. The narrator is neither (PROJECT_CONFLICT); a character
     * into itself is INVALID_FIELD.
     */
    async mergeCharacter(
      keyId: string,
      projectId: string,
      characterId: string,
      into: string,
    ): Promise<ProjectDetail> {
      const { detail } = await edit(keyId, projectId, 'Merge characters', async (tx, project) => {
        await requireCharacter(tx, project.id, characterId);
        const characters = await requireCharacter(tx, project.id, into);
        const character = characters.find((c) => c.id === characterId)!;
        const target = characters.find((c) => c.id === into)!;
        if (into === characterId)
          throw new AppError('INVALID_FIELD', 'into must be another character than the one merged.', {
            field: 'into',
          });
        if (character.narrator === 1 || target.narrator === 1)
          throw new AppError('PROJECT_CONFLICT', 'The narrator cannot be merged with a character.');
        return await handOver(tx, project.id, character, into);
      });
      return detail;
    },

    /**
     * Splits names out of a character (undoable): each of `names` becomes a character of its own,
     * with a voice chosen as for a suggestion (of the gender the name and the book give, apart
     * from the cast's voices), taking the segments and quotes whose attribution in the text names
     * it (`"…," said Mrs. Bennet`); the rest stay. INVALID_FIELD for a name of the cast already or
     * one no segment of the character is attributed to; PROJECT_CONFLICT for the narrator.
     */
    async splitCharacter(
      keyId: string,
      projectId: string,
      characterId: string,
      names: readonly string[],
    ): Promise<ProjectDetail> {
      const { detail } = await edit(keyId, projectId, 'Split character', (tx, project) =>
        splitCharacterPatch(tx, project, characterId, names),
      );
      return detail;
    },

    /** Removes a character: its segments and quotes go back to the narrator. */
    async removeCharacter(keyId: string, projectId: string, characterId: string): Promise<ProjectDetail> {
      const { detail } = await edit(keyId, projectId, 'Remove character', async (tx, project) => {
        const characters = await requireCharacter(tx, project.id, characterId);
        const character = characters.find((c) => c.id === characterId)!;
        if (character.narrator === 1)
          throw new AppError('PROJECT_CONFLICT', 'The narrator cannot be removed.');
        return await handOver(tx, project.id, character, null);
      });
      return detail;
    },
  };
}

/** The edit that removes a character, its speech handed to `to` (null: back to the narrator). */
async function handOver(
  tx: Repos,
  projectId: string,
  character: CharacterRow,
  to: string | null,
): Promise<{ redo: ProjectPatch; undo: ProjectPatch }> {
  const touched = (await tx.projects.segments(projectId)).filter((s) => speaksAs(s, character.id));
  return {
    redo: {
      segments: touched.map((s) => moveSpeech(s, character.id, to, () => true)),
      removeCharacters: [character.id],
    },
    undo: { characters: [character], segments: touched },
  };
}
