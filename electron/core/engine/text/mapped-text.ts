/**
 * Engine text with a map back to the source: every UTF-16 code unit of the text the engine
 * reads knows the range of the original text it stands for, so the engine's word events
 * (code-point positions in the engine text) can be turned into source offsets for word
 * timings and subtitles. Built by the rewriting rules (`./rules`) and chained by the
 * Japanese kana stage (`./languages/ja-kana`).
 */

import type { PreparedText } from '../types';
import { isSpaceCode } from './spaces';

/** Per code unit of some text: the range of the original source it stands for. */
interface UnitSpans {
  starts: Int32Array;
  ends: Int32Array;
}

/** A PreparedText that can also feed a further rewriting stage (see `./languages/ja-kana`). */
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
