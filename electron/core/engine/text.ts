/**
 * Text handling for synthesis: cleaning the caller's text, counting billable characters,
 * cutting the text into chunks at sentence boundaries, and rewriting a chunk into what
 * eSpeak NG reads well, with a map from the engine's word events back to the source.
 *
 * Offsets are UTF-16 code-unit offsets (JavaScript string indexes) unless a name says
 * otherwise, as everywhere in the engine (see `./types`).
 */

import { AppError } from '../../shared/errors';
import type { LanguageCode, PreparedText, TextChunk } from './types';

// ---------------------------------------------------------------------------------------
// Cleaning and counting
// ---------------------------------------------------------------------------------------

export { cleanText, countCharacters } from '../../shared/text';

const SPEAKABLE_RE = /[\p{L}\p{N}]/u;

/**
 * Whether the text has anything a voice can say: at least one letter (\p{L}) or digit
 * (\p{N}). Text made only of emoji, punctuation, symbols and whitespace is not speakable.
 */
export function hasSpeakableContent(text: string): boolean {
  return SPEAKABLE_RE.test(text);
}

/** Throws AppError NOTHING_TO_SPEAK unless `hasSpeakableContent(text)`. */
export function assertSpeakable(text: string): void {
  if (!hasSpeakableContent(text)) {
    throw new AppError('NOTHING_TO_SPEAK', 'The text has no letters or digits to speak.');
  }
}

// ---------------------------------------------------------------------------------------
// Chunking
// ---------------------------------------------------------------------------------------

/**
 * What ends a chunk, which sets the pause after it:
 * `sentence` (. ! ? … 。！？), `clause` (a long sentence cut at , ; : — 、，),
 * `word` (a long clause cut at a space), `forced` (no space in reach: CJK or a very long
 * token, cut between graphemes), `line` (a line break that is not wrapped prose: verse,
 * list items), `paragraph` (a blank line), `heading` (a one-line paragraph that reads as a
 * title: "Chapter 3", "# Part two", "第三章"), `end` (the end of the text).
 */
export type ChunkBreak = 'sentence' | 'clause' | 'word' | 'forced' | 'line' | 'paragraph' | 'heading' | 'end';

/**
 * Silence after each kind of break at speed 1.0, ms. Values follow common narration
 * practice: a comma is a breath (~150 ms), a full stop ~300 ms, a paragraph ~0.7 s and a
 * chapter title over a second. `clause` is the value for a comma; ; : and dashes get
 * `clauseStrong`.
 */
export const PAUSE_MS = {
  sentence: 300,
  clause: 150,
  clauseStrong: 200,
  word: 30,
  forced: 0,
  line: 400,
  paragraph: 700,
  heading: 1200,
  end: 0,
} as const;

/** A chunk as `splitIntoChunks` yields it: the engine's TextChunk plus what ended it. */
export interface SpeechChunk extends TextChunk {
  /** False when the chunk has no letter or digit (e.g. "***" or only emoji): synthesise nothing, keep the pause. */
  speakable: boolean;
  /** Why the chunk ends here; `pauseAfterMs` follows from it. */
  breakAfter: ChunkBreak;
}

export interface SplitOptions {
  /**
   * Longest chunk, in UTF-16 code units. Default 300; values below 16 are raised to 16.
   * Only a sentence longer than this is cut inside; shorter sentences are never merged.
   */
  maxChars?: number;
}

/** Default longest chunk, UTF-16 code units. */
export const DEFAULT_MAX_CHARS = 300;
const MIN_MAX_CHARS = 16;

interface Block {
  start: number;
  end: number;
  breakAfter: 'line' | 'paragraph' | 'heading' | 'end';
}

interface Piece {
  start: number;
  end: number;
  breakAfter: ChunkBreak;
  pauseAfterMs: number;
}

/**
 * Cuts cleaned text (see `cleanText`) into chunks, lazily: a chunk per sentence, in order.
 *
 * Policy: one sentence per chunk, never several, so each chunk's pause is exactly the
 * pause its ending calls for and subtitle cues can follow chunks. A sentence longer than
 * `maxChars` is cut at the last clause mark in reach (, ; : — – 、，；：), failing that at
 * the last space, failing that (CJK, or a huge token) at a grapheme boundary. Full stops
 * after abbreviations ("Dr." "e.g." "U.S."), initials ("J. R. R."), list numbers ("1."),
 * inside "..." and before a lower-case word do not end a sentence; when unsure the
 * chunker does not cut, because eSpeak pauses at sentence ends inside a chunk anyway.
 *
 * Chunk texts have no leading or trailing whitespace; only whitespace lies between
 * chunks, before the first and after the last. So `text.slice(chunk.start, chunk.start +
 * chunk.text.length) === chunk.text`, and the chunks with the whitespace between them
 * give back the text. Chunks with nothing speakable are yielded too (`speakable: false`).
 * A text of only whitespace yields nothing. Linear time; memory is one paragraph at a time.
 *
 * `language` is accepted for the contract; the rules above cover all supported languages.
 */
export function* splitIntoChunks(
  text: string,
  _language: LanguageCode,
  options: SplitOptions = {},
): Generator<SpeechChunk> {
  const requested = options.maxChars ?? DEFAULT_MAX_CHARS;
  const maxChars = Number.isFinite(requested)
    ? Math.max(MIN_MAX_CHARS, Math.floor(requested))
    : DEFAULT_MAX_CHARS;
  let index = 0;
  for (const block of scanBlocks(text)) {
    const s = text.slice(block.start, block.end);
    for (const piece of piecesOf(s, block, maxChars)) {
      const chunkText = s.slice(piece.start, piece.end);
      yield {
        index: index++,
        text: chunkText,
        start: block.start + piece.start,
        pauseAfterMs: piece.pauseAfterMs,
        speakable: hasSpeakableContent(chunkText),
        breakAfter: piece.breakAfter,
      };
    }
  }
}

function isSpaceCode(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

const TERMINAL_END_RE = /[.!?…。！？｡．:;]["'”’»)\]}」』）】〕〉》›]*$/u;
const CONTINUING_END_RE = /[,，、—–-]$/u;
const LIST_ITEM_START_RE = /^(?:[-*•·‣▪◦–—]\s|\d{1,3}[.)]\s|\p{L}[.)]\s)/u;
const LOWER_START_RE = /^\p{Ll}/u;
const HEADING_RE =
  /^(?:#{1,6}\s|(?:chapter|part|book|prologue|epilogue|chương|phần|hồi|chapitre|partie|épilogue|capítulo|parte|prólogo|epílogo)(?!\p{L})|第[^\s]{1,6}[章節节部回話话卷]|제\s*\d+\s*[장부화])/iu;

/**
 * Paragraph-level blocks: runs of content lines, trimmed. Lines joined by a single newline
 * stay in one block when they look like wrapped prose (the next line starts in lower case,
 * or the previous one is long and does not end a sentence); otherwise the newline is a
 * `line` break. A blank line is a `paragraph` break.
 */
function* scanBlocks(text: string): Generator<Block> {
  let blockStart = -1;
  let blockEnd = -1;
  let lineCount = 0;
  let lastLineStart = -1;
  let pendingBlank = false;
  let precededByParagraph = true;

  const finish = (breakAfter: 'line' | 'paragraph' | 'end'): Block => {
    let kind: Block['breakAfter'] = breakAfter;
    if (lineCount === 1 && breakAfter !== 'end' && precededByParagraph && blockEnd - blockStart <= 80) {
      const line = text.slice(blockStart, blockEnd);
      // A named heading ("Chapter 3") may be followed by a single line break; an unnamed
      // one (a short line without a full stop) only counts when a blank line follows.
      const named = HEADING_RE.test(line);
      const bare =
        breakAfter === 'paragraph' &&
        !TERMINAL_END_RE.test(line) &&
        !CONTINUING_END_RE.test(line) &&
        !LIST_ITEM_START_RE.test(line);
      if ((named || bare) && hasSpeakableContent(line)) kind = 'heading';
    }
    return { start: blockStart, end: blockEnd, breakAfter: kind };
  };

  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    let ts = lineStart;
    let te = lineEnd;
    while (ts < te && isSpaceCode(text.charCodeAt(ts))) ts++;
    while (te > ts && isSpaceCode(text.charCodeAt(te - 1))) te--;
    if (ts === te) {
      if (blockStart >= 0) pendingBlank = true;
    } else if (blockStart < 0) {
      blockStart = ts;
      blockEnd = te;
      lineCount = 1;
      lastLineStart = ts;
    } else {
      let breakHere: 'line' | 'paragraph' | undefined;
      if (pendingBlank) breakHere = 'paragraph';
      else if (!continuesProse(text, lastLineStart, blockEnd, ts, te)) breakHere = 'line';
      if (breakHere) {
        yield finish(breakHere);
        precededByParagraph = breakHere === 'paragraph';
        blockStart = ts;
        lineCount = 0;
      }
      blockEnd = te;
      lineCount++;
      lastLineStart = ts;
    }
    pendingBlank = pendingBlank && ts === te;
    lineStart = lineEnd + 1;
  }
  if (blockStart >= 0) yield finish('end');
}

