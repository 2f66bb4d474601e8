/**
 * The names a manuscript reader gives by itself, in the book's language, and the book's title
 * found in its text. One place for: the name of text before the first heading ("Opening",
 * "Mở đầu") and of Project Gutenberg's header and licence (gutenberg.ts), the language those
 * names are written in, and whether a block of the text is the book's title (a title page's or a
 * chapter page's "Số đỏ") rather than text or a chapter.
 */

import type { TextLanguage } from '../../shared/text-language';

/**
 * The chapters a reader names by itself, by language (another language gets English): the text
 * before the first heading, and Project Gutenberg's header (before "*** START OF THE PROJECT
 * GUTENBERG EBOOK …") and licence (from "*** END OF …").
 */
const READER_NAMES = {
  opening: { en: 'Opening', vi: 'Mở đầu' },
  gutenbergHeader: { en: 'Project Gutenberg header', vi: 'Phần đầu của Project Gutenberg' },
  gutenbergLicence: { en: 'Project Gutenberg licence', vi: 'Giấy phép Project Gutenberg' },
} as const satisfies Record<string, { en: string; vi: string }>;

/** A chapter a reader names by itself (READER_NAMES). */
export type ReaderChapterName = keyof typeof READER_NAMES;

/** What introduces a note read after its paragraph, by language; another language gets English. */
const NOTE_LABELS: Record<string, string> = { en: 'Note:', vi: 'Chú thích:' };

/** The name of the chapter gathering the notes, by language; another language gets English. */
const NOTES_TITLES: Record<string, string> = { en: 'Notes', vi: 'Chú thích' };

/**
 * The language the reader's own names are written in: the language detected in the text
 * (`Manuscript.textLanguage`, the one the project import uses; books made by reading sites often
 * say `en` in their metadata), else the metadata's language (`en-US` → `en`), else null. This is
 * the only place the naming language is decided.
 */
export function namingLanguage(metadataLanguage: string | null, detected: TextLanguage): string | null {
  if (detected !== 'unknown') return detected;
  return metadataLanguage?.trim().toLowerCase().split(/[-_]/)[0] || null;
}

/** The name of a chapter the reader names, in `language` (English when there is no name in it). */
export function readerChapterTitle(name: ReaderChapterName, language: string | null): string {
  const names = READER_NAMES[name];
  return language === 'vi' ? names.vi : names.en;
}

/** What introduces a note read after its paragraph in `language` ("Note:", "Chú thích:"). */
export function noteLabel(language: string | null): string {
  return NOTE_LABELS[language ?? 'en'] ?? NOTE_LABELS.en!;
}

/** The name of the chapter gathering the notes in `language` ("Notes", "Chú thích"). */
export function notesTitle(language: string | null): string {
  return NOTES_TITLES[language ?? 'en'] ?? NOTES_TITLES.en!;
}

/** A title as compared: NFC, lower case, spaces collapsed, no punctuation or quotes around it. */
function titleKey(text: string): string {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, '');
}

/** Whether two titles are the same title ("Số Đỏ" and "SỐ ĐỎ", "«Số đỏ»" and "Số đỏ."). */
export function sameTitle(a: string, b: string): boolean {
  const key = titleKey(a);
  return key !== '' && key === titleKey(b);
}

/**
 * The book's title while its text is read: from the metadata, else from the first block styled
 * as a title (class="title", epub:type="title"). A block that is the title is not text and
 * starts no chapter.
 */
export class BookTitle {
  constructor(public value: string | null) {}

  /** True when the block `text` is the book's title (it takes the title when there is none yet and the block is styled as one). */
  claims(text: string, styledAsTitle: boolean): boolean {
    if (this.value === null) {
      if (!styledAsTitle || titleKey(text) === '') return false;
      this.value = text;
      return true;
    }
    return sameTitle(text, this.value);
  }
}
