/**
 * Legacy Vietnamese encodings recognised on import and converted to Unicode (tables and their
 * sources in legacy-vietnamese-tables.ts): TCVN3 (ABC, `.Vn…` fonts), VNI (`VNI-…` fonts) and
 * VIQR (ASCII with marks). A DOCX says which by the font of its runs (docx.ts); a text file's
 * bytes are tried only when they are not UTF-8 (text-decoding.ts), and kept only when nearly
 * every word they turn into is a Vietnamese syllable: Windows-1252 French or English is
 * read as it is (text-decoding.ts), Unicode Vietnamese is never touched. VIQR, plain ASCII, is taken only when the text
 * clearly is VIQR (many `a(`, `e^`, `o+`, `dd` words), never for ordinary punctuation.
 */

import { LEGACY_VIETNAMESE_NAMES, type LegacyVietnameseEncoding } from '../../shared/manuscript';
import type { ManuscriptBuilder } from './builder';
import {
  TCVN3_TABLE,
  VIQR_SHAPE_BASES,
  VIQR_SHAPES,
  VIQR_TONES,
  VNI_TABLE,
} from './legacy-vietnamese-tables';

export type { LegacyVietnameseEncoding };

/**
 * Notes a conversion on the manuscript: a warning in words (the read's summary) and its
 * `legacyEncoding` (the first one, for the studio's own sentence).
 */
export function noteLegacyConversion(
  builder: ManuscriptBuilder,
  encoding: LegacyVietnameseEncoding,
  where: string,
): void {
  builder.legacyEncoding ??= encoding;
  builder.warnings.push(
    `Converted from ${LEGACY_VIETNAMESE_NAMES[encoding]} to Unicode (${where} was in that legacy Vietnamese encoding).`,
  );
}

/**
 * At least this many words must come out of a legacy decoding with Vietnamese letters, and at
 * least this share of them must be Vietnamese syllables, for a text file to be taken as one.
 */
export const LEGACY_DETECTION = {
  minWords: 3,
  minSyllableShare: 0.8,
  /** Words holding a byte over 0x7F judged, at most (the first ones). */
  sampleWords: 2000,
  viqrMinWords: 3,
  viqrMinShare: 0.1,
  /**
   * A document's text (legacyEncodingOfText) is Unicode when more than this share of its words
   * holding a letter over 0x7F hold one only Unicode Vietnamese writes (ă đ ơ ư ạ…: none is a
   * Latin-1 character); below it, such words (a title line kept in Unicode) are left as they are.
   */
  maxUnicodeShare: 0.05,
  /** A document's text is judged as VIQR on its first this many characters (a 5 MB English page: 0.3 s, not 1.7 s). */
  viqrSampleCharacters: 200_000,
};

// ---------------------------------------------------------------------------------------------
// Decoding

/** TCVN3 text (each byte as its Latin-1 character) in Unicode; `capitals` for the `…H` fonts. */
export function decodeTcvn3(text: string, capitals = false): string {
  const out = text.replace(/[\u00a1-\u00fe]/g, (ch) => TCVN3_TABLE[ch] ?? ch);
  return capitals ? out.toUpperCase() : out;
}

/** Every VNI sequence (lowercase and capitals) → its letter. */
const VNI_SEQUENCES: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>();
  for (const [letter, sequence] of Object.entries(VNI_TABLE)) {
    map.set(sequence, letter);
    map.set(sequence.toUpperCase(), letter.toUpperCase());
  }
  return map;
})();
/**
 * Any VNI sequence, two characters first: a base and its mark, or a one-byte letter (ơ ư) and
 * its tone (`ôù` ớ) before the one-byte letter alone.
 */
const VNI_PATTERN = new RegExp([...VNI_SEQUENCES.keys()].sort((x, y) => y.length - x.length).join('|'), 'g');

/** VNI text (each byte as its Latin-1 character) in Unicode. */
export function decodeVni(text: string): string {
  return text.replace(VNI_PATTERN, (sequence) => VNI_SEQUENCES.get(sequence) ?? sequence);
}

const isLetter = (ch: string | undefined): boolean => ch !== undefined && /\p{L}/u.test(ch);

/**
 * Whether a `?` or `.` after a vowel (at `at`) and not before a letter is punctuation rather than
 * a tone: it is at the end of the text or of a line, doubled (`..`, `??`), or before a word
 * starting with a capital; it is a tone before a lowercase word or other punctuation (`thu? ddo^`
 * thủ đô, `cu.,` cụ, `Thu?.` Thủ.).
 */
