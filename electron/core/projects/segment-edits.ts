/**
 * A segment edited (undoable): text, speaker, quote voices, flag; and suggested speakers confirmed.
 * Editing a segment's words marks only that segment (`changed` with audio, `not_rendered` without).
 */

import { AppError } from '../../shared/errors';
import type { EmphasisSpan } from '../../shared/manuscript';
import {
  PROJECT_LIMITS,
  type ProjectDetail,
  type QuoteVoice,
  type SegmentRecord,
} from '../../shared/projects';
import { cleanText, countCharacters } from '../../shared/text';
import type { SegmentRow } from '../store';
import type { ProjectContext } from './project-history';
import type { SegmentEdit } from './project-inputs';
import { requireSegment } from './project-lookups';
import { segmentRecord } from './project-records';
import { jsonOrNull, parseJson } from './project-rows';
import { applySuggestion, checkQuotes, edited, offsetMap, remapSpans } from './segment-changes';

const SEGMENT_TEXT_LIMIT = PROJECT_LIMITS.segmentCharacters;

export function createSegmentEdits({ store, edit }: ProjectContext) {
  return {
    /** Edits one segment (undoable): text, speaker, quote voices, flag. */
    async editSegment(
      keyId: string,
      projectId: string,
      segmentId: string,
      change: SegmentEdit,
    ): Promise<SegmentRecord> {
      await edit(keyId, projectId, 'Edit segment', async (tx, project) => {
        const before = await requireSegment(tx, project.id, segmentId);
        const characters = await tx.projects.characters(project.id);
        const after: SegmentRow = { ...before };
        let words = false;
        if (change.text !== undefined) {
          const text = cleanText(change.text).trim();
          if (!text) throw new AppError('INVALID_FIELD', 'text must not be empty.', { field: 'text' });
          if (countCharacters(text) > SEGMENT_TEXT_LIMIT) {
            throw new AppError('TEXT_TOO_LONG', `A segment holds at most ${SEGMENT_TEXT_LIMIT} characters.`, {
              field: 'text',
              characters: countCharacters(text),
              limit: SEGMENT_TEXT_LIMIT,
            });
          }
          if (text !== before.text) {
            const shift = offsetMap(before.text, text);
            after.text = text;
            after.emphasis = jsonOrNull(remapSpans(parseJson<EmphasisSpan[]>(before.emphasis, []), shift));
            after.quotes = jsonOrNull(remapSpans(parseJson<QuoteVoice[]>(before.quotes, []), shift));
            words = true;
          }
        }
        if (change.speaker !== undefined) {
          const speaker = change.speaker === null ? null : characters.find((c) => c.id === change.speaker);
          if (speaker === undefined) {
            throw new AppError(
              'INVALID_FIELD',
              `speaker "${change.speaker}" is not a character of this project.`,
              {
                field: 'speaker',
              },
            );
          }
          const id = speaker && speaker.narrator === 0 ? speaker.id : null;
          if (id !== before.speaker) words = true;
          after.speaker = id;
          after.suggested_speaker = null;
        }
        if (change.quotes !== undefined) {
          const quotes = checkQuotes(change.quotes, after.text, characters);
          const json = jsonOrNull(quotes);
          if (json !== after.quotes) words = true;
          after.quotes = json;
        }
        if (change.flag_note !== undefined) {
          after.flag_note = change.flag_note === null ? null : cleanText(change.flag_note).trim() || null;
        }
        if (words) Object.assign(after, edited(after));
        return { redo: { segments: [after] }, undo: { segments: [before] } };
      });
      return segmentRecord((await store.projects.getSegment(segmentId))!);
    },

    /** Confirms suggested speakers (of the given segments, or all): each becomes the speaker. */
    async applySuggestions(
      keyId: string,
      projectId: string,
      segmentIds?: readonly string[],
    ): Promise<ProjectDetail> {
      const { detail } = await edit(keyId, projectId, 'Apply suggestions', async (tx, project) => {
        const wanted = segmentIds ? new Set(segmentIds) : null;
        const segments = (await tx.projects.segments(project.id)).filter(
          (s) =>
            (!wanted || wanted.has(s.id)) &&
            (s.suggested_speaker !== null || (wanted !== null && s.quotes !== null)),
        );
        if (wanted) {
          const all = new Set((await tx.projects.segments(project.id)).map((s) => s.id));
          const missing = [...wanted].find((id) => !all.has(id));
          if (missing)
            throw new AppError('PROJECT_NOT_FOUND', `No segment "${missing}" in this project.`, {
              part: 'segment',
              id: missing,
            });
        }
        const characters = await tx.projects.characters(project.id);
        const confirm = new Set<string>();
        for (const s of segments) {
          if (s.suggested_speaker) confirm.add(s.suggested_speaker);
          for (const q of parseJson<QuoteVoice[]>(s.quotes, [])) confirm.add(q.character_id);
        }
        if (!wanted) for (const c of characters) if (c.confirmed === 0) confirm.add(c.id);
        const before = characters.filter((c) => confirm.has(c.id) && c.confirmed === 0);
        return {
          redo: {
            characters: before.map((c) => ({ ...c, confirmed: 1 })),
            segments: segments.map(applySuggestion),
          },
          undo: { characters: before, segments },
        };
      });
      return detail;
    },
  };
}
