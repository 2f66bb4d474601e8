/**
 * Cutting cleaned text into chunks the engine synthesises one at a time: a chunk per
 * sentence, long sentences cut at clauses, then words, then graphemes, and the pause that
 * follows each chunk.
 *
 * Offsets are UTF-16 code-unit offsets (JavaScript string indexes), as everywhere in the
 * engine (see `../types`).
 */

import type { LanguageCode, TextChunk } from '../types';
import { isAbbreviation } from './abbreviations';
import { isSpaceCode } from './spaces';
import { hasSpeakableContent } from '../../../shared/text';

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
  /**
   * Cut the first sentence after its first clause mark (, ; : — – 、，；：) as well, however
   * short it is, so the first chunk is the shortest and its audio comes soonest (auditions).
   */
  firstClauseAlone?: boolean;
  /**
   * More words after which a full stop does not end a sentence, beside `ABBREVIATIONS` (lower
   * case, without the stop): the abbreviations of the user's lexicon (`CompiledLexicon`).
   */
  abbreviations?: ReadonlySet<string> | undefined;
}

/** Default longest chunk, UTF-16 code units. */
const DEFAULT_MAX_CHARS = 300;
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
 * Cuts cleaned text (`cleanText` in electron/shared/text) into chunks, lazily: a chunk per sentence, in order.
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
  let cutFirst = options.firstClauseAlone === true;
  for (const block of scanBlocks(text)) {
    const s = text.slice(block.start, block.end);
    for (const whole of piecesOf(s, block, maxChars, options.abbreviations)) {
      const pieces = cutFirst ? firstClauseApart(s, whole) : [whole];
      cutFirst &&= !hasSpeakableContent(s.slice(whole.start, whole.end));
      for (const piece of pieces) {
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
function* piecesOf(
  s: string,
  block: Block,
  maxChars: number,
  abbreviations: ReadonlySet<string> | undefined,
): Generator<Piece> {
  const sentences = scanSentences(s, abbreviations);
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

/** Sentence ranges of a trimmed block, each trimmed, covering all of its non-space text. */
function* scanSentences(
  s: string,
  abbreviations: ReadonlySet<string> | undefined,
): Generator<{ start: number; end: number }> {
  let sentenceStart = 0;
  const re = new RegExp(TERMINATOR_RE.source, 'gu');
  let m: RegExpExecArray | null;
  while ((m = re.exec(s)) !== null) {
    let after = m.index + m[0].length;
    while (after < s.length && CLOSERS.has(s[after] as string)) after++;
    if (!endsSentence(s, sentenceStart, m.index, m[0], after, abbreviations)) continue;
    yield { start: sentenceStart, end: after };
    sentenceStart = after;
    while (sentenceStart < s.length && isSpaceCode(s.charCodeAt(sentenceStart))) sentenceStart++;
    re.lastIndex = sentenceStart;
    if (sentenceStart >= s.length) return;
  }
  if (sentenceStart < s.length) yield { start: sentenceStart, end: s.length };
}

function endsSentence(
  s: string,
  sentenceStart: number,
  at: number,
  run: string,
  after: number,
  abbreviations?: ReadonlySet<string>,
): boolean {
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
  if (isAbbreviation(word, abbreviations)) return false;
  const lower = word.toLowerCase();
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
      if (isClauseMark(s, k, end)) {
        cutEnd = k + 1;
        kind = 'clause';
        pause = STRONG_CLAUSE.has(s[k] as string) ? PAUSE_MS.clauseStrong : PAUSE_MS.clause;
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

/**
 * Whether `s[k]` ends a clause: , ; : before a space or the end of the piece (`end`), an em
 * dash, a spaced en dash (10–20 is a range), or a full-width mark.
 */
function isClauseMark(s: string, k: number, end: number): boolean {
  const ch = s[k] as string;
  const nextIsSpace = k + 1 >= end || isSpaceCode(s.charCodeAt(k + 1));
  if (ch === ',' || ch === ';' || ch === ':' || ch === '–') return nextIsSpace;
  return ch === '—' || ch === '、' || ch === '，' || ch === '；' || ch === '：';
}

/** `piece` cut after its first clause mark when words lie on both sides; else `piece` alone. */
function firstClauseApart(s: string, piece: Piece): Piece[] {
  for (let k = piece.start; k < piece.end - 1; k++) {
    if (!isClauseMark(s, k, piece.end)) continue;
    let rest = k + 1;
    while (rest < piece.end && isSpaceCode(s.charCodeAt(rest))) rest++;
    if (!hasSpeakableContent(s.slice(piece.start, k)) || !hasSpeakableContent(s.slice(rest, piece.end))) {
      continue;
    }
    const pause = STRONG_CLAUSE.has(s[k] as string) ? PAUSE_MS.clauseStrong : PAUSE_MS.clause;
    return [
      { start: piece.start, end: k + 1, breakAfter: 'clause', pauseAfterMs: pause },
      { ...piece, start: rest },
    ];
  }
  return [piece];
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