function endsSentence(text: string, at: number): boolean {
  const rest = text.slice(at + 1, at + 40);
  if (rest === '' || /^[\r\n]/.test(rest) || rest[0] === text[at]) return true;
  if (/^[.?!,;:)"'\u00bb\u201d]/.test(rest)) return false;
  const following = /^[ \t]+(\S)/.exec(rest)?.[1];
  return following === undefined || !isLetter(following) || following !== following.toLowerCase();
}

/** VIQR text in Unicode (NFC). */
export function decodeViqr(text: string): string {
  let out = '';
  for (let i = 0; i < text.length;) {
    const ch = text[i]!;
    const next = text[i + 1];
    if (ch === '\\' && next !== undefined && (next in VIQR_SHAPES || next in VIQR_TONES || next === 'd')) {
      out += next;
      i += 2;
      continue;
    }
    if ((ch === 'd' || ch === 'D') && (next === 'd' || next === 'D') && !isLetter(text[i - 1])) {
      out += ch === 'd' ? 'đ' : 'Đ';
      i += 2;
      continue;
    }
    if (!/[aeiouy]/i.test(ch)) {
      out += ch;
      i++;
      continue;
    }
    let letter = ch;
    let j = i + 1;
    const shape = text[j];
    if (shape !== undefined && shape in VIQR_SHAPES && VIQR_SHAPE_BASES[shape]!.includes(ch)) {
      letter += VIQR_SHAPES[shape];
      j++;
    }
    const tone = text[j];
    if (
      tone !== undefined &&
      tone in VIQR_TONES &&
      !((tone === '?' || tone === '.') && !isLetter(text[j + 1]) && endsSentence(text, j))
    ) {
      letter += VIQR_TONES[tone];
      j++;
    }
    out += letter.normalize('NFC');
    i = j;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Recognising

const TONE_MARKS = /[\u0300\u0301\u0303\u0309\u0323]/gu;
/** A Vietnamese syllable without its tone, lowercase: onset, one to three vowels, coda. */
const SYLLABLE =
  /^(?:ngh|ng|nh|ch|gh|gi|kh|ph|qu|th|tr|[bcdđghklmnpqrstvx])?[aăâeêioôơuưy]{1,3}(?:ch|ng|nh|[cmnpt])?$/u;

/** Whether a word (letters only) is a Vietnamese syllable: one tone at most, a known shape. */
export function isVietnameseSyllable(word: string): boolean {
  const decomposed = word.toLowerCase().normalize('NFD');
  if ((decomposed.match(TONE_MARKS) ?? []).length > 1) return false;
  return SYLLABLE.test(decomposed.replace(TONE_MARKS, '').normalize('NFC'));
}

/**
 * How Vietnamese a decoded text reads: of its words holding a letter outside ASCII, how many,
 * and how many of them are Vietnamese syllables.
 */
export function vietnameseWordScore(text: string): { words: number; syllables: number } {
  let words = 0;
  let syllables = 0;
  for (const word of text.split(/[^\p{L}\p{M}]+/u)) {
    if (!/[\u0080-\uffff]/.test(word)) continue;
    words++;
    if (isVietnameseSyllable(word)) syllables++;
  }
  return { words, syllables };
}

const passes = ({ words, syllables }: { words: number; syllables: number }): boolean =>
  words >= LEGACY_DETECTION.minWords && syllables / words >= LEGACY_DETECTION.minSyllableShare;

/** The first LEGACY_DETECTION.sampleWords words of `text` holding a character over 0x7F (a no-break space is a space). */
function highWords(text: string): string[] {
  const words: string[] = [];
  const pattern = /\S*(?:(?!\s)[\u0080-\uffff])\S*/g;
  for (let match = pattern.exec(text); match && words.length < LEGACY_DETECTION.sampleWords;) {
    words.push(match[0]);
    match = pattern.exec(text);
  }
  return words;
}

const LATIN_DECODERS = { tcvn3: (text: string) => decodeTcvn3(text), vni: decodeVni };

/**
 * The legacy encoding (TCVN3 or VNI) whose decoding of `latin` (8-bit text, each byte as its
 * Latin-1 character) gives Vietnamese, nearly every word a syllable; null otherwise. Judged on the
 * first words holding a character over 0x7F (highWords: a 5 MB book is then judged in
 * milliseconds, not seconds), wherever they stand in the text.
 */
function latinEncoding(latin: string): 'tcvn3' | 'vni' | null {
  const words = highWords(latin).join(' ');
  const best = (['tcvn3', 'vni'] as const)
    .map((encoding) => ({ encoding, score: vietnameseWordScore(LATIN_DECODERS[encoding](words)) }))
    .filter((c) => passes(c.score))
    .sort((a, b) => b.score.syllables - a.score.syllables)[0];
  return best?.encoding ?? null;
}

/**
 * Bytes that are not UTF-8, read as TCVN3 or as VNI when one of them gives Vietnamese (nearly
 * every word a syllable); null otherwise (Windows-1252 French, German, anything else).
 */
export function decodeLegacyVietnameseBytes(
  bytes: Uint8Array,
): { text: string; encoding: 'tcvn3' | 'vni' } | null {
  // WHATWG's "latin1" is Windows-1252: 0xA0–0xFF are the Latin-1 characters of the tables.
  const latin = new TextDecoder('windows-1252').decode(bytes);
  const encoding = latinEncoding(latin);
  return encoding ? { text: LATIN_DECODERS[encoding](latin).normalize('NFC'), encoding } : null;
}

/** Letters only Unicode Vietnamese writes (none is a Latin-1 character, so no legacy code is one). */
const UNICODE_VIETNAMESE = /[ăđĩũơưĂĐĨŨƠƯ\u1ea0-\u1ef9]/u;

/**
 * The legacy encoding a document's text (already Unicode: an HTML page, an EPUB's XHTML, an ODT's
 * content) is written in, judged as a text file's bytes are: TCVN3 or VNI codes standing as
 * Latin-1 characters (what a page in `<font face=".VnTime">` or an old document opened as
 * Windows-1252 holds), or VIQR. Null for Unicode Vietnamese (maxUnicodeShare) and anything else.
 */
export function legacyEncodingOfText(text: string): LegacyVietnameseEncoding | null {
  const words = highWords(text);
  const unicode = words.filter((word) => UNICODE_VIETNAMESE.test(word)).length;
  if (unicode > words.length * LEGACY_DETECTION.maxUnicodeShare) return null;
  const legacy = latinEncoding(text);
  if (legacy) return legacy;
  // VIQR is ASCII throughout; a no-break space (`&nbsp;` lines of reading sites) is a space.
  if (/[\u0080-\u009f\u00a1-\uffff]/.test(text)) return null;
  const sample = text.slice(0, LEGACY_DETECTION.viqrSampleCharacters).replace(/\u00a0/g, ' ');
  return looksLikeViqr(sample) ? 'viqr' : null;
}

/**
 * A piece of a document whose text is in `encoding` (a text node, a table of contents' entry,
 * the book's title in its metadata), converted unless it is Unicode Vietnamese already.
 */
export function decodeLegacyName(name: string, encoding: LegacyVietnameseEncoding, capitals = false): string {
  return UNICODE_VIETNAMESE.test(name) ? name : decodeLegacyText(name, encoding, capitals);
}

/** Text in `encoding` in Unicode (NFC); `capitals` for TCVN3 in a `.Vn…H` font. */
export function decodeLegacyText(text: string, encoding: LegacyVietnameseEncoding, capitals = false): string {
  if (encoding === 'viqr') return decodeViqr(text);
  return (encoding === 'tcvn3' ? decodeTcvn3(text, capitals) : decodeVni(text)).normalize('NFC');
}

/** A word written with a VIQR shape mark (`a(`, `e^`, `o+`) or starting with `dd`. */
const VIQR_WORD = /[aA]\(|[aeoAEO]\^|[ouOU]\+|^[^A-Za-z]*(?:dd|DD|Dd)[aeiouyAEIOUY]/;

/**
 * Whether ASCII text clearly is VIQR: at least 3 words, and a tenth of its words, carry a shape
 * mark or `dd` (Vietnamese has ă â ê ô ơ ư đ in about half its words; English and French none).
 */
export function looksLikeViqr(text: string): boolean {
  if (/[\u0080-\uffff]/.test(text)) return false;
  const words = text.split(/\s+/).filter((w) => /[A-Za-z]/.test(w));
  let marked = 0;
  for (const word of words) {
    // A shape mark must be followed by a letter, a tone mark or the word's end (not `a(b)` code).
    if (VIQR_WORD.test(word) && !/[aeo]\^\d|\w\(\w*\)/.test(word)) marked++;
  }
  return marked >= LEGACY_DETECTION.viqrMinWords && marked / words.length >= LEGACY_DETECTION.viqrMinShare;
}

/** The legacy encoding a Word font name says (`.VnTime`, `.VnArialH`, `VNI-Times`), if any. */
export function fontEncoding(font: string | null): { encoding: 'tcvn3' | 'vni'; capitals: boolean } | null {
  if (!font) return null;
  const name = font.trim();
  if (/^\.vn/i.test(name)) return { encoding: 'tcvn3', capitals: /H$/.test(name) };
  if (/^vni[- ]/i.test(name)) return { encoding: 'vni', capitals: false };
  return null;
}

/** A run's text in Unicode, as its font's encoding says. */
export function decodeFontText(text: string, font: { encoding: 'tcvn3' | 'vni'; capitals: boolean }): string {
  return decodeLegacyText(text, font.encoding, font.capitals);
}
