/**
 * A manuscript as every importer returns it (core/manuscripts: DOCX, EPUB, ODT, HTML, Markdown,
 * plain text, PDF, RTF, FB2), whatever the file it came from: metadata, a cover, and chapters of paragraphs
 * with their emphasis. A book project is made from one (its chapters, then its segments), and
 * the quick studio text shows one as text with `#` headings. Plain data: it crosses a process
 * boundary (every reader runs in a child process) and the API.
 */

import { detectTextLanguage, type TextLanguage } from './text-language';

/** The formats a manuscript is read from, by what the file is (not only its name). */
export const MANUSCRIPT_FORMATS = [
  'docx',
  'epub',
  'odt',
  'html',
  'markdown',
  'text',
  'pdf',
  'rtf',
  'fb2',
] as const;
export type ManuscriptFormat = (typeof MANUSCRIPT_FORMATS)[number];

/**
 * Legacy Vietnamese encodings an import converts to Unicode (core/manuscripts/legacy-vietnamese.ts):
 * TCVN3 (ABC, `.Vn…` fonts), VNI (`VNI-…` fonts), VIQR (ASCII with marks).
 */
export const LEGACY_VIETNAMESE_ENCODINGS = ['tcvn3', 'vni', 'viqr'] as const;
export type LegacyVietnameseEncoding = (typeof LEGACY_VIETNAMESE_ENCODINGS)[number];
/** Their names, as notes give them (proper names: the same in every language). */
export const LEGACY_VIETNAMESE_NAMES: Readonly<Record<LegacyVietnameseEncoding, string>> = {
  tcvn3: 'TCVN3 (ABC)',
  vni: 'VNI',
  viqr: 'VIQR',
};

/**
 * The character encodings a text file (plain text, Markdown) is read in, as detected from its
 * bytes (core/manuscripts/text-decoding.ts): Unicode, the Western and Vietnamese Windows code
 * pages, ISO-8859-1, and the legacy Vietnamese font encodings (then also `legacyEncoding`).
 */
export const TEXT_ENCODINGS = [
  'utf-8',
  'utf-16le',
  'utf-16be',
  'windows-1252',
  'iso-8859-1',
  'windows-1258',
  'tcvn3',
  'vni',
] as const;
export type TextEncoding = (typeof TEXT_ENCODINGS)[number];
/** Their names, as warnings and the studio give them (proper names: the same in every language). */
export const TEXT_ENCODING_NAMES: Readonly<Record<TextEncoding, string>> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16 LE',
  'utf-16be': 'UTF-16 BE',
  'windows-1252': 'Windows-1252',
  'iso-8859-1': 'ISO-8859-1',
  'windows-1258': 'Windows-1258',
  tcvn3: 'TCVN3 (ABC)',
  vni: 'VNI',
};

/** File name extensions of each format (lower case, without the dot). */
export const MANUSCRIPT_EXTENSIONS: Readonly<Record<ManuscriptFormat, readonly string[]>> = {
  docx: ['docx'],
  epub: ['epub'],
  odt: ['odt'],
  html: ['html', 'htm', 'xhtml'],
  markdown: ['md', 'markdown'],
  text: ['txt', 'text'],
  pdf: ['pdf'],
  rtf: ['rtf'],
  /** `.fb2.zip` too (detectManuscriptFormat looks at the name before `.zip`). */
  fb2: ['fb2'],
};

/** Limits every importer keeps; a file over one is refused with MANUSCRIPT_TOO_LARGE naming it. */
export const MANUSCRIPT_LIMITS = {
  /** Bytes of the file itself. */
  fileBytes: 100 * 1024 * 1024,
  /** Entries of a zip container (DOCX, EPUB, ODT). */
  zipEntries: 10_000,
  /** Bytes one zip entry may inflate to. */
  entryBytes: 64 * 1024 * 1024,
  /** Bytes all the entries read may inflate to together. */
  totalInflatedBytes: 256 * 1024 * 1024,
  /** Characters of text a manuscript may hold (about 100 hours of speech). */
  characters: 5_000_000,
  /**
   * Paragraphs a manuscript may hold: a book of the longest text in short lines of dialogue has
   * about 60,000; a million tiny paragraphs is an attack on the project's size, not a book.
   */
  paragraphs: 200_000,
  /** Bytes of a cover picture (larger covers are left out with a warning). */
  coverBytes: 2 * 1024 * 1024,
  /**
   * Elements nested in one another in an XML part (DOCX, ODT, EPUB) or an HTML document, at most:
   * libxml2's default (256); real books nest a few dozen deep. Checked as each element opens.
   */
  nestingDepth: 256,
  /**
   * Elements of one XML part (DOCX, ODT, EPUB package files) at most: a book of 5,000,000
   * characters written with a run per word has about 6 elements a word, 6 million in all.
   */
  xmlElements: 8_000_000,
  /**
   * Elements of one HTML document (an HTML file, an EPUB content document) at most: each costs
   * about 450 bytes of tree; a 5,000,000-character book in HTML has about 60,000.
   */
  htmlElements: 500_000,
  /** Every read runs in a child process, stopped after this long, ms. */
  readerTimeoutMs: 60_000,
  /** … or when its resident memory goes over this, bytes (its V8 heap is capped 128 MiB below). */
  readerMaxRssBytes: 512 * 1024 * 1024,
  /** Reader child processes at once (manuscripts and project archives), at most: 1 GiB in the worst case for two manuscripts, 2 GiB for two archives (ARCHIVE_LIMITS). */
  readers: 2,
  /** Reads waiting for a reader, at most; one more is refused with TOO_MANY_REQUESTS (429). */
  readerQueue: 8,
  /**
   * Reads of one key waiting for a reader, at most (one more is refused, for that key only, with
   * TOO_MANY_REQUESTS); a freed reader goes to the key with the fewest reads running.
   */
  readerQueuePerKey: 3,
} as const;

