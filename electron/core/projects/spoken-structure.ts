/**
 * A book project's spoken structure (issue 39): each chapter's heading read aloud at its start,
 * and the opening and closing credits, their own first and last chapters of an export. On by
 * default for the ACX preset (ACX asks for both), off for the others unless the project says so.
 * The words are made in the book's language (Vietnamese, else English) from the project unless a
 * person edited them: the opening credits name the title, the author and the narrator; the
 * closing ones say the book ended and give the copyright line.
 */

import type { ProjectSettings } from '../../shared/projects';
import { cleanText } from '../../shared/text';
import { spokenHeadingOf } from '../engine';
import type { ChapterRow, ProjectFields, ProjectRow } from '../store';

type Words = 'vi' | 'en';

const wordsOf = (language: string): Words => (language.toLowerCase().split(/[-_]/)[0] === 'vi' ? 'vi' : 'en');

/** The credits chapters' names (their chapter marks and file names), in the book's language. */
const CREDIT_TITLES: Record<Words, { opening: string; closing: string }> = {
  en: { opening: 'Opening credits', closing: 'Closing credits' },
  vi: { opening: 'Phần mở đầu', closing: 'Phần kết' },
};

/** The spoken-structure settings a project can be given (created, imported or changed). */
export type SpokenStructureSettings = Pick<
  ProjectSettings,
  'speak_headings' | 'credits' | 'narrator_name' | 'copyright' | 'opening_credits' | 'closing_credits'
>;

/**
 * The project's columns for the spoken-structure settings given (those not given are left out):
 * null gives a choice back to the preset, or the words back to the project; empty words are null.
 */
export function spokenStructureFields(settings: SpokenStructureSettings): ProjectFields {
  const flag = (value: boolean | null) => (value === null ? null : value ? 1 : 0);
  const words = (value: string | null) => (value ? cleanText(value).trim() || null : null);
  const fields: ProjectFields = {};
  if (settings.speak_headings !== undefined) fields.speak_headings = flag(settings.speak_headings);
  if (settings.credits !== undefined) fields.credits = flag(settings.credits);
  if (settings.narrator_name !== undefined) fields.narrator_name = words(settings.narrator_name);
  if (settings.copyright !== undefined) fields.copyright = words(settings.copyright);
  if (settings.opening_credits !== undefined) fields.opening_credits = words(settings.opening_credits);
  if (settings.closing_credits !== undefined) fields.closing_credits = words(settings.closing_credits);
  return fields;
}

/** Whether the project's chapters start with their heading read aloud. */
export function speaksHeadings(project: Pick<ProjectRow, 'speak_headings' | 'preset'>): boolean {
  return (project.speak_headings ?? null) === null ? project.preset === 'acx' : project.speak_headings === 1;
}

/** Whether the project's exports have opening and closing credits. */
export function hasCredits(project: Pick<ProjectRow, 'credits' | 'preset'>): boolean {
  return (project.credits ?? null) === null ? project.preset === 'acx' : project.credits === 1;
}

/** The heading read at a chapter's start: as edited, else made from its title. */
export function spokenHeadingOfChapter(
  chapter: Pick<ChapterRow, 'title' | 'spoken_heading'>,
  language: string,
): string {
  return chapter.spoken_heading || spokenHeadingOf(chapter.title, language);
}

/** The names of the credits chapters in the book's language. */
export function creditTitlesOf(language: string): { opening: string; closing: string } {
  return CREDIT_TITLES[wordsOf(language)];
}

/** A sentence ends with a full stop (or its own ending punctuation). */
const sentence = (text: string) => (/[.!?…]$/u.test(text) ? text : `${text}.`);

/** The opening credits as made from the project: title, author, narrator. */
export function madeOpeningCredits(
  project: Pick<ProjectRow, 'title' | 'author' | 'narrator_name' | 'language'>,
): string {
  const vi = wordsOf(project.language) === 'vi';
  const parts = [sentence(project.title.trim())];
  const author = project.author?.trim();
  const narrator = project.narrator_name?.trim();
  if (author) parts.push(sentence(vi ? `Tác giả: ${author}` : `Written by ${author}`));
  if (narrator) parts.push(sentence(vi ? `Người đọc: ${narrator}` : `Narrated by ${narrator}`));
  return parts.join(' ');
}

/** The closing credits as made from the project: "The end." and the copyright line. */
export function madeClosingCredits(project: Pick<ProjectRow, 'copyright' | 'language'>): string {
  const vi = wordsOf(project.language) === 'vi';
  const copyright = project.copyright?.trim();
  return [vi ? 'Hết.' : 'The end.', ...(copyright ? [sentence(copyright)] : [])].join(' ');
}

/** The opening credits' words: as edited, else made from the project. */
export function openingCreditsOf(
  project: Pick<ProjectRow, 'title' | 'author' | 'narrator_name' | 'language' | 'opening_credits'>,
): string {
  return project.opening_credits || madeOpeningCredits(project);
}

/** The closing credits' words: as edited, else made from the project. */
export function closingCreditsOf(
  project: Pick<ProjectRow, 'copyright' | 'language' | 'closing_credits'>,
): string {
  return project.closing_credits || madeClosingCredits(project);
}