function continuesProse(
  text: string,
  prevStart: number,
  prevEnd: number,
  nextStart: number,
  nextEnd: number,
): boolean {
  const nextHead = text.slice(nextStart, Math.min(nextEnd, nextStart + 8));
  if (LIST_ITEM_START_RE.test(nextHead)) return false;
  if (LOWER_START_RE.test(nextHead)) return true;
  const prevTail = text.slice(Math.max(prevStart, prevEnd - 8), prevEnd);
  return prevEnd - prevStart >= 50 && !TERMINAL_END_RE.test(prevTail);
}

/** Sentence pieces of one block, each cut further when longer than `maxChars`. */
function* piecesOf(s: string, block: Block, maxChars: number): Generator<Piece> {
  const sentences = scanSentences(s);
  let current = sentences.next();
  while (!current.done) {
    const next = sentences.next();
    const { start, end } = current.value;
    const last = next.done === true;
    const breakAfter: ChunkBreak = last ? block.breakAfter : 'sentence';
    yield* cutLong(s, start, end, maxChars, breakAfter, PAUSE_MS[breakAfter]);
    current = next;
  }
}

const TERMINATOR_RE = /[.!?…。！？｡．‼⁇⁈⁉]+/gu;
const CJK_TERMINATOR_RE = /[。！？｡．]/u;
const CLOSERS = new Set('"\'”’»)]}」』）】〕〉》›');
const UPPER_RE = /\p{Lu}/u;
const DIGIT_START_RE = /^\p{N}/u;
const LOWER_RE = /\p{Ll}/u;
const LETTER_RE = /\p{L}/u;
const LIST_MARK_RE = /^(?:\(?\p{N}{1,3}\)?|[IVXLCivxlc]{1,5}|\p{L})$/u;

/**
 * Words that end with a full stop without ending a sentence (compared in lower case). When
 * one of them does end a sentence the only cost is a longer chunk: eSpeak still pauses there.
 * Words that often end sentences as themselves (sun, art, est, ex, no) are left out; "No."
 * counts only before a number.
 */
const ABBREVIATIONS = new Set(
  [
    // English
    'mr mrs ms dr prof st jr sr gen capt col lt sgt cmdr adm gov sen rev hon mt ft vs etc al cf ca approx fig vol vols ch pp eds inc ltd co corp bros ave rd blvd dept jan feb apr jun jul aug sep sept oct nov dec mon tue thu fri',
    // French
    'mm mme mmes mlle mlles mgr av env chap tél',
    // Spanish
    'sra sras srta srtas dra ud uds lic ing núm pág págs ej aprox avda ee uu cía',
    // Vietnamese
    'tp ts ths pgs gs bs ks tt',
  ]
    .join(' ')
    .split(' '),
);

/** Sentence ranges of a trimmed block, each trimmed, covering all of its non-space text. */
function* scanSentences(s: string): Generator<{ start: number; end: number }> {
  let sentenceStart = 0;
  const re = new RegExp(TERMINATOR_RE.source, 'gu');
  let m: RegExpExecArray | null;
  while ((m = re.exec(s)) !== null) {
    let after = m.index + m[0].length;
    while (after < s.length && CLOSERS.has(s[after] as string)) after++;
    if (!endsSentence(s, sentenceStart, m.index, m[0], after)) continue;
    yield { start: sentenceStart, end: after };
    sentenceStart = after;
    while (sentenceStart < s.length && isSpaceCode(s.charCodeAt(sentenceStart))) sentenceStart++;
    re.lastIndex = sentenceStart;
    if (sentenceStart >= s.length) return;
  }
  if (sentenceStart < s.length) yield { start: sentenceStart, end: s.length };
}

function endsSentence(s: string, sentenceStart: number, at: number, run: string, after: number): boolean {
  if (CJK_TERMINATOR_RE.test(run)) return true;
  if (after < s.length && !isSpaceCode(s.charCodeAt(after))) return false;
  let n = after;
  while (n < s.length && isSpaceCode(s.charCodeAt(n))) n++;
  if (n >= s.length) return true;
  const next = String.fromCodePoint(s.codePointAt(n) as number);
  if (LOWER_RE.test(next)) return false;
  const isEllipsis = run.includes('…') || run.includes('..');
  if (isEllipsis) return UPPER_RE.test(next);
  if (run !== '.') return true;
  // A single full stop: look at the word before it.
  let k = at;
  while (k > sentenceStart && at - k < 32) {
    const ch = s[k - 1] as string;
    if (ch === '.' || LETTER_RE.test(ch)) k--;
    else break;
  }
  const word = s.slice(k, at);
  if (word === '') {
    // "1." or "(a)." opening a line is a list mark, not a sentence.
    return !LIST_MARK_RE.test(s.slice(sentenceStart, at));
  }
  if (word.includes('.')) return false; // initialisms: U.S. e.g. Ph.D.
  if ([...word].length === 1) return false; // initials: J. R. R. Tolkien
  const lower = word.toLowerCase();
  if (ABBREVIATIONS.has(lower)) return false;
  if ((lower === 'no' || lower === 'nos') && DIGIT_START_RE.test(next)) return false;
  if (k === sentenceStart && LIST_MARK_RE.test(word)) return false; // "IV. Results"
  return true;
}

const STRONG_CLAUSE = new Set([';', ':', '—', '–', '；', '：']);

/** Cuts [start, end) of `s` into pieces of at most `maxChars`, the last one carrying the given break. */
function* cutLong(
  s: string,
  start: number,
  end: number,
  maxChars: number,
  breakAfter: ChunkBreak,
  pauseAfterMs: number,
): Generator<Piece> {
  let a = start;
  while (end - a > maxChars) {
    const limit = a + maxChars;
    let cutEnd = -1;
    let kind: ChunkBreak = 'forced';
    let pause: number = PAUSE_MS.forced;
    // A clause mark as late as possible, but not so early that the piece is a scrap.
    const floor = a + Math.floor(maxChars * 0.3);
    for (let k = limit - 1; k >= floor && cutEnd < 0; k--) {
      const ch = s[k] as string;
      const nextIsSpace = k + 1 >= end || isSpaceCode(s.charCodeAt(k + 1));
      if (
        ((ch === ',' || ch === ';' || ch === ':') && nextIsSpace) ||
        ch === '—' ||
        ch === '–' ||
        ch === '、' ||
        ch === '，' ||
        ch === '；' ||
        ch === '：'
      ) {
        if (ch === '–' && !nextIsSpace) continue; // 10–20 is a range, not a clause
        cutEnd = k + 1;
        kind = 'clause';
        pause = STRONG_CLAUSE.has(ch) ? PAUSE_MS.clauseStrong : PAUSE_MS.clause;
      }
    }
    if (cutEnd < 0) {
      for (let k = limit; k > a; k--) {
        if (isSpaceCode(s.charCodeAt(k))) {
          cutEnd = k;
          kind = 'word';
          pause = PAUSE_MS.word;
          break;
        }
      }
    }
    if (cutEnd < 0) cutEnd = graphemeCut(s, a, limit);
    let pieceEnd = cutEnd;
    while (pieceEnd > a && isSpaceCode(s.charCodeAt(pieceEnd - 1))) pieceEnd--;
    yield { start: a, end: pieceEnd, breakAfter: kind, pauseAfterMs: pause };
    a = cutEnd;
    while (a < end && isSpaceCode(s.charCodeAt(a))) a++;
  }
  if (a < end) yield { start: a, end, breakAfter, pauseAfterMs };
}

