/**
 * The typed client of the book projects' routes (/api/v1/projects/…, docs/API.md): one function
 * per route, on top of the studio's ApiClient (its session, its error shape). Wire types come
 * from electron/shared/projects.ts, exports from book-exports.ts.
 */

import type { BookFormat, FolderFormat } from '../../../electron/shared/book-exports';
import type { ChapterKind, NotesMode } from '../../../electron/shared/manuscript';
import type { CustomVoice } from '../../../electron/shared/custom-voices';
import {
  PROJECT_LIMITS,
  type ChapterChanges,
  type CharacterRecord,
  type ProjectDetail,
  type ProjectExportRecord,
  type ProjectList,
  type ProjectRenderRecord,
  type ProjectSettings,
  type QuoteVoice,
  type SegmentPage,
  type SegmentRecord,
} from '../../../electron/shared/projects';
import type { ApiClient } from './api-client';
import { readCustomVoicePages } from './custom-voice-pages';

/** A word of a segment's timings (as result-files.ts writes them): its text and where it is spoken. */
export interface SegmentWord {
  text: string;
  startMs: number;
  endMs: number;
  charStart: number;
  charEnd: number;
}

export interface ImportOptions {
  title?: string;
  author?: string;
  voice_code?: string;
  language?: string;
  /** Footnotes and endnotes: left out (default), read after their paragraph, or in a last chapter. */
  notes?: NotesMode;
}

export interface SegmentEdit {
  text?: string;
  speaker?: string | null;
  quotes?: QuoteVoice[];
  flag_note?: string | null;
}

export interface CharacterInput {
  name: string;
  voice_code: string;
  speed_rate?: number;
  pitch_rate?: number;
  volume?: number;
}

export interface CharacterEdit extends Partial<CharacterInput> {
  confirmed?: boolean;
}

export interface ChapterEdit {
  title?: string;
  included?: boolean;
  kind?: ChapterKind;
  /** null: made from the title again. */
  spoken_heading?: string | null;
}

export type { ChapterChanges };

export interface RegenerateOptions {
  voice_code?: string;
  speed_rate?: number;
  pitch_rate?: number;
  volume?: number;
}

