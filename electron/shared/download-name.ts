/**
 * The names of downloaded files, after what they hold: the first words of the text (or the
 * project's title and the chapter's), the voice, the format, e.g.
 * `the-lighthouse-keeper-climbed_en_female_emily_us.mp3`. One function for the studio's
 * download links and the server's Content-Disposition, so both suggest the same name.
 *
 * Letters of every script are kept as they are (NFC, lower case): "Người gác đèn" gives
 * `người-gác-đèn`, which every current file system and browser stores as written, and reads
 * better than a transliteration. Where only ASCII fits (the `filename=` of a Content-Disposition
 * header, beside the UTF-8 `filename*=`), `asciiFileName` transliterates: Vietnamese and other
 * Latin letters lose their marks (đ → d), other scripts fall back to the words that are left.
 */

import { isSsml, spokenText } from './ssml';

/** The name when the text has no word to take (only digits and letters count as words). */
export const FALLBACK_NAME = 'narration';

/** How many words of the text, and at most how many characters, make the name's first part. */
const TEXT_WORDS = 4;
const TEXT_CHARS = 40;
/** A title (project, chapter) keeps more of its words. */
const TITLE_WORDS = 8;
const TITLE_CHARS = 48;
/** The whole name before its extension, in code points (file systems allow 255 bytes). */
const NAME_CHARS = 120;

/** What a download holds: a text's first words, or a title and a chapter's title; the voice; the extension. */
export interface DownloadParts {
  /** The text spoken (plain or SSML: the spoken words are used, not the markup). */
  text?: string | null | undefined;
  /** A project's or book's title: used before the text. */
  title?: string | null | undefined;
  /** A chapter's title, after the title. */
  chapter?: string | null | undefined;
  /** The voice code. */
  voice?: string | null | undefined;
  /** The file's extension without the leading dot: mp3, wav, srt, m4b, zip, loudness.json… */
  extension: string;
}

/** Words of `text`: runs of letters, marks and digits; an apostrophe inside a word joins it ("keeper's" → "keepers"). */
function wordsOf(text: string): string[] {
  return (
    text
      .normalize('NFC')
      .toLowerCase()
      .replace(/(?<=[\p{L}\p{N}])['’](?=[\p{L}\p{N}])/gu, '')
      .match(/[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu) ?? []
  );
}

/** Cuts `text` to `max` code points (never inside a surrogate pair). */
function cut(text: string, max: number): string {
  const points = [...text];
  return points.length <= max ? text : points.slice(0, max).join('');
}

/**
 * The first `maxWords` words of `text`, lower case, joined by "-", at most `maxChars` code
 * points (whole words, unless the first word alone is longer); '' when it has no word.
 */
export function slugOf(text: string, maxWords = TEXT_WORDS, maxChars = TEXT_CHARS): string {
  let slug = '';
  for (const word of wordsOf(text).slice(0, maxWords)) {
    const next = slug === '' ? word : `${slug}-${word}`;
    if ([...next].length > maxChars) return slug === '' ? cut(word, maxChars) : slug;
    slug = next;
  }
  return slug;
}

/** The words of plain text or of an SSML document (markup that cannot be parsed: its tags dropped). */
export function spokenWords(text: string): string {
  if (!isSsml(text)) return text;
  try {
    return spokenText(text);
  } catch {
    return text.replace(/<[^>]*>/g, ' ');
  }
}

/** A voice code as a name part: letters, digits, "_" and "-" only. */
function voicePart(voice: string): string {
  return cut(voice.normalize('NFC').replace(/[^\p{L}\p{N}_-]+/gu, ''), 60);
}

/**
 * The file name for a download: `<first words>_<voice>.<ext>`, or
 * `<title>_<chapter>_<voice>.<ext>` when there is a title; parts with no word are left out, and
 * with none at all the name is `narration`. Safe on every file system: no path separators,
 * reserved characters, leading dots or control characters.
 */
export function downloadName(parts: DownloadParts): string {
  const title = parts.title ? slugOf(parts.title, TITLE_WORDS, TITLE_CHARS) : '';
  const chapter = parts.chapter ? slugOf(parts.chapter, TITLE_WORDS, TITLE_CHARS) : '';
  const text = title === '' && parts.text ? slugOf(spokenWords(parts.text)) : '';
  const voice = parts.voice ? voicePart(parts.voice) : '';
  const words = [title, chapter, text].filter((p) => p !== '');
  const name = cut(
    [...(words.length > 0 ? words : [FALLBACK_NAME]), voice].filter((p) => p !== '').join('_'),
    NAME_CHARS,
  );
  const extension = parts.extension
    .toLowerCase()
    .replace(/[^a-z0-9.]/g, '')
    .replace(/^\.+|\.+$/g, '')
    .replace(/\.{2,}/g, '.');
  return extension === '' ? name : `${name}.${extension}`;
}

/**
 * `name` in ASCII: Latin letters without their marks (Vietnamese đ → d, ơ → o), other
 * characters dropped, dashes tidied; `narration` for a stem left with no letter.
 */
export function asciiFileName(name: string): string {
  // downloadName's stems hold no dot: the extension starts at the first ("book.loudness.json").
  const dot = name.indexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const extension = dot > 0 ? name.slice(dot) : '';
  const ascii = stem
    .replace(/[đĐ]/g, (c) => (c === 'đ' ? 'd' : 'D'))
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9_-]+/g, '')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .replace(/_{2,}/g, '_');
  return `${/[A-Za-z0-9]/.test(ascii) ? ascii : FALLBACK_NAME}${extension.replace(/[^.A-Za-z0-9]/g, '')}`;
}

/**
 * A Content-Disposition header value naming `name`: the ASCII form as `filename`, and the name
 * itself, UTF-8 and percent-encoded, as `filename*` (RFC 6266), which browsers prefer.
 */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${asciiFileName(name)}"; filename*=UTF-8''${encoded}`;
}