let graphemes: Intl.Segmenter | undefined;

/** The last grapheme boundary in (a, limit], so a forced cut never splits a surrogate pair, a combining mark or an emoji sequence. */
function graphemeCut(s: string, a: number, limit: number): number {
  graphemes ??= new Intl.Segmenter('und', { granularity: 'grapheme' });
  const from = Math.max(a, limit - 64);
  let best = -1;
  for (const seg of graphemes.segment(s.slice(from, limit + 16))) {
    const at = from + seg.index;
    if (at > limit) break;
    if (at > a) best = at;
  }
  if (best > a) return best;
  const c = s.charCodeAt(limit);
  return c >= 0xdc00 && c <= 0xdfff && limit - 1 > a ? limit - 1 : limit;
}

// ---------------------------------------------------------------------------------------
// Rewriting for the engine, with a map back to the source
// ---------------------------------------------------------------------------------------

/** Per code unit of some text: the range of the original source it stands for. */
interface UnitSpans {
  starts: Int32Array;
  ends: Int32Array;
}

/** A PreparedText that can also feed a further rewriting stage (see `./japanese`). */
export interface MappedText extends PreparedText {
  /** Per UTF-16 code unit of `engineText`, the source range it stands for. */
  readonly spans: UnitSpans;
}

/**
 * Builds engine text from pieces of an input string: copies (each code point maps to
 * itself) and replacements (every code point of the new text maps to the whole replaced
 * source range). With `base`, input positions are first mapped through an earlier stage,
 * so the final map always points into the original source.
 */
export class MappedTextBuilder {
  private readonly parts: string[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  constructor(
    private readonly input: string,
    private readonly base?: UnitSpans,
  ) {}

  private sourceStart(k: number): number {
    return this.base ? (this.base.starts[k] ?? 0) : k;
  }

  private sourceEnd(k: number): number {
    return this.base ? (this.base.ends[k] ?? 0) : k + 1;
  }

  /** Copies input[from, to), turning line breaks, tabs and other spaces into plain spaces (one for one). */
  copy(from: number, to: number): void {
    if (to <= from) return;
    const chunk = this.input.slice(from, to).replace(/[\t\n\v\f\r\p{Zs}]/gu, ' ');
    this.parts.push(chunk);
    for (let k = from; k < to; k++) {
      const c = this.input.charCodeAt(k);
      const isPairStart = c >= 0xd800 && c <= 0xdbff && k + 1 < to;
      const last = isPairStart ? k + 1 : k;
      const start = this.sourceStart(k);
      const end = this.sourceEnd(last);
      for (let u = k; u <= last; u++) {
        this.starts.push(start);
        this.ends.push(end);
      }
      k = last;
    }
  }

  /** Emits `text` in place of input[from, to); `from === to` inserts text tied to that position. */
  replace(text: string, from: number, to: number): void {
    if (text === '') return;
    this.parts.push(text);
    const start = this.sourceStart(from);
    const end = to > from ? this.sourceEnd(to - 1) : start;
    for (let u = 0; u < text.length; u++) {
      this.starts.push(start);
      this.ends.push(end);
    }
  }

  /** `source` is the text the spans point into, used to widen a word event that covers part of a word. */
  build(source: string): MappedText {
    const engineText = this.parts.join('');
    const spans: UnitSpans = { starts: Int32Array.from(this.starts), ends: Int32Array.from(this.ends) };
    return createMappedText(engineText, spans, source);
  }
}

const DIGIT_RE = /\p{Nd}/u;
const WORD_CHAR_RE = /[\p{L}\p{N}\p{M}]/u;
const NO_SPACE_SCRIPT_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

function isDigitAt(text: string, unit: number): boolean {
  return unit >= 0 && unit < text.length && DIGIT_RE.test(text[unit] as string);
}

/** Whether source[at - 1] and source[at] are both letters or digits of a script that separates words with spaces. */
function insideWord(source: string, at: number): boolean {
  if (at <= 0 || at >= source.length) return false;
  const before = source[at - 1] as string;
  const after = source[at] as string;
  return (
    WORD_CHAR_RE.test(before) &&
    WORD_CHAR_RE.test(after) &&
    !NO_SPACE_SCRIPT_RE.test(before) &&
    !NO_SPACE_SCRIPT_RE.test(after) &&
    !isSurrogate(after)
  );
}

function isSurrogate(ch: string): boolean {
  const c = ch.charCodeAt(0);
  return c >= 0xd800 && c <= 0xdfff;
}

function createMappedText(engineText: string, spans: UnitSpans, source: string): MappedText {
  // Code point index -> code unit index, so eSpeak's code-point positions can be resolved.
  const unitOf: number[] = [];
  for (let u = 0; u < engineText.length; u++) {
    unitOf.push(u);
    const c = engineText.charCodeAt(u);
    if (c >= 0xd800 && c <= 0xdbff && u + 1 < engineText.length) u++;
  }
  const cpCount = unitOf.length;
  const unitEnd = (cp: number): number => (cp + 1 < cpCount ? (unitOf[cp + 1] as number) : engineText.length);
  const isSpaceCp = (cp: number): boolean => isSpaceCode(engineText.charCodeAt(unitOf[cp] as number));

  return {
    engineText,
    spans,
    toSource(textPosition: number, wordLength: number): { start: number; end: number } {
      if (cpCount === 0) return { start: 0, end: 0 };
      const pos = Number.isFinite(textPosition) ? Math.trunc(textPosition) : 1;
      const len = Number.isFinite(wordLength) ? Math.max(1, Math.trunc(wordLength)) : 1;
      let a = Math.min(Math.max(pos - 1, 0), cpCount - 1);
      let b = Math.min(a + len - 1, cpCount - 1);
      // eSpeak's word ranges sometimes take in the space after a word.
      while (a < b && isSpaceCp(a)) a++;
      while (b > a && isSpaceCp(b)) b--;
      let firstUnit = unitOf[a] as number;
      let lastUnit = unitEnd(b) - 1;
      // eSpeak reports a number read as several words with events that start one character
      // late and run past the number ("2026," for "2026"): such an event means the number.
      const inNumber = (u: number): boolean =>
        isDigitAt(engineText, u) ||
        (/[.,]/.test(engineText[u] ?? '') && isDigitAt(engineText, u - 1) && isDigitAt(engineText, u + 1));
      if (inNumber(firstUnit) && inNumber(firstUnit - 1)) {
        while (inNumber(firstUnit - 1)) firstUnit--;
        lastUnit = firstUnit;
        while (inNumber(lastUnit + 1)) lastUnit++;
      }
      let start = Number.POSITIVE_INFINITY;
      let end = Number.NEGATIVE_INFINITY;
      for (let u = firstUnit; u <= lastUnit; u++) {
        start = Math.min(start, spans.starts[u] as number);
        end = Math.max(end, spans.ends[u] as number);
      }
      end = Math.max(start, end);
      // A word event that covers part of a source word stands for the whole word.
      while (insideWord(source, start)) start--;
      while (insideWord(source, end)) end++;
      return { start, end };
    },
  };
}

/** A piece of a rule's output, tied to a range of the match (offsets relative to the match start). */
interface OutPiece {
  text: string;
  from: number;
  to: number;
}

interface RuleContext {
  /** The whole (normalised) input being rewritten. */
  input: string;
  /** Offset of the match in `input`. */
  index: number;
  /** Offset just past the match. */
  end: number;
  language: LanguageCode;
  options: PrepareOptions;
}

interface Rule {
  /** Regex source (compiled with the `u` flag inside one alternation); no back-references. */
  pattern: string;
  /**
   * The engine text for a match: a string (mapped to the whole match) or pieces (mapped to
   * parts of it). `groups[0]` is the match, `groups[1..]` its capture groups. Undefined
   * leaves the text as it is.
   */
  rewrite(groups: (string | undefined)[], ctx: RuleContext): string | OutPiece[] | undefined;
}

export interface PrepareOptions {
  /**
   * How to read an ambiguous numeric date like 05/06/2026 in English: month first ('mdy',
   * the default: most of the app's English voices are American) or day first ('dmy').
   * Unambiguous dates (21/11/2026) are read correctly either way; other languages are
   * always day first.
   */
  dateOrder?: 'mdy' | 'dmy';
}

/**
 * Rewrites one chunk's text into what eSpeak NG reads well in `language`, and maps the
 * engine's word events back to the chunk. Only what eSpeak was heard to get wrong is
 * rewritten: dates (2026-11-21, 21/11/2026), clock times where eSpeak says "zero zero",
 * currency symbols before amounts ("$5" is read "dollar five"), percent in Chinese,
 * Korean and Japanese, Vietnamese round numbers ("50.000" gets a spurious "không trăm"),
 * some abbreviations, number ranges with an en dash. It also removes what the engine
 * must not see: `<`, `>` and `&` (the engine runs in SSML mode, where they swallow text)
 * become words or spaces; emoji (read as their names) and markdown markers become
 * spaces; full-width ASCII becomes ASCII; line breaks and tabs become spaces.
 *
 * For Japanese this does the same first stage without readings for kanji; use
 * `prepareJapanese` to get kana. Never throws.
 */
export function prepareForEngine(
  text: string,
  language: LanguageCode,
  options: PrepareOptions = {},
): PreparedText {
  return rewriteForEngine(text, language, options);
}

/** `prepareForEngine` returning the spans too, for chaining another stage. */
export function rewriteForEngine(
  text: string,
  language: LanguageCode,
  options: PrepareOptions = {},
): MappedText {
  return applyRules(text, language, options);
}

interface CompiledRules {
  re: RegExp;
  rules: { rule: Rule; group: number; count: number }[];
}

const compiled = new Map<LanguageCode, CompiledRules>();

function compileRules(language: LanguageCode): CompiledRules {
  const cached = compiled.get(language);
  if (cached) return cached;
  const list = rulesFor(language);
  let group = 1;
  const entries = list.map((rule) => {
    const count = (new RegExp(`(?:${rule.pattern})|`, 'u').exec('') as RegExpExecArray).length - 1;
    const entry = { rule, group, count };
    group += count + 1;
    return entry;
  });
  const re = new RegExp(list.map((r) => `(${r.pattern})`).join('|'), 'gu');
  const result = { re, rules: entries };
  compiled.set(language, result);
  return result;
}

/**
 * Full-width digits, Latin letters and a few symbols (common in CJK text) are read as
 * "letter FF11" by eSpeak: map them to ASCII, one for one. Full-width punctuation (，！？：)
 * stays: it is what CJK text uses, and "5，50" must not become the decimal "5,50".
 */
function normaliseWidth(text: string): string {
  return text.replace(
    /[\uFF10-\uFF19\uFF21-\uFF3A\uFF41-\uFF5A\uFF03-\uFF06\uFF0A\uFF0B\uFF1C-\uFF1E\uFF20]/g,
    (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0),
  );
}

function applyRules(text: string, language: LanguageCode, options: PrepareOptions): MappedText {
  const input = normaliseWidth(text);
  const builder = new MappedTextBuilder(input);
  const { re, rules } = compileRules(language);
  re.lastIndex = 0;
  let copied = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(input)) !== null) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    const entry = rules.find((r) => m?.[r.group] !== undefined);
    if (!entry) continue;
    const groups = m.slice(entry.group, entry.group + entry.count + 1);
    const end = m.index + m[0].length;
    const out = entry.rule.rewrite(groups, { input, index: m.index, end, language, options });
    if (out === undefined) {
      // Declined: let other rules try from the next code point.
      re.lastIndex =
        m.index + (input.charCodeAt(m.index) >= 0xd800 && input.charCodeAt(m.index) <= 0xdbff ? 2 : 1);
      continue;
    }
    builder.copy(copied, m.index);
    if (typeof out === 'string') builder.replace(out, m.index, end);
    else for (const p of out) builder.replace(p.text, m.index + p.from, m.index + p.to);
    copied = end;
  }
  builder.copy(copied, input.length);
  return builder.build(input);
}