export interface ProjectsApi {
  /** A page of the projects, newest first: the first, or the one after `cursor` (a `next_cursor`). */
  list(cursor?: string | null): Promise<ProjectList>;
  create(settings: ProjectSettings): Promise<ProjectDetail>;
  /** The custom voices the project may speak with: its key's own and the studio's. */
  customVoices(id: string): Promise<CustomVoice[]>;
  /** A manuscript file as a new project (its bytes as the raw body). */
  importManuscript(file: Blob, fileName: string, options?: ImportOptions): Promise<ProjectDetail>;
  /** A manuscript's chapters appended to a project. */
  importInto(id: string, file: Blob, fileName: string): Promise<ProjectDetail>;
  /** The project with its cast and chapters (no segments: `segments` pages them). */
  get(id: string): Promise<ProjectDetail>;
  /** A window of a chapter's segments: from `offset`, at most `limit` (1–500), with the total. */
  segments(id: string, chapterId: string, offset: number, limit: number): Promise<SegmentPage>;
  update(id: string, settings: ProjectSettings): Promise<ProjectDetail>;
  duplicate(id: string): Promise<ProjectDetail>;
  remove(id: string): Promise<{ project_id: string; removed: true }>;
  /** The whole project as one zip (project.json and its audio). */
  archive(id: string): Promise<Blob>;
  importArchive(file: Blob, fileName: string): Promise<ProjectDetail>;
  updateChapter(id: string, chapterId: string, edit: ChapterEdit): Promise<ProjectDetail>;
  reorderChapters(id: string, chapterIds: string[]): Promise<ProjectDetail>;
  mergeChapters(id: string, chapterIds: string[]): Promise<ProjectDetail>;
  /** `segmentId` starts the new chapter, called `title`. */
  splitChapter(id: string, chapterId: string, segmentId: string, title: string): Promise<ProjectDetail>;
  chapterChanges(id: string, chapterId: string): Promise<ChapterChanges>;
  updateSegment(id: string, segmentId: string, edit: SegmentEdit): Promise<SegmentRecord>;
  addCharacter(id: string, character: CharacterInput): Promise<CharacterRecord>;
  updateCharacter(id: string, characterId: string, edit: CharacterEdit): Promise<CharacterRecord>;
  removeCharacter(id: string, characterId: string): Promise<ProjectDetail>;
  /** Merges a character into another (`into` takes its lines). */
  mergeCharacter(id: string, characterId: string, into: string): Promise<ProjectDetail>;
  /** Splits names out of a character: each takes the lines the text attributes to it. */
  splitCharacter(id: string, characterId: string, names: string[]): Promise<ProjectDetail>;
  /** Confirms the suggested speakers (of these segments; of all without `segmentIds`). */
  applySuggestions(id: string, segmentIds?: string[]): Promise<ProjectDetail>;
  undo(id: string): Promise<ProjectDetail>;
  redo(id: string): Promise<ProjectDetail>;
  /** Renders chapters, segments, or (neither) the whole book's included chapters. */
  render(
    id: string,
    target?: { chapter_ids?: string[]; segment_ids?: string[] },
  ): Promise<ProjectRenderRecord>;
  renders(id: string): Promise<ProjectRenderRecord[]>;
  pauseRender(id: string, renderId: string): Promise<ProjectRenderRecord>;
  resumeRender(id: string, renderId: string): Promise<ProjectRenderRecord>;
  cancelRender(id: string, renderId: string): Promise<ProjectRenderRecord>;
  /** Renders one segment now (another voice or speed if given) and answers it. */
  regenerate(id: string, segmentId: string, options?: RegenerateOptions): Promise<SegmentRecord>;
  /** The segment's WAV. */
  segmentAudio(id: string, segmentId: string, signal?: AbortSignal): Promise<Blob>;
  /** The words of the segment's audio, in order. */
  segmentTimings(id: string, segmentId: string, signal?: AbortSignal): Promise<SegmentWord[]>;
  /** Exports the book (changed chapters rendered first); follow it with `exportRecord`. */
  startExport(
    id: string,
    body: { format?: BookFormat; folder_format?: FolderFormat },
  ): Promise<ProjectExportRecord>;
  exportRecord(id: string, exportId: string): Promise<ProjectExportRecord>;
  /** A finished export's file (its `download_url`, read with the session). */
  exportFile(record: Pick<ProjectExportRecord, 'id' | 'project_id'>): Promise<Blob>;
  /** A finished export's book-wide subtitles (SRT or WebVTT). */
  exportSubtitles(record: Pick<ProjectExportRecord, 'id' | 'project_id'>, kind: 'srt' | 'vtt'): Promise<Blob>;
  /** The cover picture, or null when the project has none. */
  cover(id: string): Promise<Blob | null>;
}

const e = encodeURIComponent;

const query = (values: Record<string, string | undefined>) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v !== undefined && v !== '') params.set(k, v);
  const qs = params.toString();
  return qs ? `?${qs}` : '';
};

/** The words of a timings document: a bare array (as written on disk) or the API's envelope. */
export function wordsOf(document: unknown): SegmentWord[] {
  const list = Array.isArray(document)
    ? document
    : document && typeof document === 'object'
      ? ((document as { result?: unknown; items?: unknown; words?: unknown }).result ??
        (document as { items?: unknown }).items ??
        (document as { words?: unknown }).words)
      : undefined;
  const items = Array.isArray(list)
    ? list
    : list && typeof list === 'object' && Array.isArray((list as { words?: unknown }).words)
      ? (list as { words: unknown[] }).words
      : [];
  return items.filter(
    (w): w is SegmentWord =>
      !!w &&
      typeof w === 'object' &&
      typeof (w as SegmentWord).text === 'string' &&
      typeof (w as SegmentWord).startMs === 'number' &&
      typeof (w as SegmentWord).endMs === 'number',
  );
}

