/**
 * A character split by name: each name becomes a character of its own taking the speech the text
 * attributes to it.
 */

import { AppError } from '../../shared/errors';
import { PROJECT_LIMITS } from '../../shared/projects';
import { cleanText } from '../../shared/text';
import type { ProjectRow, Repos, SegmentRow } from '../store';
import { attributeSegment, characterGender, chooseVoices } from './attribution';
import type { ProjectPatch } from './project-history';
import { requireCharacter } from './project-lookups';
import { newId } from './project-rows';
import { voicedCharacter } from './project-voices';
import { moveSpeech, speaksAs } from './segment-changes';
import { namesInText } from './speaker-names';

/**
 * Splits names out of a character (undoable): each of `names` becomes a character of its own,
 * with a voice chosen as for a suggestion (of the gender the name and the book give, apart
 * from the cast's voices), taking the segments and quotes whose attribution in the text names
 * it (`"…," said Mrs. Bennet`); the rest stay. INVALID_FIELD for a name of the cast already or
 * one no segment of the character is attributed to; PROJECT_CONFLICT for the narrator.
 */
export async function splitCharacterPatch(
  tx: Repos,
  project: ProjectRow,
  characterId: string,
  names: readonly string[],
): Promise<{ redo: ProjectPatch; undo: ProjectPatch }> {
  const characters = await requireCharacter(tx, project.id, characterId);
  const character = characters.find((c) => c.id === characterId)!;
  if (character.narrator === 1) throw new AppError('PROJECT_CONFLICT', 'The narrator cannot be split.');
  const wanted = [...new Set(names.map((n) => cleanText(n).trim().replace(/\s+/g, ' ')))];
  const key = (name: string) => name.normalize('NFC').toLocaleLowerCase();
  for (const name of wanted) {
    if (!name || characters.some((c) => key(c.name) === key(name)))
      throw new AppError('INVALID_FIELD', `"${name}" is the name of a character already.`, {
        field: 'names',
      });
  }
  if (characters.length + wanted.length > PROJECT_LIMITS.cast)
    throw new AppError(
      'PROJECT_CONFLICT',
      `A project's cast holds at most ${PROJECT_LIMITS.cast} characters.`,
    );
  const segments = await tx.projects.segments(project.id);
  const touched = segments.filter((s) => speaksAs(s, characterId));
  // As suggestCast: only a Vietnamese book names a speaker by a bare word before a colon.
  const vietnamese = project.language.split(/[-_]/)[0] === 'vi';
  const known = vietnamese ? namesInText(touched.map((s) => s.text)) : new Set<string>();
  const created = wanted.map((name) => ({ id: newId(), name }));
  const after: SegmentRow[] = [];
  const before: SegmentRow[] = [];
  const heardBy = new Map<string, number>();
  for (const s of touched) {
    const found = attributeSegment(s.text, known);
    let row = s;
    for (const c of created) {
      const own = (n: string | null) => n !== null && key(n) === key(c.name);
      const quoteRanges = found.quotes.filter((q) => own(q.name)).map((q) => `${q.start}:${q.end}`);
      const whole = own(found.speaker);
      if (!whole && quoteRanges.length === 0) continue;
      heardBy.set(c.id, (heardBy.get(c.id) ?? 0) + 1);
      row = moveSpeech(
        row,
        characterId,
        c.id,
        (q) => whole || quoteRanges.includes(`${q.start}:${q.end}`),
        whole,
      );
    }
    if (row !== s) {
      before.push(s);
      after.push(row);
    }
  }
  for (const c of created) {
    if (!heardBy.has(c.id))
      throw new AppError(
        'INVALID_FIELD',
        `No segment of "${character.name}" is attributed to "${c.name}" in the text.`,
        { field: 'names' },
      );
  }
  const narrator = characters.find((c) => c.narrator === 1)!;
  const voices = chooseVoices(
    created.map((c) => ({
      name: c.id,
      gender: characterGender(
        c.name,
        segments.map((s) => s.text),
      ),
    })),
    project.language,
    narrator.voice_code,
    characters.filter((c) => c.narrator !== 1).map((c) => c.voice_code),
  );
  const rows = created.map((c) =>
    voicedCharacter(project.id, c.id, c.name, voices.get(c.id)!, character, character.confirmed),
  );
  return {
    redo: { characters: rows, segments: after },
    undo: { segments: before, removeCharacters: created.map((c) => c.id) },
  };
}