// --- Rule helpers ----------------------------------------------------------------------

/**
 * Not preceded by a Latin letter, digit or joining punctuation: the start of a number.
 * CJK letters may touch a number ("涨了50%").
 */
const NUM_START = '(?<![\\p{Script=Latin}\\p{N}_.,:/-])';
/** Not followed by a digit, or by punctuation that continues a number. */
const NUM_END = '(?![\\p{N}]|[.,:/-]\\p{N})';
const WORD_START = '(?<![\\p{L}\\p{N}_])';
const WORD_END = '(?![\\p{L}\\p{N}_])';

const AMOUNT = '\\d{1,3}(?:[,.\\u00A0\\u202F]\\d{3})+(?:[.,]\\d{1,2})?|\\d+(?:[.,]\\d{1,2})?';

function piece(text: string, from: number, to: number): OutPiece {
  return { text, from, to };
}

/** Offsets of the capture groups of a match inside it, found by searching left to right. */
function locate(whole: string, parts: string[]): number[] {
  const at: number[] = [];
  let from = 0;
  for (const p of parts) {
    const i = whole.indexOf(p, from);
    at.push(i);
    from = i + p.length;
  }
  return at;
}

/** "." when the text after `end` starts a new sentence or line, so a rewrite that drops an abbreviation's full stop keeps a sentence end. */
function periodIfSentenceEnd(ctx: RuleContext): string {
  const rest = ctx.input.slice(ctx.end, ctx.end + 8);
  const m = /^[ \t\u00A0]*(.)?/su.exec(rest);
  const next = m?.[1];
  if (next === undefined || next === '\n' || UPPER_RE.test(next)) return '.';
  return '';
}

function stripZeros(digits: string): string {
  return digits.replace(/^0+(?=\d)/, '');
}

const EN_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const FR_MONTHS = [
  'janvier',
  'février',
  'mars',
  'avril',
  'mai',
  'juin',
  'juillet',
  'août',
  'septembre',
  'octobre',
  'novembre',
  'décembre',
];
const ES_MONTHS = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
];
const ZH_DIGITS = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九'];