export function createProjectsApi(client: ApiClient): ProjectsApi {
  const base = (id: string) => `/api/v1/projects/${e(id)}`;
  const file = (body: Blob, type = 'application/octet-stream') => ({ body, type });
  return {
    list: (cursor) =>
      client.json(
        'GET',
        `/api/v1/projects?limit=${PROJECT_LIMITS.listPageDefault}${cursor ? `&cursor=${e(cursor)}` : ''}`,
      ),
    create: (settings) => client.json('POST', '/api/v1/projects', settings),
    customVoices: (id) => readCustomVoicePages((path) => client.json('GET', path), id),
    importManuscript: (body, fileName, options = {}) =>
      client.json(
        'POST',
        `/api/v1/projects/import${query({ file_name: fileName, ...options })}`,
        undefined,
        file(body),
      ),
    importInto: (id, body, fileName) =>
      client.json('POST', `${base(id)}/import${query({ file_name: fileName })}`, undefined, file(body)),
    get: (id) => client.json('GET', base(id)),
    segments: (id, chapterId, offset, limit) =>
      client.json(
        'GET',
        `${base(id)}/chapters/${e(chapterId)}/segments${query({ offset: String(offset), limit: String(limit) })}`,
      ),
    update: (id, settings) => client.json('PATCH', base(id), settings),
    duplicate: (id) => client.json('POST', `${base(id)}/duplicate`, {}),
    remove: (id) => client.json('DELETE', base(id)),
    archive: async (id) => (await client.fetchBody(`${base(id)}/archive`)).blob(),
    importArchive: (body, fileName) =>
      client.json(
        'POST',
        `/api/v1/projects/import-archive${query({ file_name: fileName })}`,
        undefined,
        file(body, 'application/zip'),
      ),
    updateChapter: (id, chapterId, edit) =>
      client.json('PATCH', `${base(id)}/chapters/${e(chapterId)}`, edit),
    reorderChapters: (id, chapterIds) =>
      client.json('POST', `${base(id)}/chapters/order`, { chapter_ids: chapterIds }),
    mergeChapters: (id, chapterIds) =>
      client.json('POST', `${base(id)}/chapters/merge`, { chapter_ids: chapterIds }),
    splitChapter: (id, chapterId, segmentId, title) =>
      client.json('POST', `${base(id)}/chapters/${e(chapterId)}/split`, { segment_id: segmentId, title }),
    chapterChanges: (id, chapterId) => client.json('GET', `${base(id)}/chapters/${e(chapterId)}/changes`),
    updateSegment: (id, segmentId, edit) =>
      client.json('PATCH', `${base(id)}/segments/${e(segmentId)}`, edit),
    addCharacter: (id, character) => client.json('POST', `${base(id)}/characters`, character),
    updateCharacter: (id, characterId, edit) =>
      client.json('PATCH', `${base(id)}/characters/${e(characterId)}`, edit),
    removeCharacter: (id, characterId) => client.json('DELETE', `${base(id)}/characters/${e(characterId)}`),
    mergeCharacter: (id, characterId, into) =>
      client.json('POST', `${base(id)}/characters/${e(characterId)}/merge`, { into }),
    splitCharacter: (id, characterId, names) =>
      client.json('POST', `${base(id)}/characters/${e(characterId)}/split`, { names }),
    applySuggestions: (id, segmentIds) =>
      client.json('POST', `${base(id)}/suggestions/apply`, segmentIds ? { segment_ids: segmentIds } : {}),
    undo: (id) => client.json('POST', `${base(id)}/undo`, {}),
    redo: (id) => client.json('POST', `${base(id)}/redo`, {}),
    render: (id, target = {}) => client.json('POST', `${base(id)}/renders`, target),
    renders: async (id) =>
      (await client.json<{ items: ProjectRenderRecord[] }>('GET', `${base(id)}/renders`)).items,
    pauseRender: (id, renderId) => client.json('POST', `${base(id)}/renders/${e(renderId)}/pause`, {}),
    resumeRender: (id, renderId) => client.json('POST', `${base(id)}/renders/${e(renderId)}/resume`, {}),
    cancelRender: (id, renderId) => client.json('POST', `${base(id)}/renders/${e(renderId)}/cancel`, {}),
    regenerate: (id, segmentId, options = {}) =>
      client.json('POST', `${base(id)}/segments/${e(segmentId)}/regenerate`, options),
    segmentAudio: async (id, segmentId, signal) =>
      (await client.fetchBody(`${base(id)}/segments/${e(segmentId)}/audio`, signal)).blob(),
    segmentTimings: async (id, segmentId, signal) =>
      wordsOf(await (await client.fetchBody(`${base(id)}/segments/${e(segmentId)}/timings`, signal)).json()),
    startExport: (id, body) => client.json('POST', `${base(id)}/exports`, body),
    exportRecord: (id, exportId) => client.json('GET', `${base(id)}/exports/${e(exportId)}`),
    exportFile: async (record) =>
      (await client.fetchBody(`${base(record.project_id)}/exports/${e(record.id)}/file`)).blob(),
    exportSubtitles: async (record, kind) =>
      (await client.fetchBody(`${base(record.project_id)}/exports/${e(record.id)}/subtitles/${kind}`)).blob(),
    async cover(id) {
      try {
        return await (await client.fetchBody(`${base(id)}/cover`)).blob();
      } catch {
        return null;
      }
    },
  };
}
