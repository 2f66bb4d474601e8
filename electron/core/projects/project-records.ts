/**
 * A project's rows as the API's records: the list's summaries, the detail (its cast and chapters
 * with their figures, counted by the database), segments and characters.
 */

import {
  DEFAULT_NARRATOR_NAME,
  type CharacterRecord,
  type ChapterRecord,
  type ProjectDetail,
  type ProjectRecord,
  type SegmentRecord,
} from '../../shared/projects';
import { countCharacters } from '../../shared/text';
import { storedDetails } from '../platform/error-details';
import type {
  CastFiguresRow,
  ChapterFiguresRow,
  ChapterRow,
  CharacterRow,
  ProjectRow,
  ProjectSummaryRow,
  Repos,
  SegmentRow,
} from '../store';
import { parseJson } from './project-rows';
import {
  closingCreditsOf,
  hasCredits,
  openingCreditsOf,
  speaksHeadings,
  spokenHeadingOfChapter,
} from './spoken-structure';

/**
 * The project's detail: its cast and chapters with their figures, counted by the database, so
 * neither the answer nor the work grows with the segments (a chapter's text is read only to
 * tell whether it changed since an export that contained it, of the same length).
 */
export async function detailOf(repos: Repos, project: ProjectRow): Promise<ProjectDetail> {
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

/** The text of a chapter: its segments' texts with blank lines between. */
export function chapterText(texts: readonly string[]): string {
  return texts.join('\n\n');
}

export function summaryRecord(row: ProjectSummaryRow): ProjectRecord {
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