/** A run of emphasised text inside a paragraph: code-point offsets into its `text`, end exclusive. */
export interface EmphasisSpan {
  start: number;
  end: number;
  kind: 'em' | 'strong';
}

export interface ManuscriptParagraph {
  /** The paragraph's text, plain (no markup), NFC; never empty. */
  text: string;
  /** Emphasised runs (italic → em, bold → strong), in order, not overlapping. */
  emphasis: EmphasisSpan[];
}

/**
 * `body`: the book itself; `front`/`back`: matter a listener usually does not want read aloud
 * (copyright page, table of contents, dedication, index, about the author): imported, marked, and
 * left out of a project's rendering until the writer includes it.
 */
export const CHAPTER_KINDS = ['body', 'front', 'back'] as const;
export type ChapterKind = (typeof CHAPTER_KINDS)[number];

export interface ManuscriptChapter {
  title: string;
  kind: ChapterKind;
  paragraphs: ManuscriptParagraph[];
}

export interface ManuscriptCover {
  /** `image/jpeg` or `image/png`. */
  type: 'image/jpeg' | 'image/png';
  /** The picture, base64 (no `data:` prefix). */
  base64: string;
}

export interface Manuscript {
  /** The file's name as given (no directories). */
  fileName: string;
  format: ManuscriptFormat;
  /** From the file's metadata (or its first heading); null when it has none. */
  title: string | null;
  author: string | null;
  /** BCP 47 language of the metadata (`vi`, `en-US`), if it says. */
  language: string | null;
  cover: ManuscriptCover | null;
  /** In reading order; at least one, each with at least one paragraph. */
  chapters: ManuscriptChapter[];
  /** Things left out or guessed, in words (footnotes dropped, a cover too large, …). */
  warnings: string[];
  /** The legacy Vietnamese encoding the text was converted from (also in `warnings`), if any. */
  legacyEncoding?: LegacyVietnameseEncoding;
  /** The character encoding a text file (plain text, Markdown) was read in, as detected; absent for other formats. */
  textEncoding?: TextEncoding;
  /**
   * The language of the text, detected once by the reader from windows across the whole book
   * (textLanguageOf): names the reader gives and an import's language follow it.
   */
  textLanguage: TextLanguage;
}

/**
 * The language of a manuscript's text (its chapters' paragraphs, windows spread over the whole
 * book: electron/shared/text-language.ts). Readers call it once; everything else reads
 * `Manuscript.textLanguage`.
 */
export function textLanguageOf(chapters: readonly Pick<ManuscriptChapter, 'paragraphs'>[]): TextLanguage {
  return detectTextLanguage(chapters.map((c) => c.paragraphs.map((p) => p.text).join('\n')).join('\n'))
    .language;
}

/**
 * What an import does with footnotes and endnotes: `omit` leaves them out (with a warning naming
 * this option), `inline` reads each right after the paragraph citing it ("Note: …", "Chú thích:
 * …" in the book's language), `appendix` gathers them, numbered, in a last chapter "Notes"
 * ("Chú thích").
 */
export const NOTES_MODES = ['omit', 'inline', 'appendix'] as const;
export type NotesMode = (typeof NOTES_MODES)[number];

/** What an importer may be asked to keep besides the body text. */
export interface ManuscriptOptions {
  /** Footnotes and endnotes: NOTES_MODES. Default `omit`. */
  notes?: NotesMode;
  /** Keep comments (DOCX, ODT). Default false. */
  includeComments?: boolean;
}

/** The manuscript as text with `#` headings: what the quick studio and the export page read. */
export function manuscriptText(manuscript: Pick<Manuscript, 'chapters'>): string {
  return manuscript.chapters
    .map((chapter) => [`# ${chapter.title}`, ...chapter.paragraphs.map((p) => p.text)].join('\n\n'))
    .join('\n\n');
}
