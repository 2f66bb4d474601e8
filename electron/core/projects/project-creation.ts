/**
 * New projects: empty, from a manuscript, a manuscript appended (undoable), a duplicate, and rows
 * made elsewhere (an archive's, a copy's) saved under new ids.
 */

import { copyFile, link, mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import type { Manuscript } from '../../shared/manuscript';
import type { ProjectDetail, ProjectSettings } from '../../shared/projects';
import { manuscriptRows, manuscriptSize, rowsSize } from './manuscript-rows';
import { insertProject, parseCover } from './new-project';
import type { ProjectContext } from './project-history';
import type { ImportOverrides } from './project-inputs';
import { checkRoom, owned } from './project-lookups';
import { detailOf } from './project-records';
import { cloneRows, newId, type ClonedProject } from './project-rows';
import { checkProjectSize } from './project-size';
import { chooseLanguage } from './project-voices';

/** Segment rows a copy (an archive's, a duplicate's) inserts between two turns of the event loop. */
const SAVE_BATCH_SEGMENTS = 2000;

export function createProjectCreation(ctx: ProjectContext) {
  const { store, stamp, audioDir, edit } = ctx;
  return {
    /** An empty project (a narrator, no chapters). */
    async create(keyId: string, settings: ProjectSettings): Promise<ProjectDetail> {
      if (!settings.title?.trim())
        throw new AppError('MISSING_FIELD', 'title is required.', { field: 'title' });
      const cover = settings.cover ? parseCover(settings.cover) : null;
      const made = await insertProject(ctx, keyId, { ...settings, title: settings.title }, null, cover);
      return await store.transaction(async (tx) => {
        await made.repos(tx);
        return await detailOf(tx, made.project);
      });
    },

    /** A project from a manuscript: its chapters (front and back matter left out), segments and suggested cast. */
    async createFromManuscript(
      keyId: string,
      manuscript: Manuscript,
      overrides: ImportOverrides = {},
    ): Promise<ProjectDetail> {
      const title =
        overrides.title?.trim() || manuscript.title?.trim() || manuscript.fileName.replace(/\.[^.]+$/, '');
      const languageChoice = chooseLanguage(manuscript, overrides);
      const language = languageChoice.language;
      const made = await insertProject(
        ctx,
        keyId,
        {
          // (with the spoken-structure settings given)
          ...overrides,
          title,
          language,
          ...((overrides.author ?? manuscript.author)
            ? { author: overrides.author ?? manuscript.author }
            : {}),
        },
        { name: manuscript.fileName, format: manuscript.format },
        manuscript.cover ? { type: manuscript.cover.type, base64: manuscript.cover.base64 } : null,
      );
      // Its paragraphs counted before any work grows with them; its segments (a long paragraph makes several) after.
      checkProjectSize(manuscriptSize(manuscript), manuscript.fileName);
      const rows = manuscriptRows(made.project.id, manuscript, made.project.language, 0, [made.narrator]);
      checkProjectSize(rowsSize(rows), manuscript.fileName);
      return await store.transaction(async (tx) => {
        await made.repos(tx);
        await tx.projects.putCharacters(rows.characters);
        await tx.projects.putChapters(rows.chapters);
        await tx.projects.putSegments(rows.segments);
        return {
          ...(await detailOf(tx, made.project)),
          language_choice: languageChoice,
          ...(manuscript.legacyEncoding ? { legacy_encoding: manuscript.legacyEncoding } : {}),
          ...(manuscript.textEncoding ? { text_encoding: manuscript.textEncoding } : {}),
        };
      });
    },

    /** Appends a manuscript's chapters to a project (undoable). */
    async importInto(keyId: string, projectId: string, manuscript: Manuscript): Promise<ProjectDetail> {
      const { detail } = await edit(
        keyId,
        projectId,
        `Import ${manuscript.fileName}`,
        async (tx, project) => {
          const [chapters, characters] = await Promise.all([
            tx.projects.chapters(project.id),
            tx.projects.characters(project.id),
          ]);
          await checkRoom(tx, project.id, manuscriptSize(manuscript), manuscript.fileName);
          const rows = manuscriptRows(project.id, manuscript, project.language, chapters.length, characters);
          await checkRoom(tx, project.id, rowsSize(rows), manuscript.fileName);
          return {
            redo: { chapters: rows.chapters, characters: rows.characters, segments: rows.segments },
            undo: {
              removeSegments: rows.segments.map((s) => s.id),
              removeCharacters: rows.characters.map((c) => c.id),
              removeChapters: rows.chapters.map((c) => c.id),
            },
          };
        },
      );
      return detail;
    },

    /** A copy with new ids (its history not copied); the segments' audio files hard-linked (else copied). */
    async duplicate(keyId: string, projectId: string): Promise<ProjectDetail> {
      const source = await owned(store, keyId, projectId);
      const [chapters, characters, segments] = await Promise.all([
        store.projects.chapters(source.id),
        store.projects.characters(source.id),
        store.projects.segments(source.id),
      ]);
      const copy = cloneRows(
        { ...source, id: newId(), title: `${source.title} (copy)` },
        chapters,
        characters,
        segments,
      );
      await copyAudio(audioDir(source.id), audioDir(copy.project.id));
      try {
        return await saveClone(copy, stamp());
      } catch (error) {
        await rm(audioDir(copy.project.id), { recursive: true, force: true });
        throw error;
      }
    },

    /** Stores rows made elsewhere (an archive's, a copy's) under new ids: see cloneRows. */
    saveClone,
  };

  async function saveClone(copy: ClonedProject, at: string): Promise<ProjectDetail> {
    return await store.transaction(async (tx) => {
      await tx.projects.insertProject({ ...copy.project, created_at: at, updated_at: at });
      const { last_export_at, last_export } = copy.project;
      if (last_export_at !== null || last_export !== null) {
        await tx.projects.updateProject(copy.project.id, { last_export_at, last_export }, at);
      }
      await tx.projects.putCharacters(copy.characters);
      await tx.projects.putChapters(copy.chapters);
      // In batches with the event loop's turn between them: 200,000 rows are seconds of SQLite.
      for (let at = 0; at < copy.segments.length; at += SAVE_BATCH_SEGMENTS) {
        if (at > 0) await new Promise((resolve) => setImmediate(resolve));
        await tx.projects.putSegments(copy.segments.slice(at, at + SAVE_BATCH_SEGMENTS));
      }
      return await detailOf(tx, (await tx.projects.getProject(copy.project.id))!);
    });
  }
}

/** Hard-links (else copies) every file of a project's audio folder into another. */
async function copyAudio(from: string, to: string): Promise<void> {
  const names = await readdir(from).catch(() => [] as string[]);
  if (names.length === 0) return;
  await mkdir(to, { recursive: true });
  for (const name of names) {
    await link(join(from, name), join(to, name)).catch(() => copyFile(join(from, name), join(to, name)));
  }
}
