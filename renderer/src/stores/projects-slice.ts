/**
 * Book projects: the list, the open project (its chapters and cast), the segments of the chapters
 * opened (read a window at a time: the first SEGMENT_PAGE when a chapter opens, more as the list
 * scrolls or the player reaches their end), and its renders. Every edit goes to the server and
 * the answer replaces what is shown (the server keeps undo and the segment states); the open
 * chapter's segments are then read again.
 *
 * The slice is composed of its concerns, each in its own file: the shared open-project session
 * (project-session.ts) and its event/render following (project-render-watch.ts), the list's
 * actions (projects-list-actions.ts), opening (project-open-actions.ts), edits
 * (project-edit-actions.ts) and renders (project-render-actions.ts); the segment windows' pure
 * updates are in project-segment-windows.ts.
 */

import type {
  LanguageChoice,
  ProjectDetail,
  ProjectRecord,
  ProjectRenderRecord,
  ProjectSettings,
  SegmentRecord,
} from '../../../electron/shared/projects';
import type { CustomVoice } from '../../../electron/shared/custom-voices';
import type {
  ChapterEdit,
  CharacterEdit,
  CharacterInput,
  ImportOptions,
  RegenerateOptions,
  SegmentEdit,
} from '../lib/projects-api';
import { createProjectEditActions } from './project-edit-actions';
import { createProjectOpenActions } from './project-open-actions';
import { createProjectRenderActions } from './project-render-actions';
import type { SegmentWindows } from './project-segment-windows';
import { createProjectSession } from './project-session';
import { createProjectsListActions } from './projects-list-actions';
import type { SliceCreator } from './types';

/** What an import of a manuscript answered about how it was read (shown once, in the project it made). */
export interface ImportSummary {
  projectId: string;
  fileName: string;
  languageChoice: LanguageChoice | null;
  legacyEncoding: ProjectDetail['legacy_encoding'] | null;
  /** The character encoding a text file was read in (detected), when the import says. */
  textEncoding: ProjectDetail['text_encoding'] | null;
}

export interface ProjectsSlice {
  /** The projects read so far, newest first (a page at a time: loadMoreProjects reads the next). */
  projects: ProjectRecord[];
  projectsLoaded: boolean;
  /** The next page's cursor (null: every project is read). */
  projectsNext: string | null;
  /** How many projects the key has (the server's count when the list was last read). */
  projectsTotal: number;
  /** The last failed action of the Projects list, in the API's words. */
  projectsError: string | null;
  /** The open project, or null (the list shows). */
  project: ProjectDetail | null;
  /**
   * The id of the project being shown or opened (its address, `#/projects/<id>`), set at once
   * by openProject; null for the list. With `project` still null, it is loading or failed.
   */
  openProjectId: string | null;
  /** The last failed action in the open project. */
  projectError: string | null;
  /** The chapter whose segments show. */
  openChapterId: string | null;
  /** The segments read so far of the open project's chapters, from each chapter's first on. */
  chapterSegments: SegmentWindows;
  /** The project's newest render (running or finished), or null. */
  projectRender: ProjectRenderRecord | null;
  /** The custom voices the open project may cast (its key's and the studio's), for its voice pickers. */
  projectVoices: CustomVoice[];
  /** The last manuscript import's summary (its language and conversion) until dismissed or the project is closed. */
  importSummary: ImportSummary | null;
  dismissImportSummary(): void;
  /** Reads the first page of the projects. */
  loadProjects(): Promise<void>;
  /** Reads the next page of the projects after those read. */
  loadMoreProjects(): Promise<void>;
  /** Reads again which custom voices the open project may cast. */
  loadProjectVoices(): Promise<void>;
  createProject(title: string): Promise<void>;
  /** A manuscript file as a new project; opens it. False when the server refused it (projectsError says why). */
  importManuscript(file: Blob, fileName: string, options?: ImportOptions): Promise<boolean>;
  importArchive(file: Blob, fileName: string): Promise<boolean>;
  renameProject(id: string, title: string): Promise<void>;
  duplicateProject(id: string): Promise<void>;
  deleteProject(id: string): Promise<void>;
  openProject(id: string): Promise<void>;
  closeProject(): void;
  /** Re-reads the open project. */
  refreshProject(): Promise<void>;
  updateProject(settings: ProjectSettings): Promise<void>;
  /** Appends a manuscript's chapters to the open project. */
  importChapters(file: Blob, fileName: string): Promise<boolean>;
  undo(): Promise<void>;
  redo(): Promise<void>;
  openChapter(chapterId: string): void;
  /**
   * Reads a chapter's segments: the first page, or (`more`) the next one after those read.
   * Answers the chapter's segments read so far, or null when there were no more (or it failed).
   */
  loadSegments(chapterId: string, more?: boolean): Promise<readonly SegmentRecord[] | null>;
  updateChapter(chapterId: string, edit: ChapterEdit): Promise<void>;
  /** Moves a chapter to `index` (0-based) in the book's order. */
  moveChapter(chapterId: string, index: number): Promise<void>;
  mergeWithNext(chapterId: string): Promise<void>;
  splitChapter(chapterId: string, segmentId: string, title: string): Promise<void>;
  updateSegment(segmentId: string, edit: SegmentEdit): Promise<boolean>;
  addCharacter(character: CharacterInput): Promise<void>;
  updateCharacter(characterId: string, edit: CharacterEdit): Promise<void>;
  removeCharacter(characterId: string): Promise<void>;
  /** Merges a character into another (undoable). */
  mergeCharacter(characterId: string, into: string): Promise<void>;
  /** Splits names out of a character (undoable). */
  splitCharacter(characterId: string, names: string[]): Promise<void>;
  applySuggestions(segmentIds?: string[]): Promise<void>;
  startRender(target?: { chapter_ids?: string[]; segment_ids?: string[] }): Promise<void>;
  pauseRender(): Promise<void>;
  resumeRender(): Promise<void>;
  cancelRender(): Promise<void>;
  /** Renders one segment again now (another voice or speed if given). */
  regenerateSegment(segmentId: string, options?: RegenerateOptions): Promise<boolean>;
}

export const createProjectsSlice: SliceCreator<ProjectsSlice> = (deps) => (set, get) => {
  const session = createProjectSession(deps, set, get);
  return {
    projects: [],
    projectsLoaded: false,
    projectsNext: null,
    projectsTotal: 0,
    projectsError: null,
    projectVoices: [],
    importSummary: null,
    project: null,
    openProjectId: null,
    projectError: null,
    openChapterId: null,
    chapterSegments: {},
    projectRender: null,
    ...createProjectsListActions(session),
    ...createProjectOpenActions(session),
    ...createProjectEditActions(session),
    ...createProjectRenderActions(session),
  };
};