function englishOrdinal(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  const suffix = ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${n % 10 > 3 ? 'th' : suffix}`;
}

const VI_SCALES = ['', 'nghìn', 'triệu', 'tỷ', 'nghìn tỷ', 'triệu tỷ'];

/**
 * Vietnamese integer for eSpeak: eSpeak reads every all-zero group of three digits as
 * "không trăm" ("50.000" → "năm mươi nghìn không trăm"), so such numbers are spelled with
 * scale words ("50 nghìn", "2 triệu 500 nghìn"). Other numbers are returned as digits.
 */
export function vietnameseNumber(digits: string): string {
  const plain = digits.replace(/\D/g, '');
  if (plain.length < 4 || plain.length > 18 || plain.startsWith('0')) return plain;
  const groups: string[] = [];
  for (let end = plain.length; end > 0; end -= 3) groups.unshift(plain.slice(Math.max(0, end - 3), end));
  if (!groups.slice(1).some((g) => g === '000')) return plain;
  const words: string[] = [];
  groups.forEach((g, i) => {
    const value = Number(g);
    if (value === 0) return;
    const scale = VI_SCALES[groups.length - 1 - i] ?? '';
    let spoken = String(value);
    // Inside a number a group under 100 is read with its zero hundreds: "1.050.000" → "1 triệu không trăm 50 nghìn".
    if (i > 0 && value < 100) spoken = `không trăm ${value < 10 ? 'linh ' : ''}${value}`;
    words.push(scale ? `${spoken} ${scale}` : spoken);
  });
  return words.join(' ');
}

// --- Dates ------------------------------------------------------------------------------

interface DateParts {
  year?: string;
  month: number;
  day: number;
  /** Offsets of year, month and day inside the match. */
  yearAt?: [number, number];
  monthAt: [number, number];
  dayAt: [number, number];
}

function validDate(month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

function zhYear(year: string): string {
  return [...year].map((d) => ZH_DIGITS[Number(d)] ?? d).join('');
}

function sayDate(d: DateParts, ctx: RuleContext): OutPiece[] | undefined {
  const pieces: OutPiece[] = [];
  const [ms, me] = d.monthAt;
  const [ds, de] = d.dayAt;
  const y = d.year;
  const [ys, ye] = d.yearAt ?? [0, 0];
  switch (ctx.language) {
    case 'en':
      pieces.push(
        piece(EN_MONTHS[d.month - 1] as string, ms, me),
        piece(` ${englishOrdinal(d.day)}`, ds, de),
      );
      if (y) pieces.push(piece(`, ${y}`, ys, ye));
      return pieces;
    case 'fr':
      pieces.push(
        piece(d.day === 1 ? '1er' : String(d.day), ds, de),
        piece(` ${FR_MONTHS[d.month - 1]}`, ms, me),
      );
      if (y) pieces.push(piece(` ${y}`, ys, ye));
      return pieces;
    case 'es':
      pieces.push(piece(String(d.day), ds, de), piece(` de ${ES_MONTHS[d.month - 1]}`, ms, me));
      if (y) pieces.push(piece(` de ${y}`, ys, ye));
      return pieces;
    case 'vi': {
      const hasNgay = /ngày\s+$/iu.test(ctx.input.slice(Math.max(0, ctx.index - 8), ctx.index));
      // "tháng 4" is said "tháng tư".
      const month = d.month === 4 ? 'tư' : String(d.month);
      pieces.push(piece(`${hasNgay ? '' : 'ngày '}${d.day}`, ds, de), piece(` tháng ${month}`, ms, me));
      if (y) pieces.push(piece(` năm ${vietnameseNumber(y)}`, ys, ye));
      return pieces;
    }
    case 'zh':
      if (y) pieces.push(piece(`${zhYear(y)}年`, ys, ye));
      pieces.push(piece(`${d.month}月`, ms, me), piece(`${d.day}日`, ds, de));
      return pieces;
    case 'ko': {
      if (y) pieces.push(piece(`${y}년 `, ys, ye));
      // June and October drop a consonant: 유월, 시월.
      const month = d.month === 6 ? '유월' : d.month === 10 ? '시월' : `${d.month}월`;
      pieces.push(piece(`${month} `, ms, me), piece(`${d.day}일`, ds, de));
      return pieces;
    }
    case 'ja':
      if (y) pieces.push(piece(`${y}年`, ys, ye));
      pieces.push(piece(`${d.month}月`, ms, me), piece(`${d.day}日`, ds, de));
      return pieces;
  }
}

const isoDateRule: Rule = {
  // 2026-11-21, 2026/11/21, 2026.11.21
  pattern: `${NUM_START}(\\d{4})[-/.](\\d{1,2})[-/.](\\d{1,2})${NUM_END}`,
  rewrite([whole, y, mo, d], ctx) {
    if (!whole || !y || !mo || !d) return undefined;
    const month = Number(mo);
    const day = Number(d);
    if (!validDate(month, day)) return undefined;
    const [yAt, mAt, dAt] = locate(whole, [y, mo, d]) as [number, number, number];
    return sayDate(
      {
        year: y,
        month,
        day,
        yearAt: [yAt, yAt + 4],
        monthAt: [mAt, mAt + mo.length],
        dayAt: [dAt, dAt + d.length],
      },
      ctx,
    );
  },
};

const numericDateRule: Rule = {
  // 21/11/2026, 11/21/2026, 21.11.2026, 21-11-2026
  pattern: `${NUM_START}(\\d{1,2})([/.-])(\\d{1,2})[/.-](\\d{4})${NUM_END}`,
  rewrite([whole, a, sep, b, y], ctx) {
    if (!whole || !a || !sep || !b || !y) return undefined;
    if (ctx.language === 'zh' || ctx.language === 'ko' || ctx.language === 'ja') return undefined;
    const first = Number(a);
    const second = Number(b);
    let monthFirst = ctx.language === 'en' && sep === '/' && (ctx.options.dateOrder ?? 'mdy') === 'mdy';
    if (monthFirst && first > 12 && second <= 12) monthFirst = false;
    if (!monthFirst && second > 12 && first <= 12 && ctx.language === 'en') monthFirst = true;
    const month = monthFirst ? first : second;
    const day = monthFirst ? second : first;
    if (!validDate(month, day)) return undefined;
    const bAt = whole.indexOf(b, a.length + 1);
    const yAt = whole.length - 4;
    const aSpan: [number, number] = [0, a.length];
    const bSpan: [number, number] = [bAt, bAt + b.length];
    return sayDate(
      {
        year: y,
        month,
        day,
        yearAt: [yAt, yAt + 4],
        monthAt: monthFirst ? aSpan : bSpan,
        dayAt: monthFirst ? bSpan : aSpan,
      },
      ctx,
    );
  },
};

const MONTH_NAMES_RE = EN_MONTHS.join('|');

const englishMonthDayRule: Rule = {
  // "November 21" → "November 21st"; "21 November" → "21st November" (eSpeak says "twenty one").
  pattern: `${WORD_START}(?:(${MONTH_NAMES_RE})\\s+(\\d{1,2})|(\\d{1,2})\\s+(${MONTH_NAMES_RE}))(?![\\p{L}\\p{N}]|[.,:/-]\\p{N})`,
  rewrite([whole, m1, d1, d2, m2]) {
    if (!whole) return undefined;
    const dayText = d1 ?? d2;
    if (!dayText || !(m1 ?? m2)) return undefined;
    const day = Number(dayText);
    if (day < 1 || day > 31) return undefined;
    const at = d1 !== undefined ? whole.lastIndexOf(dayText) : 0;
    return [
      piece(whole.slice(0, at), 0, at),
      piece(englishOrdinal(day), at, at + dayText.length),
      piece(whole.slice(at + dayText.length), at + dayText.length, whole.length),
    ].filter((p) => p.text !== '');
  },
};

const vietnameseDayMonthRule: Rule = {
  // "ngày 21/11" → "ngày 21 tháng 11"; "tháng 11/2026" → "tháng 11 năm 2026".
  pattern: `(?<=(?:ngày|Ngày|tháng|Tháng)\\s+)(\\d{1,2})/(\\d{1,4})${NUM_END}`,
  rewrite([whole, a, b], ctx) {
    if (!whole || !a || !b) return undefined;
    const before = ctx.input.slice(Math.max(0, ctx.index - 8), ctx.index).toLowerCase();
    const bAt = a.length + 1;
    if (before.includes('ngày') && b.length <= 2 && validDate(Number(b), Number(a))) {
      return [
        piece(String(Number(a)), 0, a.length),
        piece(` tháng ${Number(b) === 4 ? 'tư' : Number(b)}`, bAt, whole.length),
      ];
    }
    if (before.includes('tháng') && b.length === 4 && Number(a) >= 1 && Number(a) <= 12) {
      return [
        piece(Number(a) === 4 ? 'tư' : String(Number(a)), 0, a.length),
        piece(` năm ${vietnameseNumber(b)}`, bAt, whole.length),
      ];
    }
    return undefined;
  },
};

// --- Times ------------------------------------------------------------------------------

const KO_HOURS = ['영', '한', '두', '세', '네', '다섯', '여섯', '일곱', '여덟', '아홉', '열', '열한', '열두'];

const timeRule: Rule = {
  pattern: `${NUM_START}([01]?\\d|2[0-4]):([0-5]\\d)(?![\\p{N}]|[:.,]\\p{N})`,
  rewrite([whole, hText, mText], ctx) {
    if (!whole || !hText || !mText) return undefined;
    const h = Number(hText);
    const min = Number(mText);
    const hSpan: [number, number] = [0, hText.length];
    const mSpan: [number, number] = [hText.length, whole.length];
    switch (ctx.language) {
      case 'en': {
        // eSpeak reads 12:00 as "twelve zero zero" and 9:05 as "nine zero five".
        if (min === 0) {
          const ampm = /^\s*(?:[ap]\.?m\.?|[AP]\.?M\.?)(?![\p{L}])/u.test(
            ctx.input.slice(ctx.end, ctx.end + 6),
          );
          if (ampm) return [piece(String(h), ...hSpan)];
          return [piece(String(h), ...hSpan), piece(h >= 1 && h <= 12 ? " o'clock" : ' hundred', ...mSpan)];
        }
        if (min < 10) return [piece(String(h), ...hSpan), piece(` oh ${min}`, ...mSpan)];
        return undefined;
      }
      case 'vi':
        return [piece(`${h} giờ`, ...hSpan), ...(min > 0 ? [piece(` ${min} phút`, ...mSpan)] : [])];
      case 'fr':
        return [
          piece(`${h} ${h <= 1 ? 'heure' : 'heures'}`, ...hSpan),
          ...(min > 0 ? [piece(` ${min}`, ...mSpan)] : []),
        ];
      case 'es':
        // "14:30" is read well ("catorce treinta"); "14:00" as "catorce cero cero".
        return min === 0 ? [piece(String(h), ...hSpan), piece(' en punto', ...mSpan)] : undefined;
      case 'zh':
        return [
          piece(h === 2 ? '两点' : `${h}点`, ...hSpan),
          ...(min > 0 ? [piece(`${min < 10 ? '零' : ''}${min}分`, ...mSpan)] : []),
        ];
      case 'ko':
        return [
          piece(h >= 1 && h <= 12 ? `${KO_HOURS[h]} 시` : `${h}시`, ...hSpan),
          ...(min > 0 ? [piece(` ${min}분`, ...mSpan)] : []),
        ];
      case 'ja':
        return [piece(`${h}時`, ...hSpan), ...(min > 0 ? [piece(`${min}分`, ...mSpan)] : [])];
    }
  },
};

const frenchHourRule: Rule = {
  // 14h30, 14 h 30, 9h: eSpeak reads the "h" as the letter.
  pattern: `${NUM_START}([01]?\\d|2[0-4])[ \\u00A0\\u202F]?h(?:[ \\u00A0\\u202F]?([0-5]\\d))?${WORD_END}`,
  rewrite([whole, hText, mText]) {
    if (!whole || !hText) return undefined;
    const h = Number(hText);
    const hEnd = whole.indexOf('h', hText.length) + 1;
    const out = [piece(`${h} ${h <= 1 ? 'heure' : 'heures'}`, 0, hEnd)];
    if (mText && Number(mText) > 0) out.push(piece(` ${Number(mText)}`, hEnd, whole.length));
    return out;
  },
};

// --- Money and percent ------------------------------------------------------------------

type Currency = '$' | '€' | '£' | '¥' | '₩' | '₫';

interface CurrencyWords {
  one: string;
  many: string;
  centOne: string;
  centMany: string;
}

const CURRENCY: Record<LanguageCode, Record<Currency, CurrencyWords>> = {
  en: {
    $: { one: 'dollar', many: 'dollars', centOne: 'cent', centMany: 'cents' },
    '€': { one: 'euro', many: 'euros', centOne: 'cent', centMany: 'cents' },
    '£': { one: 'pound', many: 'pounds', centOne: 'penny', centMany: 'pence' },
    '¥': { one: 'yen', many: 'yen', centOne: '', centMany: '' },
    '₩': { one: 'won', many: 'won', centOne: '', centMany: '' },
    '₫': { one: 'dong', many: 'dong', centOne: '', centMany: '' },
  },
  fr: {
    $: { one: 'dollar', many: 'dollars', centOne: 'cent', centMany: 'cents' },
    '€': { one: 'euro', many: 'euros', centOne: 'centime', centMany: 'centimes' },
    '£': { one: 'livre', many: 'livres', centOne: 'penny', centMany: 'pence' },
    '¥': { one: 'yen', many: 'yens', centOne: '', centMany: '' },
    '₩': { one: 'won', many: 'wons', centOne: '', centMany: '' },
    '₫': { one: 'dong', many: 'dongs', centOne: '', centMany: '' },
  },
  es: {
    $: { one: 'dólar', many: 'dólares', centOne: 'centavo', centMany: 'centavos' },
    '€': { one: 'euro', many: 'euros', centOne: 'céntimo', centMany: 'céntimos' },
    '£': { one: 'libra', many: 'libras', centOne: 'penique', centMany: 'peniques' },
    '¥': { one: 'yen', many: 'yenes', centOne: '', centMany: '' },
    '₩': { one: 'won', many: 'wones', centOne: '', centMany: '' },
    '₫': { one: 'dong', many: 'dongs', centOne: '', centMany: '' },
  },
  vi: {
    $: { one: 'đô la', many: 'đô la', centOne: 'xu', centMany: 'xu' },
    '€': { one: 'euro', many: 'euro', centOne: 'xu', centMany: 'xu' },
    '£': { one: 'bảng Anh', many: 'bảng Anh', centOne: 'xu', centMany: 'xu' },
    '¥': { one: 'yên', many: 'yên', centOne: '', centMany: '' },
    '₩': { one: 'won', many: 'won', centOne: '', centMany: '' },
    '₫': { one: 'đồng', many: 'đồng', centOne: '', centMany: '' },
  },
  zh: {
    $: { one: '美元', many: '美元', centOne: '', centMany: '' },
    '€': { one: '欧元', many: '欧元', centOne: '', centMany: '' },
    '£': { one: '英镑', many: '英镑', centOne: '', centMany: '' },
    '¥': { one: '元', many: '元', centOne: '', centMany: '' },
    '₩': { one: '韩元', many: '韩元', centOne: '', centMany: '' },
    '₫': { one: '越南盾', many: '越南盾', centOne: '', centMany: '' },
  },
  ko: {
    $: { one: '달러', many: '달러', centOne: '', centMany: '' },
    '€': { one: '유로', many: '유로', centOne: '', centMany: '' },
    '£': { one: '파운드', many: '파운드', centOne: '', centMany: '' },
    '¥': { one: '엔', many: '엔', centOne: '', centMany: '' },
    '₩': { one: '원', many: '원', centOne: '', centMany: '' },
    '₫': { one: '동', many: '동', centOne: '', centMany: '' },
  },
  ja: {
    $: { one: 'ドル', many: 'ドル', centOne: '', centMany: '' },
    '€': { one: 'ユーロ', many: 'ユーロ', centOne: '', centMany: '' },
    '£': { one: 'ポンド', many: 'ポンド', centOne: '', centMany: '' },
    '¥': { one: 'えん', many: 'えん', centOne: '', centMany: '' },
    '₩': { one: 'ウォン', many: 'ウォン', centOne: '', centMany: '' },
    '₫': { one: 'ドン', many: 'ドン', centOne: '', centMany: '' },
  },
};

const EN_SCALES = '(?:thousand|million|billion|trillion|k|bn)';

/** Splits "1,234.50" into integer digits and (optionally) two cent digits, by the last separator. */
function parseAmount(amount: string): { whole: string; cents?: string } {
  const m = /^(.*?)[.,](\d{1,2})$/.exec(amount);
  if (m && m[1] !== undefined && m[2] !== undefined)
    return { whole: m[1].replace(/\D/g, '') || '0', cents: m[2].padEnd(2, '0') };
  return { whole: amount.replace(/\D/g, '') };
}

function sayMoney(
  amount: string,
  symbol: Currency,
  scale: string | undefined,
  language: LanguageCode,
): string {
  const words = CURRENCY[language][symbol];
  const cjk = language === 'zh' || language === 'ko' || language === 'ja';
  if (scale) {
    const spokenScale = scale === 'k' ? 'thousand' : scale === 'bn' ? 'billion' : scale;
    return `${amount.replace(/,/g, '')} ${spokenScale} ${words.many}`;
  }
  const { whole, cents } = parseAmount(amount);
  const wholeSpoken = language === 'vi' ? vietnameseNumber(whole) : stripZeros(whole);
  const isOne = stripZeros(whole) === '1';
  if (cjk) return `${stripZeros(whole)}${cents && cents !== '00' ? `.${cents}` : ''}${words.many}`;
  if (!cents || cents === '00') {
    if (language === 'es' && isOne) return `un ${words.one}`;
    return `${wholeSpoken} ${isOne ? words.one : words.many}`;
  }
  const c = Number(cents);
  if (language === 'vi' || !words.centMany) return `${wholeSpoken},${cents} ${words.many}`;
  const centWords = `${c} ${c === 1 ? words.centOne : words.centMany}`;
  if (whole === '0' && language === 'en') return centWords;
  const main =
    language === 'es' && isOne ? `un ${words.one}` : `${wholeSpoken} ${isOne ? words.one : words.many}`;
  switch (language) {
    case 'en':
      return `${main} and ${centWords}`;
    case 'fr':
      return `${main} ${c}`;
    case 'es':
      return `${main} con ${c}`;
    default:
      return `${main} ${centWords}`;
  }
}

function toCurrency(symbol: string): Currency {
  if (symbol === '￥') return '¥';
  return symbol as Currency;
}

const currencyBeforeRule: Rule = {
  // $5, €20, £3.50, ¥100, US$5, $3 million: eSpeak reads "dollar five".
  pattern: `(?<![A-Za-z0-9])(?:US|C|A|HK|NZ)?([$€£¥￥₩₫])[ \\u00A0\\u202F]?(${AMOUNT})(?:[ \\u00A0\\u202F]?(${EN_SCALES}))?${WORD_END}`,
  rewrite([whole, symbol, amount, scale], ctx) {
    if (!whole || !symbol || !amount) return undefined;
    const useScale = ctx.language === 'en' ? scale : undefined;
    const spoken = sayMoney(amount, toCurrency(symbol), useScale, ctx.language);
    const scaleText = scale !== undefined && !useScale ? whole.slice(whole.lastIndexOf(scale)) : '';
    return scaleText ? `${spoken.replace(/\s*$/, '')} ${scaleText}` : spoken;
  },
};

const currencyAfterRule: Rule = {
  // 5 €, 5,50 €, 50.000đ, 50.000 VND
  pattern: `${NUM_START}(${AMOUNT})[ \\u00A0\\u202F]?([$€£¥￥₩₫]|đ|VNĐ|VND|vnđ|vnd)${WORD_END}`,
  rewrite([whole, amount, symbol], ctx) {
    if (!whole || !amount || !symbol) return undefined;
    const normalized = /^[$€£¥￥₩₫]$/u.test(symbol) ? toCurrency(symbol) : '₫';
    return sayMoney(amount, normalized, undefined, ctx.language);
  },
};

const percentRule: Rule = {
  // eSpeak's Chinese, Korean and Japanese voices say "percent" in English.
  pattern: `${NUM_START}(\\d+(?:[.,]\\d+)?)[ \\u00A0\\u202F]?[%％]`,
  rewrite([whole, n], ctx) {
    if (!whole || !n) return undefined;
    switch (ctx.language) {
      case 'zh':
        return [piece('百分之', n.length, whole.length), piece(n, 0, n.length)];
      case 'ko':
        return [piece(n, 0, n.length), piece('퍼센트', n.length, whole.length)];
      case 'ja':
        return [piece(n, 0, n.length), piece('パーセント', n.length, whole.length)];
      default:
        return undefined;
    }
  },
};

const vietnameseNumberRule: Rule = {
  pattern: `${NUM_START}([1-9]\\d{0,2}(?:\\.\\d{3})+|[1-9]\\d{3,17})${NUM_END}`,
  rewrite([whole]) {
    if (!whole) return undefined;
    const spoken = vietnameseNumber(whole);
    return spoken === whole.replace(/\D/g, '') ? undefined : spoken;
  },
};

const DECADES = [
  '',
  'tens',
  'twenties',
  'thirties',
  'forties',
  'fifties',
  'sixties',
  'seventies',
  'eighties',
  'nineties',
];

const englishDecadeRule: Rule = {
  // "1990s" is read "nineteen hundred ninety z", "'90s" "ninety z".
  pattern: `(?<![\\p{L}\\p{N}'’])(?:(1\\d|20)|['’])(\\d)0s${WORD_END}`,
  rewrite([whole, century, decade]) {
    if (!whole || decade === undefined) return undefined;
    const d = Number(decade);
    if (century === undefined) return d >= 2 ? DECADES[d] : undefined;
    if (d === 0) return century === '20' ? 'two thousands' : `${century} hundreds`;
    return `${century} ${DECADES[d]}`;
  },
};

const RANGE_WORDS: Partial<Record<LanguageCode, string>> = {
  en: ' to ',
  fr: ' à ',
  es: ' a ',
  vi: ' đến ',
  zh: '至',
};

const rangeRule: Rule = {
  // 10–20: eSpeak drops the en dash and reads "ten twenty".
  pattern: '(?<=\\p{N})[ \\u00A0\\u202F]?[–—][ \\u00A0\\u202F]?(?=\\p{N})',
  rewrite(_groups, ctx) {
    return RANGE_WORDS[ctx.language];
  },
};

// --- Characters the engine must not see ----------------------------------------------

const AND_WORDS: Record<LanguageCode, string> = {
  en: ' and ',
  fr: ' et ',
  es: ' y ',
  vi: ' và ',
  zh: '和',
  ko: ' 앤드 ',
  ja: ' アンド ',
};

interface ComparisonWords {
  lt: string;
  gt: string;
  le: string;
  ge: string;
}

const COMPARISON: Partial<Record<LanguageCode, ComparisonWords>> = {
  en: { lt: 'less than', gt: 'greater than', le: 'less than or equal to', ge: 'greater than or equal to' },
  fr: { lt: 'inférieur à', gt: 'supérieur à', le: 'inférieur ou égal à', ge: 'supérieur ou égal à' },
  es: { lt: 'menor que', gt: 'mayor que', le: 'menor o igual que', ge: 'mayor o igual que' },
  vi: { lt: 'nhỏ hơn', gt: 'lớn hơn', le: 'nhỏ hơn hoặc bằng', ge: 'lớn hơn hoặc bằng' },
  zh: { lt: '小于', gt: '大于', le: '小于等于', ge: '大于等于' },
};

const comparisonRule: Rule = {
  // "1 < 2", "x >= 3": a comparison stands between spaces or digits.
  pattern: '(?<=[\\s\\p{N}]|^)(<=|>=|<|>)(?=[\\s\\p{N}]|$)',
  rewrite([op], ctx) {
    const words = COMPARISON[ctx.language];
    if (!words || !op) return ' ';
    const word = op === '<' ? words.lt : op === '>' ? words.gt : op === '<=' ? words.le : words.ge;
    return ` ${word} `;
  },
};

const htmlTagRule: Rule = {
  // Pasted HTML: eSpeak would have skipped the tag silently, so a reader expects it gone.
  pattern: '</?[A-Za-z][\\w:-]*(?:\\s[^<>]*)?/?>',
  rewrite() {
    return ' ';
  },
};

const markupRule: Rule = {
  // The engine runs in SSML mode: "<" starts a tag that can swallow the rest of the text,
  // "&" an entity. Anything that is not a comparison or a conjunction is dropped.
  pattern: '[<>]+',
  rewrite() {
    return ' ';
  },
};

const ampersandRule: Rule = {
  pattern: '&',
  rewrite(_groups, ctx) {
    return AND_WORDS[ctx.language];
  },
};

const emojiRule: Rule = {
  // Emoji are read by their English names ("grinning face"), which a narrator would not say.
  // Text-style symbols (© ™ ↔) stay: eSpeak names them sensibly.
  pattern:
    '\\p{Regional_Indicator}+|(?:\\p{Emoji_Presentation}|\\p{Extended_Pictographic}\\uFE0F)(?:\\p{Emoji_Modifier}|\\uFE0F|[\\u{E0020}-\\u{E007F}])*(?:\\u200D(?:\\p{Extended_Pictographic}|\\p{Emoji_Presentation})(?:\\p{Emoji_Modifier}|\\uFE0F)*)*|\\uFE0F?\\u20E3',
  rewrite(groups) {
    // A keycap's digit stays; only the keycap marks go.
    return groups[0]?.startsWith('\u20E3') || groups[0]?.startsWith('\uFE0F') ? '' : ' ';
  },
};

const markdownRule: Rule = {
  // "**bold**" is read "asterisk asterisk", "# Title" "hash title".
  pattern: '\\*+|(?<=^|\\n)[ \\t]*#{1,6}(?=[ \\t])',
  rewrite() {
    return ' ';
  },
};

// --- Abbreviations ---------------------------------------------------------------------

interface AbbreviationEntry {
  /** What the engine reads instead. */
  say: string;
  /** Only before a capitalised name ("Dr. Smith"). */
  title?: boolean;
  /** Only before a number ("No. 5"). */
  beforeDigit?: boolean;
  /** Not right after a capitalised word ("Main St." is a street). */
  notAfterName?: boolean;
  /** Often ends a sentence ("Smith Jr."): keep a full stop when a new sentence or line follows. */
  canEnd?: boolean;
}

/** Builds a rule from a table of abbreviations; the full stop is dropped unless the entry `canEnd` a sentence and does. */
function abbreviationRule(table: Record<string, AbbreviationEntry>): Rule {
  const keys = Object.keys(table).sort((a, b) => b.length - a.length);
  const escaped = keys.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s?'));
  // Entries are looked up without their spaces: "p. ex." and "p.ex." are the same.
  const byKey = new Map(Object.entries(table).map(([k, v]) => [k.replace(/\s/g, ''), v]));
  return {
    pattern: `(?<![\\p{L}\\p{N}.])(?:${escaped.join('|')})(?![\\p{L}\\p{N}])`,
    rewrite([whole], ctx) {
      if (!whole) return undefined;
      const entry = byKey.get(whole.replace(/\s/g, ''));
      if (!entry) return undefined;
      if (
        entry.notAfterName &&
        /\p{Lu}\p{L}*[ \u00A0]+$/u.test(ctx.input.slice(Math.max(0, ctx.index - 24), ctx.index))
      )
        return undefined;
      const rest = ctx.input.slice(ctx.end, ctx.end + 4);
      if (entry.title && !/^[ \u00A0]+\p{Lu}/u.test(rest)) return undefined;
      if (entry.beforeDigit && !/^[ \u00A0]*\p{N}/u.test(rest)) return undefined;
      return entry.canEnd && whole.endsWith('.') ? `${entry.say}${periodIfSentenceEnd(ctx)}` : entry.say;
    },
  };
}

/*
 * Each entry was checked against eSpeak NG: it reads the left side wrongly (letters, the
 * wrong word, or a sentence break after a title). eSpeak already reads "e.g.", "etc.",
 * "a.m.", "p.m.", "U.S.", "Ltd.", "Dept.", "Mrs", "St." after a street name, "Mme",
 * "Dr" (French) and "Ud." correctly, so they are not here.
 */
const EN_ABBREVIATIONS = abbreviationRule({
  // eSpeak knows these words but treats the full stop before a name as a sentence end.
  'Dr.': { say: 'Dr', title: true },
  'Mr.': { say: 'Mr', title: true },
  'Mrs.': { say: 'Mrs', title: true },
  // "Main St. Then" is a street: eSpeak reads that "street" itself.
  'St.': { say: 'Saint', title: true, notAfterName: true },
  'Ms.': { say: 'Miz', title: true },
  'Prof.': { say: 'Professor', title: true },
  'Gen.': { say: 'General', title: true },
  'Capt.': { say: 'Captain', title: true },
  'Lt.': { say: 'Lieutenant', title: true },
  'Sgt.': { say: 'Sergeant', title: true },
  'Rev.': { say: 'Reverend', title: true },
  'Mt.': { say: 'Mount', title: true },
  'No.': { say: 'number', beforeDigit: true },
  'Nos.': { say: 'numbers', beforeDigit: true },
  'Fig.': { say: 'figure', beforeDigit: true },
  'fig.': { say: 'figure', beforeDigit: true },
  'Vol.': { say: 'volume', beforeDigit: true },
  'vol.': { say: 'volume', beforeDigit: true },
  'Ch.': { say: 'chapter', beforeDigit: true },
  'ch.': { say: 'chapter', beforeDigit: true },
  'Jr.': { say: 'Junior', canEnd: true },
  'Sr.': { say: 'Senior', canEnd: true },
  'Inc.': { say: 'Incorporated', canEnd: true },
  'Ave.': { say: 'Avenue', canEnd: true },
  'Rd.': { say: 'Road', canEnd: true },
  'vs.': { say: 'versus' },
  vs: { say: 'versus' },
  'approx.': { say: 'approximately' },
  'i.e.': { say: 'that is' },
  'Ph.D.': { say: 'PhD' },
});

const FR_ABBREVIATIONS = abbreviationRule({
  'M.': { say: 'Monsieur', title: true },
  'MM.': { say: 'Messieurs', title: true },
  'p. ex.': { say: 'par exemple' },
  'c.-à-d.': { say: "c'est-à-dire" },
});

const ES_ABBREVIATIONS = abbreviationRule({
  'Sr.': { say: 'Sr', title: true },
  'Sra.': { say: 'Sra', title: true },
  'Srta.': { say: 'Srta', title: true },
  'Dr.': { say: 'Dr', title: true },
  'Dra.': { say: 'Dra', title: true },
  'etc.': { say: 'etcétera', canEnd: true },
  'p. ej.': { say: 'por ejemplo' },
  'EE. UU.': { say: 'Estados Unidos', canEnd: true },
  'núm.': { say: 'número', beforeDigit: true },
});

const VI_ABBREVIATIONS = abbreviationRule({
  'TP.HCM': { say: 'thành phố Hồ Chí Minh' },
  'TP. HCM': { say: 'thành phố Hồ Chí Minh' },
  'Tp.HCM': { say: 'thành phố Hồ Chí Minh' },
  TPHCM: { say: 'thành phố Hồ Chí Minh' },
  'TP.': { say: 'thành phố', title: true },
  'Tp.': { say: 'thành phố', title: true },
  'v.v.': { say: 'vân vân', canEnd: true },
  'ThS.': { say: 'thạc sĩ', title: true },
  'TS.': { say: 'tiến sĩ', title: true },
  'PGS.': { say: 'phó giáo sư', title: true },
  'GS.': { say: 'giáo sư', title: true },
  'BS.': { say: 'bác sĩ', title: true },
});

const ABBREVIATION_RULES: Partial<Record<LanguageCode, Rule>> = {
  en: EN_ABBREVIATIONS,
  fr: FR_ABBREVIATIONS,
  es: ES_ABBREVIATIONS,
  vi: VI_ABBREVIATIONS,
};

const japaneseMarksRule: Rule = {
  // eSpeak's Japanese voice reads ・ 〜 ゝ ゞ and a lone ー as "Japanese letter".
  pattern: '(?<=\\p{N})[〜～~](?=\\p{N})|[・〜～ゝゞ]|(?<![\\p{Script=Katakana}\\p{Script=Hiragana}])ー',
  rewrite([mark], ctx) {
    const between = /\p{N}/u.test(ctx.input[ctx.index - 1] ?? '') && /\p{N}/u.test(ctx.input[ctx.end] ?? '');
    return mark !== undefined && /^[〜～~]$/u.test(mark) && between ? 'から' : ' ';
  },
};

/** Rules in priority order: at one position, the first that matches wins. */
function rulesFor(language: LanguageCode): Rule[] {
  const rules: Rule[] = [emojiRule];
  const abbreviations = ABBREVIATION_RULES[language];
  if (abbreviations) rules.push(abbreviations);
  rules.push(isoDateRule, numericDateRule);
  if (language === 'en') rules.push(englishMonthDayRule, englishDecadeRule);
  if (language === 'vi') rules.push(vietnameseDayMonthRule);
  if (language === 'fr') rules.push(frenchHourRule);
  rules.push(timeRule, currencyBeforeRule, currencyAfterRule, percentRule);
  if (language === 'vi') rules.push(vietnameseNumberRule);
  if (language === 'ja') rules.push(japaneseMarksRule);
  rules.push(rangeRule, htmlTagRule, comparisonRule, markupRule, ampersandRule, markdownRule);
  return rules;
}
