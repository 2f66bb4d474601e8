/** A project's chapters edited (undoable): renamed, included, kind, reordered, merged, split. */

import { AppError } from '../../shared/errors';
import { PROJECT_LIMITS, type ProjectDetail } from '../../shared/projects';
import { cleanText } from '../../shared/text';
import type { ChapterRow, SegmentRow } from '../store';
import type { ProjectContext } from './project-history';
import type { ChapterEdit } from './project-inputs';
import { requireChapter } from './project-lookups';
import { newId } from './project-rows';

export function createChapterEdits({ edit }: ProjectContext) {
  return {
    async updateChapter(
      keyId: string,
      projectId: string,
      chapterId: string,
      change: ChapterEdit,
    ): Promise<ProjectDetail> {
      const { detail } = await edit(keyId, projectId, 'Chapter', async (tx, project) => {
        const chapters = await requireChapter(tx, project.id, chapterId);
        const before = chapters.find((c) => c.id === chapterId)!;
        const after = { ...before };
        if (change.title !== undefined) {
          const title = cleanText(change.title).trim();
          if (!title) throw new AppError('INVALID_FIELD', 'title must not be empty.', { field: 'title' });
          after.title = title;
        }
        if (change.included !== undefined) after.included = change.included ? 1 : 0;
        if (change.kind !== undefined) after.kind = change.kind;
        if (change.spoken_heading !== undefined)
          after.spoken_heading = change.spoken_heading
            ? cleanText(change.spoken_heading).trim() || null
            : null;
        return { redo: { chapters: [after] }, undo: { chapters: [before] } };
      });
      return detail;
    },

    /** Puts the chapters in the given order (every chapter id, once). */
    async reorderChapters(
      keyId: string,
      projectId: string,
      chapterIds: readonly string[],
    ): Promise<ProjectDetail> {
      const { detail } = await edit(keyId, projectId, 'Reorder chapters', async (tx, project) => {
        const chapters = await tx.projects.chapters(project.id);
        const ids = new Set(chapterIds);
        if (
          ids.size !== chapterIds.length ||
          ids.size !== chapters.length ||
          chapters.some((c) => !ids.has(c.id))
        ) {
          throw new AppError('INVALID_FIELD', 'chapter_ids must list every chapter of the project once.', {
            field: 'chapter_ids',
          });
        }
        const byId = new Map(chapters.map((c) => [c.id, c]));
        return {
          redo: { chapters: chapterIds.map((id, position) => ({ ...byId.get(id)!, position })) },
          undo: { chapters },
        };
      });
      return detail;
    },

    /** Merges adjacent chapters, in their order, into the first (its title kept). */
    async mergeChapters(
      keyId: string,
      projectId: string,
      chapterIds: readonly string[],
    ): Promise<ProjectDetail> {
      const { detail } = await edit(keyId, projectId, 'Merge chapters', async (tx, project) => {
        const chapters = await tx.projects.chapters(project.id);
        const first = chapters.findIndex((c) => c.id === chapterIds[0]);
        const adjacent =
          chapterIds.length >= 2 && first >= 0 && chapterIds.every((id, i) => chapters[first + i]?.id === id);
        if (!adjacent) {
          throw new AppError(
            'INVALID_FIELD',
            'chapter_ids must be two or more adjacent chapters, in their order.',
            {
              field: 'chapter_ids',
            },
          );
        }
        const merged = chapters.slice(first, first + chapterIds.length);
        const segments: SegmentRow[] = [];
        for (const chapter of merged) segments.push(...(await tx.projects.chapterSegments(chapter.id)));
        const target = merged[0]!;
        const texts = merged.map((c) => c.exported_text);
        const moved = segments.map((s, position) => ({ ...s, chapter_id: target.id, position }));
        const later = chapters.slice(first + chapterIds.length);
        return {
          redo: {
            chapters: [
              { ...target, exported_text: texts.every((t) => t !== null) ? texts.join('\n\n') : null },
              ...later.map((c) => ({ ...c, position: c.position - (chapterIds.length - 1) })),
            ],
            segments: moved,
            removeChapters: merged.slice(1).map((c) => c.id),
          },
          undo: { chapters: [...merged, ...later], segments },
        };
      });
      return detail;
    },

    /** Splits a chapter before a segment: that segment and those after it make a new chapter. */
    async splitChapter(
      keyId: string,
      projectId: string,
      chapterId: string,
      segmentId: string,
      title?: string,
    ): Promise<ProjectDetail> {
      const { detail } = await edit(keyId, projectId, 'Split chapter', async (tx, project) => {
        const chapters = await requireChapter(tx, project.id, chapterId);
        const chapter = chapters.find((c) => c.id === chapterId)!;
        const segments = await tx.projects.chapterSegments(chapterId);
        const at = segments.findIndex((s) => s.id === segmentId);
        if (at <= 0) {
          throw new AppError(
            'INVALID_FIELD',
            at === 0
              ? 'segment_id is the chapter’s first segment: a split needs a segment after it.'
              : `No segment "${segmentId}" in this chapter.`,
            { field: 'segment_id' },
          );
        }
        if (chapters.length >= PROJECT_LIMITS.chapters) {
          throw new AppError(
            'PROJECT_CONFLICT',
            `A project holds at most ${PROJECT_LIMITS.chapters} chapters: merge some before splitting.`,
          );
        }
        const name = title !== undefined ? cleanText(title).trim() : '';
        const created: ChapterRow = {
          id: newId(),
          project_id: project.id,
          position: chapter.position + 1,
          title: name || `${chapter.title} (2)`,
          kind: chapter.kind,
          included: chapter.included,
          exported_text: null,
        };
        const moving = segments.slice(at);
        const later = chapters.filter((c) => c.position > chapter.position);
        return {
          redo: {
            chapters: [created, ...later.map((c) => ({ ...c, position: c.position + 1 }))],
            segments: moving.map((s, position) => ({ ...s, chapter_id: created.id, position })),
          },
          undo: { chapters: later, segments: moving, removeChapters: [created.id] },
        };
      });
      return detail;
    },
  };
}
