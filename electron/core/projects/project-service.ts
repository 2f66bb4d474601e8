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

import { join } from 'node:path';
import type { Store } from '../store';
import { createCastEdits } from './cast-edits';
import { createChapterEdits } from './chapter-edits';
import { createProjectCatalogue } from './project-catalogue';
import { createProjectCreation } from './project-creation';
import { createProjectHistory, type ProjectContext } from './project-history';
import { owned } from './project-lookups';
import { cloneRows, newId, type ClonedProject } from './project-rows';
import { createProjectSettings } from './project-settings';
import { checkProjectSize } from './project-size';
import { createSegmentEdits } from './segment-edits';

export { checkProjectSize, cloneRows, newId, type ClonedProject };

export interface ProjectServiceOptions {
  store: Store;
  /** `<dataDir>/files`: a project's segment audio lives in `<filesDir>/projects/<id>/`. */
  filesDir: string;
  now?: () => Date;
}

export type ProjectService = ReturnType<typeof createProjectService>;

/** The service, composed of its parts (each a file of this folder), sharing one store, clock and history. */
export function createProjectService({ store, filesDir, now = () => new Date() }: ProjectServiceOptions) {
  const stamp = () => now().toISOString();
  const history = createProjectHistory(store, stamp);
  const context: ProjectContext = {
    store,
    stamp,
    audioDir: (projectId: string) => join(filesDir, 'projects', projectId),
    ...history,
  };
  return {
    audioDir: context.audioDir,
    /** Where uploads and archives wait while they are read or sent. */
    tempDir: join(filesDir, 'project-uploads'),
    /** The project row if `keyId` owns it; PROJECT_NOT_FOUND otherwise. */
    owned: (keyId: string, projectId: string) => owned(store, keyId, projectId),
    ...createProjectCatalogue(context),
    ...createProjectCreation(context),
    ...createProjectSettings(context),
    ...createChapterEdits(context),
    ...createSegmentEdits(context),
    ...createCastEdits(context),
    undo: (keyId: string, projectId: string) => history.stepHistory(keyId, projectId, 'undo'),
    redo: (keyId: string, projectId: string) => history.stepHistory(keyId, projectId, 'redo'),
  };
}
