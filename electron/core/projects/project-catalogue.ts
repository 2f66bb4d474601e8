/**
 * Reading a key's projects (the list, a detail, a chapter's segments and changes), marking an
 * export, removing a project.
 */

import { rm } from 'node:fs/promises';
import {
  PROJECT_LIMITS,
  type ChapterChanges,
  type ProjectDetail,
  type ProjectList,
  type SegmentPage,
} from '../../shared/projects';
import type { CustomVoiceAccess } from '../voices';
import type { ProjectContext } from './project-history';
import { decodeProjectCursor, encodeProjectCursor } from './project-list-cursor';
import { owned, requireChapter } from './project-lookups';
import { chapterText, detailOf, segmentRecord, summaryRecord } from './project-records';
import { castAccess } from './project-voices';

export function createProjectCatalogue({ store, stamp, audioDir }: ProjectContext) {
  return {
    /**
     * A page of the key's projects, newest first: at most `limit` (PROJECT_LIMITS.listPage; default
     * listPageDefault), after the project `cursor` names (a `next_cursor` of an earlier page).
     */
    async list(keyId: string, page: { cursor?: string; limit?: number } = {}): Promise<ProjectList> {
      const limit = Math.min(page.limit ?? PROJECT_LIMITS.listPageDefault, PROJECT_LIMITS.listPage);
      const after = page.cursor === undefined ? undefined : decodeProjectCursor(page.cursor);
      const beforeSeq = after && (await store.projects.pageAnchor(keyId, after.id, after.createdAt));
      // One more than the page tells whether another follows.
      const rows = await store.projects.listProjects(keyId, { beforeSeq, limit: limit + 1 });
      const items = rows.slice(0, limit).map(summaryRecord);
      return {
        items,
        next_cursor: rows.length > limit ? encodeProjectCursor(items[items.length - 1]!) : null,
        total: await store.projects.countProjects(keyId),
      };
    },

    /** Whose custom voices the project may cast (its key's and the studio's); PROJECT_NOT_FOUND as `owned`. */
    async castAccess(keyId: string, projectId: string): Promise<CustomVoiceAccess> {
      return castAccess((await owned(store, keyId, projectId)).key_id);
    },

    async detail(keyId: string, projectId: string): Promise<ProjectDetail> {
      return await detailOf(store, await owned(store, keyId, projectId));
    },

    /**
     * A chapter's text now and at its last export (null before one), each cut after
     * PROJECT_LIMITS.changesCharacters characters (`truncated`).
     */
    async chapterChanges(keyId: string, projectId: string, chapterId: string): Promise<ChapterChanges> {
      const project = await owned(store, keyId, projectId);
      const chapters = await requireChapter(store, project.id, chapterId);
      const chapter = chapters.find((c) => c.id === chapterId)!;
      const limit = PROJECT_LIMITS.changesCharacters;
      const text = cut(chapterText(await store.projects.chapterTexts(chapterId)), limit);
      const exported = chapter.exported_text === null ? null : cut(chapter.exported_text, limit);
      return {
        chapter_id: chapter.id,
        exported_text: exported?.text ?? null,
        text: text.text,
        truncated: text.truncated || (exported?.truncated ?? false),
      };
    },

    /**
     * A window of a chapter's segments in order: at most `limit` (PROJECT_LIMITS.segmentPage)
     * from position `offset` on, with the chapter's count.
     */
    async segments(
      keyId: string,
      projectId: string,
      chapterId: string,
      offset = 0,
      limit: number = PROJECT_LIMITS.segmentPageDefault,
    ): Promise<SegmentPage> {
      const project = await owned(store, keyId, projectId);
      await requireChapter(store, project.id, chapterId);
      const size = Math.max(1, Math.min(PROJECT_LIMITS.segmentPage, Math.floor(limit)));
      const from = Math.max(0, Math.floor(offset));
      const [rows, figures] = await Promise.all([
        store.projects.chapterSegmentWindow(chapterId, from, size),
        store.projects.chapterFigures(project.id),
      ]);
      return {
        chapter_id: chapterId,
        items: rows.map(segmentRecord),
        offset: from,
        limit: size,
        total: figures.find((f) => f.chapter_id === chapterId)?.segment_count ?? 0,
      };
    },

    /**
     * After an export (project-export.ts): keeps each chapter's text as exported, for GET
     * …/changes and `changed_since_export`, and the time of the export.
     */
    async markExported(projectId: string, chapterIds: readonly string[]): Promise<void> {
      await store.transaction(async (tx) => {
        for (const id of chapterIds) {
          await tx.projects.setExportedText(id, chapterText(await tx.projects.chapterTexts(id)));
        }
        const at = stamp();
        await tx.projects.updateProject(projectId, { last_export_at: at }, at);
      });
    },

    /** Removes the project's rows and its audio folder. */
    async remove(keyId: string, projectId: string): Promise<{ project_id: string; removed: true }> {
      const project = await owned(store, keyId, projectId);
      await store.transaction(async (tx) => {
        await tx.projects.removeProject(project.id);
      });
      await rm(audioDir(project.id), { recursive: true, force: true });
      return { project_id: project.id, removed: true };
    },
  };
}

/** The first `limit` code points of a text, and whether that cut anything. */
function cut(text: string, limit: number): { text: string; truncated: boolean } {
  if (text.length <= limit) return { text, truncated: false };
  const points = Array.from(text);
  return points.length <= limit
    ? { text, truncated: false }
    : { text: points.slice(0, limit).join(''), truncated: true };
}
