/**
 * Book projects: made empty or from a manuscript (chapters → segments, the attributed speech →
 * a suggested cast), read as the API's records, and edited: settings, chapters (rename,
 * include, kind, reorder, merge, split), segments (text, speaker, quote voices, flag), the cast,
 * the suggestions. Every edit is undoable: it is applied as a patch of whole rows and recorded
 * in project_history with the patch that undoes it (a new edit after undos drops the redo tail).
 * Editing a segment's text, speaker or quotes marks only that segment: `changed` when it has
 * audio (kept until a render replaces it), `not_rendered` otherwise; undoing back to the text
 * its audio was made from brings that audio back (`done`) without a render.
 * Every call names the key whose project it is: another key's project is PROJECT_NOT_FOUND.
 */

import { link, copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import type { EmphasisSpan, Manuscript } from '../../shared/manuscript';
import { DEFAULT_SYNTHESIS } from '../../shared/options';
import { storedDetails } from '../platform/error-details';
import {
  PROJECT_LIMITS,
  type ChapterChanges,
  type ChapterRecord,
  type CharacterRecord,
  type LanguageChoice,
  type ProjectDetail,
  type ProjectList,
  type ProjectRecord,
  type ProjectSettings,
  type QuoteVoice,
  type SegmentPage,
  type SegmentRecord,
  type SegmentState,
  DEFAULT_NARRATOR_NAME,
} from '../../shared/projects';
import { cleanText, countCharacters } from '../../shared/text';
import { findVoice, VOICES } from '../../shared/voices';
import type {
  CastFiguresRow,
  ChapterFiguresRow,
  ChapterRow,
  CharacterRow,
  ProjectFields,
  ProjectRow,
  ProjectSummaryRow,
  Repos,
  SegmentRow,
  Store,
} from '../store';
import { keyAccess, maySpeakWith, type CustomVoiceAccess } from '../voices';
import {
  attributeSegment,
  characterGender,
  chooseVoices,
  PROSODY_STEPS,
  suggestCast,
  type VoiceChoice,
} from './attribution';
import { namesInText } from './speaker-names';
import { decodeProjectCursor, encodeProjectCursor } from './project-list-cursor';
import { chapterSegments } from './segments';
import { checkProjectSize } from './project-size';
import { cloneRows, jsonOrNull, newId, parseJson, type ClonedProject } from './project-rows';
import {
  closingCreditsOf,
  hasCredits,
  openingCreditsOf,
  speaksHeadings,
  spokenStructureFields,
  type SpokenStructureSettings,
  spokenHeadingOfChapter,
} from './spoken-structure';

export { checkProjectSize, cloneRows, newId, type ClonedProject };

/** Edits kept for undo per project (the oldest go). */
const HISTORY_LIMIT = 500;
const SEGMENT_TEXT_LIMIT = PROJECT_LIMITS.segmentCharacters;
const MAX_COVER_BYTES = 2 * 1024 * 1024;

/** What an edit changes: whole rows to put and ids to remove (applied in that order). */
export interface ProjectPatch {
  project?: ProjectFields;
  chapters?: ChapterRow[];
  characters?: CharacterRow[];
  segments?: SegmentRow[];
  removeSegments?: string[];
  removeCharacters?: string[];
  removeChapters?: string[];
}

export interface SegmentEdit {
  text?: string;
  /** A character id; null: the narrator. */
  speaker?: string | null;
  quotes?: QuoteVoice[];
  flag_note?: string | null;
}

export interface ChapterEdit {
  title?: string;
  included?: boolean;
  kind?: ChapterRow['kind'];
  /** null or empty: made from the title again. */
  spoken_heading?: string | null;
}

export interface CharacterInput {
  name?: string;
  voice_code?: string;
  speed_rate?: number;
  pitch_rate?: number;
  volume?: number;
  confirmed?: boolean;
}

/** Settings a new project from a file may be given (over what the manuscript says). */
export interface ImportOverrides extends SpokenStructureSettings {
  title?: string;
  author?: string;
  voice_code?: string;
  language?: string;
}

export interface ProjectServiceOptions {
  store: Store;
  /** `<dataDir>/files`: a project's segment audio lives in `<filesDir>/projects/<id>/`. */
  filesDir: string;
  now?: () => Date;
}

export type ProjectService = ReturnType<typeof createProjectService>;

/** Segment rows a copy (an archive's, a duplicate's) inserts between two turns of the event loop. */
const SAVE_BATCH_SEGMENTS = 2000;

/** A segment's audio: the columns a render writes. */
type AudioColumn = 'state' | 'audio_key' | 'duration_ms' | 'error' | 'checks' | 'rendered_at';

export function createProjectService({ store, filesDir, now = () => new Date() }: ProjectServiceOptions) {
  const stamp = () => now().toISOString();
  const audioDir = (projectId: string) => join(filesDir, 'projects', projectId);

  async function owned(repos: Repos, keyId: string, projectId: string): Promise<ProjectRow> {
    const row = /^[0-9a-f]{32}$/.test(projectId) ? await repos.projects.getProject(projectId) : undefined;
    if (!row || row.key_id !== keyId)
      throw new AppError('PROJECT_NOT_FOUND', `No project "${projectId}" for this API key.`, {
        part: 'project',
        id: projectId,
      });
    return row;
  }

  /**
   * The project's detail: its cast and chapters with their figures, counted by the database, so
   * neither the answer nor the work grows with the segments (a chapter's text is read only to
   * tell whether it changed since an export that contained it, of the same length).
   */
  async function detailOf(repos: Repos, project: ProjectRow): Promise<ProjectDetail> {
    const [chapters, characters, figures, cast, undo, redo] = await Promise.all([
      repos.projects.chapters(project.id),
      repos.projects.characters(project.id),
      repos.projects.chapterFigures(project.id),
      repos.projects.castFigures(project.id),
      repos.projects.historyAt(project.id, project.history_position),
      repos.projects.historyAt(project.id, project.history_position + 1),
    ]);
    const byChapter = new Map(figures.map((f) => [f.chapter_id, f]));
    const changed = new Map<string, boolean>();
    for (const chapter of chapters) {
      const f = byChapter.get(chapter.id);
      const count = f?.segment_count ?? 0;
      const length = (f?.characters ?? 0) + 2 * Math.max(0, count - 1);
      // Only a chapter an export contained can have changed since.
      if (chapter.exported_text === null) {
        changed.set(chapter.id, false);
      } else if (countCharacters(chapter.exported_text) !== length) {
        changed.set(chapter.id, true);
      } else {
        const texts = await repos.projects.chapterTexts(chapter.id);
        changed.set(chapter.id, chapter.exported_text !== chapterText(texts));
      }
    }
    return toDetail(
      project,
      chapters,
      characters,
      byChapter,
      cast,
      changed,
      undo !== undefined,
      redo !== undefined,
    );
  }

  /** What a project holds now and after adding `segments` of `characters`: over a limit, MANUSCRIPT_TOO_LARGE. */
  async function checkRoom(
    repos: Repos,
    projectId: string,
    added: { chapters: number; segments: number; characters: number },
    name: string,
  ): Promise<void> {
    const [chapters, figures] = await Promise.all([
      repos.projects.chapters(projectId),
      repos.projects.chapterFigures(projectId),
    ]);
    checkProjectSize(
      {
        chapters: chapters.length + added.chapters,
        segments: figures.reduce((n, f) => n + f.segment_count, 0) + added.segments,
        characters: figures.reduce((n, f) => n + f.characters, 0) + added.characters,
      },
      name,
    );
  }

  /** Runs an edit in one transaction: builds its patch from the rows, applies it, records its undo. */
  async function edit<T>(
    keyId: string,
    projectId: string,
    label: string,
    build: (
      repos: Repos,
      project: ProjectRow,
    ) => Promise<{ redo: ProjectPatch; undo: ProjectPatch; result?: T }>,
  ): Promise<{ detail: ProjectDetail; result: T | undefined }> {
    return await store.transaction(async (tx) => {
      const project = await owned(tx, keyId, projectId);
      const { redo, undo, result } = await build(tx, project);
      const at = stamp();
      await applyPatch(tx, project.id, redo, at);
      await tx.projects.pushHistory(
        {
          project_id: project.id,
          position: project.history_position + 1,
          label,
          undo: JSON.stringify(undo),
          redo: JSON.stringify(redo),
          created_at: at,
        },
        HISTORY_LIMIT,
      );
      const fresh = (await tx.projects.getProject(project.id))!;
      return { detail: await detailOf(tx, fresh), result };
    });
  }

  /** Applies a patch: segments put over a row keep that row's audio when their words did not change. */
  async function applyPatch(tx: Repos, projectId: string, patch: ProjectPatch, at: string): Promise<void> {
    await tx.projects.updateProject(projectId, patch.project ?? {}, at);
    if (patch.chapters?.length) await tx.projects.putChapters(patch.chapters);
    if (patch.characters?.length) await tx.projects.putCharacters(patch.characters);
    if (patch.segments?.length) {
      const rows: SegmentRow[] = [];
      // Many rows (an import undone, a merge): the project's segments in one query.
      const all =
        patch.segments.length > 20
          ? new Map((await tx.projects.segments(projectId)).map((s) => [s.id, s]))
          : undefined;
      for (const row of patch.segments) {
        const current = all ? all.get(row.id) : await tx.projects.getSegment(row.id);
        if (current && sameWords(current, row)) {
          rows.push({ ...row, ...pickAudio(current) });
        } else {
          // A render that was under way belongs to other words: the audio it had, if any, is stale.
          const busy = row.state === 'queued' || row.state === 'rendering';
          rows.push(busy ? { ...row, state: row.audio_key ? 'changed' : 'not_rendered' } : row);
        }
      }
      await tx.projects.putSegments(rows);
    }
    if (patch.removeSegments?.length) await tx.projects.removeSegments(patch.removeSegments);
    if (patch.removeCharacters?.length) await tx.projects.removeCharacters(patch.removeCharacters);
    if (patch.removeChapters?.length) await tx.projects.removeChapters(patch.removeChapters);
  }

  async function stepHistory(
    keyId: string,
    projectId: string,
    direction: 'undo' | 'redo',
  ): Promise<ProjectDetail> {
    return await store.transaction(async (tx) => {
      const project = await owned(tx, keyId, projectId);
      const position = direction === 'undo' ? project.history_position : project.history_position + 1;
      const entry = await tx.projects.historyAt(project.id, position);
      if (!entry)
        throw new AppError('PROJECT_CONFLICT', `Nothing to ${direction} in project "${project.title}".`);
      const patch = JSON.parse(direction === 'undo' ? entry.undo : entry.redo) as ProjectPatch;
      await applyPatch(tx, project.id, patch, stamp());
      await tx.projects.setHistoryPosition(project.id, direction === 'undo' ? position - 1 : position);
      return await detailOf(tx, (await tx.projects.getProject(project.id))!);
    });
  }

  /** The rows a manuscript's chapters make (appended after `firstPosition`), its cast suggested. */
  function manuscriptRows(
    projectId: string,
    manuscript: Manuscript,
    language: string,
    firstPosition: number,
    existing: readonly CharacterRow[],
  ): { chapters: ChapterRow[]; segments: SegmentRow[]; characters: CharacterRow[] } {
    const chapters: ChapterRow[] = [];
    const segments: SegmentRow[] = [];
    for (const [index, chapter] of manuscript.chapters.entries()) {
      const id = newId();
      chapters.push({
        id,
        project_id: projectId,
        position: firstPosition + index,
        title: cleanText(chapter.title).trim() || `Chapter ${firstPosition + index + 1}`,
        kind: chapter.kind,
        included: chapter.kind === 'body' ? 1 : 0,
        exported_text: null,
      });
      chapterSegments(chapter.paragraphs, language).forEach((draft, position) => {
        segments.push(newSegment(projectId, id, position, draft.text, draft.emphasis));
      });
    }
    const cast = suggestCast(
      segments.map((s) => s.text),
      new Set(segments.flatMap((s, i) => (s.position === 0 ? [i] : []))),
      language,
    );
    const byName = new Map(existing.filter((c) => !c.narrator).map((c) => [c.name, c]));
    const narrator = existing.find((c) => c.narrator === 1)!;
    // The cast stays within its limit: the characters heard in the most segments are suggested.
    const room = Math.max(0, PROJECT_LIMITS.cast - existing.length);
    const newOnes = cast.characters
      .filter((c) => !byName.has(c.name))
      .map((c, order) => ({ c, order }))
      .sort((a, b) => b.c.segments.length - a.c.segments.length || a.order - b.order)
      .slice(0, room)
      .sort((a, b) => a.order - b.order)
      .map(({ c }) => c);
    const voices = chooseVoices(
      newOnes,
      language,
      narrator.voice_code,
      existing.map((c) => c.voice_code),
    );
    const characters = newOnes.map((c) =>
      voicedCharacter(projectId, newId(), c.name, voices.get(c.name)!, narrator, 0),
    );
    for (const c of characters) byName.set(c.name, c);
    cast.segments.forEach((found, index) => {
      const segment = segments[index]!;
      const speaker = found.speaker ? byName.get(found.speaker) : undefined;
      if (speaker) segment.suggested_speaker = speaker.id;
      const quotes = found.quotes.flatMap((q) => {
        const character = byName.get(q.name!);
        return character ? [{ start: q.start, end: q.end, character_id: character.id }] : [];
      });
      if (quotes.length > 0) segment.quotes = JSON.stringify(quotes);
    });
    return { chapters, segments, characters };
  }

  async function insertProject(
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

  async function requireChapter(tx: Repos, projectId: string, chapterId: string): Promise<ChapterRow[]> {
    const chapters = await tx.projects.chapters(projectId);
    if (!chapters.some((c) => c.id === chapterId))
      throw new AppError('PROJECT_NOT_FOUND', `No chapter "${chapterId}" in this project.`, {
        part: 'chapter',
        id: chapterId,
      });
    return chapters;
  }

  async function requireSegment(tx: Repos, projectId: string, segmentId: string): Promise<SegmentRow> {
    const segment = await tx.projects.getSegment(segmentId);
    if (!segment || segment.project_id !== projectId)
      throw new AppError('PROJECT_NOT_FOUND', `No segment "${segmentId}" in this project.`, {
        part: 'segment',
        id: segmentId,
      });
    return segment;
  }

  async function requireCharacter(
    tx: Repos,
    projectId: string,
    characterId: string,
  ): Promise<CharacterRow[]> {
    const characters = await tx.projects.characters(projectId);
    if (!characters.some((c) => c.id === characterId))
      throw new AppError('PROJECT_NOT_FOUND', `No character "${characterId}" in this project.`, {
        part: 'character',
        id: characterId,
      });
    return characters;
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

  return {
    audioDir,
    /** Where uploads and archives wait while they are read or sent. */
    tempDir: join(filesDir, 'project-uploads'),

    /** The project row if `keyId` owns it; PROJECT_NOT_FOUND otherwise. */
    owned: (keyId: string, projectId: string) => owned(store, keyId, projectId),

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

    /** An empty project (a narrator, no chapters). */
    async create(keyId: string, settings: ProjectSettings): Promise<ProjectDetail> {
      if (!settings.title?.trim())
        throw new AppError('MISSING_FIELD', 'title is required.', { field: 'title' });
      const cover = settings.cover ? parseCover(settings.cover) : null;
      const made = await insertProject(keyId, { ...settings, title: settings.title }, null, cover);
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
      const { detail } = await edit(keyId, projectId, 'Split character', async (tx, project) => {
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
      });
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

    undo: (keyId: string, projectId: string) => stepHistory(keyId, projectId, 'undo'),
    redo: (keyId: string, projectId: string) => stepHistory(keyId, projectId, 'redo'),

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

    /** Removes the project's rows and its audio folder. */
    async remove(keyId: string, projectId: string): Promise<{ project_id: string; removed: true }> {
      const project = await owned(store, keyId, projectId);
      await store.transaction(async (tx) => {
        await tx.projects.removeProject(project.id);
      });
      await rm(audioDir(project.id), { recursive: true, force: true });
      return { project_id: project.id, removed: true };
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

/** What a manuscript adds to a project at least: a segment per paragraph. */
function manuscriptSize(manuscript: Manuscript) {
  let segments = 0;
  let characters = 0;
  for (const chapter of manuscript.chapters) {
    segments += chapter.paragraphs.length;
    for (const p of chapter.paragraphs) characters += countCharacters(p.text);
  }
  return { chapters: manuscript.chapters.length, segments, characters };
}

/** What a manuscript's rows add to a project. */
function rowsSize(rows: { chapters: readonly ChapterRow[]; segments: readonly SegmentRow[] }) {
  return {
    chapters: rows.chapters.length,
    segments: rows.segments.length,
    characters: rows.segments.reduce((n, s) => n + countCharacters(s.text), 0),
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

/** The text of a chapter: its segments' texts with blank lines between. */
function chapterText(texts: readonly string[]): string {
  return texts.join('\n\n');
}

/** A segment's row as an import writes it: not rendered, no speaker or quotes. */
export function newSegment(
  projectId: string,
  chapterId: string,
  position: number,
  text: string,
  emphasis: EmphasisSpan[],
): SegmentRow {
  return {
    id: newId(),
    project_id: projectId,
    chapter_id: chapterId,
    position,
    text,
    emphasis: jsonOrNull(emphasis),
    speaker: null,
    quotes: null,
    suggested_speaker: null,
    state: 'not_rendered',
    audio_key: null,
    duration_ms: null,
    error: null,
    flag_note: null,
    checks: null,
    rendered_at: null,
  };
}

/** The state of a segment whose words changed: `changed` when it has audio, else `not_rendered`. */
/** Whether a segment is a character's: spoken, suggested, or a quote in its voice. */
function speaksAs(s: SegmentRow, characterId: string): boolean {
  return (
    s.speaker === characterId ||
    s.suggested_speaker === characterId ||
    parseJson<QuoteVoice[]>(s.quotes, []).some((q) => q.character_id === characterId)
  );
}

/**
 * A segment with a character's speech given to another (null: back to the narrator, its quote
 * voices dropped): its quotes that `quote` picks, and (when `whole`) the segment's speaker and
 * suggested speaker; marked changed when its voices change.
 */
function moveSpeech(
  s: SegmentRow,
  from: string,
  to: string | null,
  quote: (q: QuoteVoice) => boolean,
  whole = true,
): SegmentRow {
  const quotes = parseJson<QuoteVoice[]>(s.quotes, []).flatMap((q) =>
    q.character_id !== from || !quote(q) ? [q] : to === null ? [] : [{ ...q, character_id: to }],
  );
  const row: SegmentRow = {
    ...s,
    speaker: whole && s.speaker === from ? to : s.speaker,
    suggested_speaker: whole && s.suggested_speaker === from ? to : s.suggested_speaker,
    quotes: jsonOrNull(quotes),
  };
  return row.speaker !== s.speaker || row.quotes !== s.quotes ? { ...row, ...edited(row) } : row;
}

function edited(row: SegmentRow): Pick<SegmentRow, 'state' | 'error'> {
  return { state: (row.audio_key ? 'changed' : 'not_rendered') satisfies SegmentState, error: null };
}

function applySuggestion(s: SegmentRow): SegmentRow {
  if (!s.suggested_speaker) return s;
  const row = { ...s, speaker: s.suggested_speaker, suggested_speaker: null };
  return row.speaker !== s.speaker ? { ...row, ...edited(row) } : row;
}

function sameWords(a: SegmentRow, b: SegmentRow): boolean {
  return a.text === b.text && a.speaker === b.speaker && a.quotes === b.quotes && a.emphasis === b.emphasis;
}

function pickAudio(row: SegmentRow): Pick<SegmentRow, AudioColumn> {
  return {
    state: row.state,
    audio_key: row.audio_key,
    duration_ms: row.duration_ms,
    error: row.error,
    checks: row.checks,
    rendered_at: row.rendered_at,
  };
}

/**
 * Where offsets of the old text land in the new one: the common start stays, the common end
 * moves by the change in length, offsets inside the changed part go to its end (null: dropped
 * when a span lies wholly inside the changed part).
 */
function offsetMap(before: string, after: string): (offset: number, isEnd: boolean) => number {
  const a = Array.from(before);
  const b = Array.from(after);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  ) {
    suffix++;
  }
  return (offset, isEnd) => {
    if (offset < prefix || (isEnd && offset === prefix)) return offset;
    if (offset >= a.length - suffix) return offset - a.length + b.length;
    return isEnd ? b.length - suffix : prefix;
  };
}

function remapSpans<T extends { start: number; end: number }>(
  spans: readonly T[],
  shift: (o: number, end: boolean) => number,
): T[] {
  return spans
    .map((s) => ({ ...s, start: shift(s.start, false), end: shift(s.end, true) }))
    .filter((s) => s.end > s.start);
}

function checkQuotes(
  quotes: readonly QuoteVoice[],
  text: string,
  characters: readonly CharacterRow[],
): QuoteVoice[] {
  const length = countCharacters(text);
  const sorted = [...quotes].sort((x, y) => x.start - y.start);
  let last = 0;
  for (const q of sorted) {
    if (q.start < last || q.end <= q.start || q.end > length) {
      throw new AppError(
        'INVALID_FIELD',
        `quotes must be ranges within the segment's ${length} characters, not overlapping (start < end).`,
        { field: 'quotes' },
      );
    }
    if (!characters.some((c) => c.id === q.character_id)) {
      throw new AppError('INVALID_FIELD', `quotes: "${q.character_id}" is not a character of this project.`, {
        field: 'quotes',
      });
    }
    last = q.end;
  }
  return sorted.map((q) => ({ start: q.start, end: q.end, character_id: q.character_id }));
}

/**
 * The custom voices a project of the key `keyId` may cast: the key's own and the studio's (never
 * another key's, not even when the signed-in studio, which sees every voice, edits the project).
 */
const castAccess = (keyId: string): CustomVoiceAccess => keyAccess(keyId);

/**
 * A catalogue voice code or a custom voice the project's key `keyId` may speak with (its own or
 * the studio's); UNKNOWN_VOICE otherwise: another key's voice does not exist for a project.
 */
async function checkVoice(code: string, keyId: string, store: Pick<Repos, 'customVoices'>): Promise<void> {
  if (findVoice(code)) return;
  const custom = await store.customVoices.get(code);
  if (!custom || !maySpeakWith(custom.owner_key_id, castAccess(keyId))) {
    throw new AppError(
      'UNKNOWN_VOICE',
      `Unknown voice_code "${code}". GET /api/v1/voices and GET /api/v1/custom-voices list the voices.`,
      {
        field: 'voice_code',
      },
    );
  }
}

/** `vi-VN` → `vi`; lower case. */
function normaliseLanguage(language: string): string {
  return language.trim().toLowerCase().split(/[-_]/)[0] || 'en';
}

/** The catalogue's first voice of the language (the first English one when it has none). */
function defaultVoice(language: string): string {
  return (VOICES.find((v) => v.language === language) ?? VOICES.find((v) => v.language === 'en')!).voice_code;
}

/**
 * An imported project's language: the request's, else the language of the text (detected once
 * by the reader from its letters and words, the whole book sampled: Manuscript.textLanguage), which wins over metadata that disagrees (most
 * Vietnamese EPUBs say `en`); else the metadata's, else the voice's, else English.
 */
function chooseLanguage(manuscript: Manuscript, overrides: ImportOverrides): LanguageChoice {
  const metadata = manuscript.language ? normaliseLanguage(manuscript.language) : null;
  const detected = manuscript.textLanguage;
  const choice = (language: string, source: LanguageChoice['source']): LanguageChoice => ({
    language: normaliseLanguage(language),
    source,
    metadata,
    detected,
  });
  const voiceLanguage = overrides.voice_code ? findVoice(overrides.voice_code)?.language : undefined;
  if (overrides.language) return choice(overrides.language, 'request');
  if (detected !== 'unknown') return choice(detected, 'text');
  if (metadata) return choice(metadata, 'metadata');
  if (voiceLanguage) return choice(voiceLanguage, 'voice');
  return choice('en', 'default');
}

/**
 * A cast re-voiced in `language` (PATCH …/projects/<id> with `recast`): the narrator (`narrator`,
 * changed in place unless its voice was just chosen) gets the language's first voice when its
 * catalogue voice speaks another; the characters whose catalogue voices speak another language
 * get voices of it, of their voices' gender (chooseVoices); answered are the characters changed.
 * Custom voices, and a language without catalogue voices, leave the cast as it is.
 */
function recastVoices(
  narrator: CharacterRow,
  others: readonly CharacterRow[],
  language: string,
  narratorChosen: boolean,
): CharacterRow[] {
  if (!VOICES.some((v) => v.language === language)) return [];
  const speaksOther = (code: string) => {
    const found = findVoice(code);
    return found !== undefined && found.language !== language;
  };
  if (!narratorChosen && speaksOther(narrator.voice_code)) narrator.voice_code = defaultVoice(language);
  const moving = others.filter((c) => speaksOther(c.voice_code));
  const taken = others.filter((c) => !moving.includes(c)).map((c) => c.voice_code);
  const chosen = chooseVoices(
    moving.map((c) => ({ name: c.id, gender: findVoice(c.voice_code)!.gender })),
    language,
    narrator.voice_code,
    taken,
  );
  return moving.map((c) => ({ ...c, voice_code: chosen.get(c.id)?.voice_code ?? c.voice_code }));
}

/**
 * A new character with its chosen voice, speaking at `base`'s speed, pitch and volume moved by
 * the choice's prosody step.
 */
function voicedCharacter(
  projectId: string,
  id: string,
  name: string,
  { voice_code, step }: VoiceChoice,
  base: Pick<CharacterRow, 'speed_rate' | 'pitch_rate' | 'volume'>,
  confirmed: CharacterRow['confirmed'],
): CharacterRow {
  return {
    id,
    project_id: projectId,
    name,
    voice_code,
    speed_rate: stepRate(base.speed_rate, PROSODY_STEPS[step]!.speed),
    pitch_rate: stepRate(base.pitch_rate, PROSODY_STEPS[step]!.pitch),
    volume: base.volume,
    narrator: 0,
    confirmed,
  };
}

/** A rate (speed or pitch) moved by a prosody step, kept within 0.5–2.0 at one decimal. */
function stepRate(rate: number, step: number): number {
  return Math.min(2, Math.max(0.5, Math.round((rate + step) * 10) / 10));
}

/** A cover from base64 (a `data:` prefix allowed): JPEG or PNG of at most 2 MiB; INVALID_FIELD otherwise. */
function parseCover(text: string): { type: 'image/jpeg' | 'image/png'; base64: string } {
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

function summaryRecord(row: ProjectSummaryRow): ProjectRecord {
  return {
    ...projectBase(row),
    chapter_count: row.chapter_count,
    characters: row.characters,
    segment_count: row.segment_count,
    segments_done: row.segments_done,
    duration_ms: row.duration_ms,
    can_undo: row.can_undo === 1,
    can_redo: row.can_redo === 1,
  };
}

function projectBase(row: ProjectRow) {
  return {
    id: row.id,
    title: row.title,
    author: row.author,
    language: row.language,
    has_cover: row.cover_type !== null,
    model_id: row.model_id,
    preset: row.preset,
    format: row.format,
    folder_format: row.folder_format,
    source_name: row.source_name,
    source_format: row.source_format,
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_export_at: row.last_export_at,
    speak_headings: speaksHeadings(row),
    credits: hasCredits(row),
    narrator_name: row.narrator_name ?? null,
    copyright: row.copyright ?? null,
    opening_credits: openingCreditsOf(row),
    closing_credits: closingCreditsOf(row),
    opening_credits_edited: Boolean(row.opening_credits),
    closing_credits_edited: Boolean(row.closing_credits),
  };
}

export function segmentRecord(row: SegmentRow): SegmentRecord {
  return {
    id: row.id,
    chapter_id: row.chapter_id,
    position: row.position,
    text: row.text,
    emphasis: parseJson(row.emphasis, []),
    speaker: row.speaker,
    quotes: parseJson(row.quotes, []),
    suggested_speaker: row.suggested_speaker,
    state: row.state,
    duration_ms: row.duration_ms,
    error: row.error,
    ...(row.error !== null && row.error_code ? { error_code: row.error_code } : {}),
    ...(row.error !== null ? storedDetails(row.error_details) : {}),
    flag_note: row.flag_note,
    checks: parseJson(row.checks, []),
  };
}

function characterRecord(row: CharacterRow): Omit<CharacterRecord, 'segments' | 'suggested'> {
  return {
    id: row.id,
    name: row.name,
    voice_code: row.voice_code,
    speed_rate: row.speed_rate,
    pitch_rate: row.pitch_rate,
    volume: row.volume,
    narrator: row.narrator === 1,
    named: isNameGiven(row),
    confirmed: row.confirmed === 1,
  };
}

/** Whether a character's name is one a person gave, not the narrator's default (see CharacterRow). */
function isNameGiven(row: CharacterRow): boolean {
  if (row.name_given === 0 || row.name_given === 1) return row.name_given === 1;
  return !(row.narrator === 1 && row.name === DEFAULT_NARRATOR_NAME);
}

/** The API's project detail from its rows and the figures the database counted. */
function toDetail(
  project: ProjectRow,
  chapters: readonly ChapterRow[],
  characters: readonly CharacterRow[],
  figures: ReadonlyMap<string, ChapterFiguresRow>,
  cast: readonly CastFiguresRow[],
  changed: ReadonlyMap<string, boolean>,
  canUndo: boolean,
  canRedo: boolean,
): ProjectDetail {
  let characterCount = 0;
  let segmentCount = 0;
  let segmentsDone = 0;
  let duration = 0;
  const chapterRecords = [...chapters]
    .sort((a, b) => a.position - b.position)
    .map((chapter): ChapterRecord => {
      const f = figures.get(chapter.id);
      const count = f?.segment_count ?? 0;
      characterCount += f?.characters ?? 0;
      segmentCount += count;
      segmentsDone += f?.segments_done ?? 0;
      if (chapter.included === 1) duration += f?.duration_ms ?? 0;
      return {
        id: chapter.id,
        position: chapter.position,
        title: chapter.title,
        kind: chapter.kind,
        included: chapter.included === 1,
        characters: f?.characters ?? 0,
        segment_count: count,
        segments_done: f?.segments_done ?? 0,
        duration_ms: f && count > 0 && f.with_audio === count ? f.duration_ms : null,
        exported: chapter.exported_text !== null,
        changed_since_export: changed.get(chapter.id) ?? chapter.exported_text !== null,
        spoken_heading: spokenHeadingOfChapter(chapter, project.language),
        spoken_heading_edited: Boolean(chapter.spoken_heading),
      };
    });
  const narrator = characters.find((c) => c.narrator === 1)?.id;
  // A segment without a speaker is the narrator's.
  const lines = new Map<string | undefined, { segments: number; suggested: number }>();
  for (const c of cast) {
    const id = c.character_id ?? narrator;
    const had = lines.get(id);
    lines.set(id, {
      segments: (had?.segments ?? 0) + c.segments,
      suggested: (had?.suggested ?? 0) + c.suggested,
    });
  }
  return {
    project: {
      ...projectBase(project),
      chapter_count: chapters.length,
      characters: characterCount,
      segment_count: segmentCount,
      segments_done: segmentsDone,
      duration_ms: duration,
      can_undo: canUndo,
      can_redo: canRedo,
    },
    characters: characters.map((c) => ({
      ...characterRecord(c),
      segments: lines.get(c.id)?.segments ?? 0,
      suggested: lines.get(c.id)?.suggested ?? 0,
    })),
    chapters: chapterRecords,
  };
}
