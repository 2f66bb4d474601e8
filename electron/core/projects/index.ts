/**
 * Book projects (`core/projects`), their one entry: the project service (made from manuscripts,
 * edited with undo), the segment renders under a lease, the book export, and project archives.
 */

export { ARCHIVE_LIMITS, readProjectArchive, writeProjectArchive } from './project-archive';
export { createProjectExports, type ProjectExports } from './project-export';
export { createProjectRenders, type ProjectRenders } from './project-renders';
export { segmentRecord } from './project-records';
export { createProjectService, type ProjectService } from './project-service';
export { audioPathOf, timingsPathOf } from './segment-render';
export type { SpokenStructureSettings } from './spoken-structure';
