/**
 * A project's rows looked up for a key: another key's project, or a chapter, segment or character
 * of another project, is PROJECT_NOT_FOUND; what a project may still take, MANUSCRIPT_TOO_LARGE.
 */

import { AppError } from '../../shared/errors';
import type { ChapterRow, CharacterRow, ProjectRow, Repos, SegmentRow } from '../store';
import { checkProjectSize } from './project-size';

export async function owned(repos: Repos, keyId: string, projectId: string): Promise<ProjectRow> {
  const row = /^[0-9a-f]{32}$/.test(projectId) ? await repos.projects.getProject(projectId) : undefined;
  if (!row || row.key_id !== keyId)
    throw new AppError('PROJECT_NOT_FOUND', `No project "${projectId}" for this API key.`, {
      part: 'project',
      id: projectId,
    });
  return row;
}

/** What a project holds now and after adding `segments` of `characters`: over a limit, MANUSCRIPT_TOO_LARGE. */
export async function checkRoom(
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

export async function requireChapter(tx: Repos, projectId: string, chapterId: string): Promise<ChapterRow[]> {
  const chapters = await tx.projects.chapters(projectId);
  if (!chapters.some((c) => c.id === chapterId))
    throw new AppError('PROJECT_NOT_FOUND', `No chapter "${chapterId}" in this project.`, {
      part: 'chapter',
      id: chapterId,
    });
  return chapters;
}

export async function requireSegment(tx: Repos, projectId: string, segmentId: string): Promise<SegmentRow> {
  const segment = await tx.projects.getSegment(segmentId);
  if (!segment || segment.project_id !== projectId)
    throw new AppError('PROJECT_NOT_FOUND', `No segment "${segmentId}" in this project.`, {
      part: 'segment',
      id: segmentId,
    });
  return segment;
}

export async function requireCharacter(
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
