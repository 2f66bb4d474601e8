/**
 * Piper's model input from eSpeak's phonemes, as Piper builds it (rhasspy/piper-phonemize
 * `phonemize.cpp` and `phoneme_ids.cpp`, OHF-Voice/piper1-gpl `phonemize_espeak.py` and
 * `phoneme_ids.py`), with the ids of every word of the text so word timings can be read
 * from the model's per-id durations.
 *
 * Phonemes: per sentence, each clause's words (eSpeak IPA, NFD, split into code points),
 * a space between words, then the clause's terminator as eSpeak classifies it (`.` `?` `!`
 * end the sentence; `,` `:` `;` are followed by a space). Ids: `^`, `_`, then each phoneme's
 * id(s) followed by `_`, then `$`; a phoneme missing from the voice's `phoneme_id_map` is
 * skipped and reported. One deliberate difference: between two clauses that end without a
 * terminator (an ellipsis, a full-width comma, a dash Piper does not know) this module keeps
 * a space, where piper1-gpl joins the two clauses' phonemes into one word.
 *
 * Word spans: eSpeak's phoneme words are matched to the text's words clause by clause (see
 * `alignClauseWords`): 1:1 in order when the counts agree, else by comparing eSpeak's
 * reading of each text word on its own with what it read in the clause.
 */

import type { PhonemeClause, TextWord } from '../espeak/protocol';

/** A voice's `phoneme_id_map`: phoneme (one code point, or a few) → id(s). */
export type PhonemeIdMap = Readonly<Record<string, readonly number[]>>;

/** A voice's optional `phoneme_map` (piper-phonemize): phoneme → the phonemes to use instead. */
export type PhonemeMap = Readonly<Record<string, readonly string[]>>;

/** A word of the text and the model ids that speak it. */
export interface WordSpan {
  /** 1-based position of the word in code points of the text (as eSpeak's `RawWordEvent`). */
  textPosition: number;
  /** Length of the word in code points. */
  wordLength: number;
  /** Index in `ids` of the first id of the word's first phoneme. */
  firstId: number;
  /** Ids from `firstId` through the pad after the word's last phoneme; 0 when none could be given. */
  idCount: number;
}

/** One Piper model call: a sentence's ids and the words they speak. */
export interface PiperSentenceInput {
  ids: number[];
  words: WordSpan[];
  /** Phonemes skipped because the voice's map lacks them, one entry per occurrence. */
  missing: string[];
}

const PAD = '_';
const BOS = '^';
const EOS = '$';

/**
 * Piper's ids for one sentence's phonemes: `^`, `_`, then each phoneme's ids followed by `_`,
 * then `$` (piper-phonemize `phonemes_to_ids` with pad, BOS and EOS). Phonemes the map lacks
 * are skipped and returned in `missing` (one entry per occurrence).
 */
export function phonemesToPiperIds(
  phonemes: readonly string[],
  phonemeIdMap: PhonemeIdMap,
): { ids: number[]; missing: string[] } {
  const builder = new PiperIds(phonemeIdMap);
  for (const phoneme of phonemes) builder.add(phoneme);
  return builder.finish();
}

/** Builds a sentence's ids phoneme by phoneme, telling where each phoneme's ids sit. */
class PiperIds {
  readonly ids: number[] = [];
  readonly missing: string[] = [];
  private readonly pad: readonly number[];
  private readonly eos: readonly number[];

  constructor(private readonly map: PhonemeIdMap) {
    this.pad = required(map, PAD);
    this.eos = required(map, EOS);
    this.ids.push(...required(map, BOS), ...this.pad);
  }

  /** Adds one phoneme and its pad; returns the range of ids it took ([start, start) when skipped). */
  add(phoneme: string): IdRange {
    const start = this.ids.length;
    const mapped = this.map[phoneme];
    if (mapped === undefined) {
      this.missing.push(phoneme);
    } else {
      this.ids.push(...mapped, ...this.pad);
    }
    return { start, end: this.ids.length };
  }

  finish(): { ids: number[]; missing: string[] } {
    this.ids.push(...this.eos);
    return { ids: this.ids, missing: this.missing };
  }
}

function required(map: PhonemeIdMap, symbol: string): readonly number[] {
  const ids = map[symbol];
  if (ids === undefined || ids.length === 0) {
    throw new RangeError(`phoneme_id_map has no "${symbol}"`);
  }
  return ids;
}

/** Ids [start, end) of one phoneme (or token) in a model input. */
export interface IdRange {
  start: number;
  end: number;
}

/**
 * Piper's input for a piece of text from the clauses `WorkerPool.phonemize` gave for it: one
 * entry per sentence (Piper runs the model once per sentence), each with the ids and the span
 * of ids of every word of the text. `text` must be the text that was phonemised, and
 * positions refer to it (1-based code points, like eSpeak's word events).
 */
export function piperInput(
  text: string,
  clauses: readonly PhonemeClause[],
  phonemeIdMap: PhonemeIdMap,
  options: { phonemeMap?: PhonemeMap } = {},
): PiperSentenceInput[] {
  const cps = Array.from(text);
  const sentences: PiperSentenceInput[] = [];
  let builder: PiperIds | undefined;
  let words: WordSpan[] = [];
  const expand = (phoneme: string): readonly string[] => options.phonemeMap?.[phoneme] ?? [phoneme];

  clauses.forEach((clause, index) => {
    builder ??= new PiperIds(phonemeIdMap);
    const b = builder;
    const wordSlots = clause.words.map((word, w) => {
      if (w > 0) b.add(' ');
      const slots: IdRange[] = [];
      for (const unit of word) {
        for (const cp of unit) for (const phoneme of expand(cp)) slots.push(b.add(phoneme));
      }
      return slots;
    });
    words.push(...alignClauseWords(clause, wordSlots, cps));

    const last = index === clauses.length - 1;
    if (clause.terminator) b.add(clause.terminator);
    if (clause.terminator === ',' || clause.terminator === ':' || clause.terminator === ';') b.add(' ');
    else if (!clause.terminator && !clause.endsSentence && !last) b.add(' ');
    if (clause.endsSentence || last) {
      const { ids, missing } = b.finish();
      sentences.push({ ids, words, missing });
      builder = undefined;
      words = [];
    }
  });
  return sentences;
}

/**
 * Places a clause's text words on the ids of eSpeak's words for it. `wordSlots` holds, per
 * eSpeak word of `clause.words`, the id range of each of its phonemes (or tokens); a text
 * word gets the ids from its first phoneme through its last phoneme's pad.
 *
 * - Same count: word i of the text gets eSpeak word i.
 * - Different counts (eSpeak merges "in the" into "ɪnðə", reads "1984" as three words, or
 *   reads a symbol the text has no word for): the words are placed by their phonemes. The
 *   worker then gives each text word eSpeak's reading of it on its own (`TextWord.phonemes`);
 *   a dynamic programme pairs runs of text words with runs of eSpeak words (one text word
 *   with one or more eSpeak words, or several text words with one eSpeak word), choosing the
 *   pairing whose readings differ least (edit distance over phonemes, stress marks ignored,
 *   plus 1 for every pair that is not one to one). Text words that share one eSpeak word
 *   split its phonemes in proportion to their own phoneme counts.
 *
 * Limits: in the unequal case a reading that depends on context ("25 000" in French is one
 * number, "000" alone is not) gives its words a rough share; a text word eSpeak did not read
 * still gets a phoneme; words of scripts written without spaces are whole runs. Without
 * `TextWord.phonemes` the expected readings fall back to the words' lengths (a letter 1
 * phoneme, a digit 4, a CJK character 2).
 */
export function alignClauseWords(
  clause: Pick<PhonemeClause, 'words' | 'textWords'>,
  wordSlots: ReadonlyArray<readonly IdRange[]>,
  cps?: readonly string[],
): WordSpan[] {
  const words = clause.textWords;
  const slots = wordSlots.flat();
  const spanOf = (from: number, to: number): { firstId: number; idCount: number } => {
    if (to <= from) {
      const at = slots[from]?.start ?? slots[slots.length - 1]?.end ?? 0;
      return { firstId: at, idCount: 0 };
    }
    const first = slots[from]?.start ?? 0;
    return { firstId: first, idCount: (slots[to - 1]?.end ?? first) - first };
  };
  const n = words.length;
  const m = wordSlots.length;
  const place = (word: TextWord, from: number, to: number): WordSpan => ({
    textPosition: word.textPosition,
    wordLength: word.wordLength,
    ...spanOf(from, to),
  });
  // Slot offsets of eSpeak's words: word j takes slots [offset[j], offset[j + 1]).
  const offset = [0];
  for (const word of wordSlots) offset.push((offset[offset.length - 1] ?? 0) + word.length);
  if (n === 0) return [];
  if (n === m) return words.map((word, i) => place(word, offset[i] ?? 0, offset[i + 1] ?? 0));
  if (m === 0) return words.map((word) => place(word, 0, 0));

  // What each side reads, stress marks left out, as code points.
  const heard = clause.words.map((units) => codes(units.join('')));
  const expected = words.map((w) =>
    w.phonemes !== undefined
      ? codes(w.phonemes.replace(/\s+/gu, ''))
      : new Array<number>(expectedLength(w, cps)).fill(0x3f),
  );
  const maxText = Math.max(4, Math.ceil(n / m));
  const maxEspeak = Math.max(16, Math.ceil(m / n));
  const width = m + 1;
  // Where each word starts in phonemes, the text's side scaled to eSpeak's total: pairs far
  // from the diagonal are not tried (first within a band, then, if that finds nothing, all).
  const heardAt = [0];
  for (const h of heard) heardAt.push((heardAt[heardAt.length - 1] ?? 0) + h.length);
  const saidAt = [0];
  for (const e of expected) saidAt.push((saidAt[saidAt.length - 1] ?? 0) + e.length);
  const totalHeard = heardAt[m] ?? 0;
  const ratio = totalHeard / Math.max(1, saidAt[n] ?? 0);
  // cost[i·width + j]: least cost of pairing the first i text words with the first j eSpeak
  // words; back[…]: the sizes of the last pair's runs (text words · 65536 + eSpeak words).
  const cost = new Float64Array((n + 1) * width);
  const back = new Int32Array((n + 1) * width);
  const relax = (from: number, a: number, b: number, c: number): void => {
    const at = from + a * width + b;
    if (c < (cost[at] ?? Number.POSITIVE_INFINITY)) {
      cost[at] = c;
      back[at] = a * 65536 + b;
    }
  };
  const distances = new Distances();
  for (const band of [16 + 0.1 * totalHeard, Number.POSITIVE_INFINITY]) {
    cost.fill(Number.POSITIVE_INFINITY);
    cost[0] = 0;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < m; j++) {
        const from = i * width + j;
        const here = cost[from] ?? Number.POSITIVE_INFINITY;
        if (here === Number.POSITIVE_INFINITY) continue;
        if (Math.abs((saidAt[i] ?? 0) * ratio - (heardAt[j] ?? 0)) > band) continue;
        // One text word read as eSpeak words j … j + b − 1.
        const said = expected[i] ?? [];
        distances.toRuns(said, heard, j, Math.min(maxEspeak, m - j), (d, b) =>
          relax(from, 1, b, here + d + b - 1),
        );
        // Text words i … i + a − 1 read as eSpeak word j.
        let joined = said;
        for (let a = 2; a <= maxText && i + a <= n; a++) {
          joined = joined.concat(expected[i + a - 1] ?? []);
          distances.toRuns(joined, heard, j, 1, (d) => relax(from, a, 1, here + d + a - 1));
        }
      }
    }
    if ((cost[n * width + m] ?? Number.POSITIVE_INFINITY) < Number.POSITIVE_INFINITY) break;
  }
  const groups: Array<{ i: number; a: number; j: number; b: number }> = [];
  for (let i = n, j = m; i > 0 && j > 0;) {
    const code = back[i * width + j] ?? 0;
    const a = Math.floor(code / 65536);
    const b = code % 65536;
    if (a === 0 || b === 0) break;
    groups.unshift({ i: i - a, a, j: j - b, b });
    i -= a;
    j -= b;
  }
  const spans: WordSpan[] = [];
  for (const g of groups) {
    const from = offset[g.j] ?? 0;
    const to = offset[g.j + g.b] ?? from;
    // Several text words read as one eSpeak word share its phonemes by their own lengths.
    const shares = expected.slice(g.i, g.i + g.a).map((e) => Math.max(1, Array.from(e).length));
    const sum = shares.reduce((x, y) => x + y, 0);
    let cut = from;
    let before = 0;
    words.slice(g.i, g.i + g.a).forEach((word, k) => {
      before += shares[k] ?? 0;
      const wordsAfter = g.a - 1 - k;
      const proportional = from + Math.round(((to - from) * before) / sum);
      const end = wordsAfter === 0 ? to : Math.max(cut + 1, Math.min(to - wordsAfter, proportional));
      const clamped = Math.min(to, Math.max(cut, end));
      spans.push(place(word, cut, clamped));
      cut = clamped;
    });
  }
  return spans;
}

/** Code points of IPA, stress marks left out. */
function codes(phonemes: string): number[] {
  const out: number[] = [];
  for (const c of phonemes) if (c !== 'ˈ' && c !== 'ˌ') out.push(c.codePointAt(0) ?? 0);
  return out;
}

/** Edit distances (Levenshtein, over code points) with reused buffers. */
class Distances {
  private column = new Int32Array(LONGEST + 1);
  private next = new Int32Array(LONGEST + 1);

  /**
   * Calls `found(d, b)` with the distance between `said` and the reading of words[first] …
   * words[first + b − 1], for b = 1 … count: one pass over their concatenation, read at each
   * word's end, stopping once the reading is so much longer than `said` that no pairing
   * could be good. Both sides are cut to LONGEST code points.
   */
  toRuns(
    said: readonly number[],
    words: ReadonlyArray<readonly number[]>,
    first: number,
    count: number,
    found: (d: number, b: number) => void,
  ): void {
    const length = Math.min(said.length, LONGEST);
    let column = this.column;
    let next = this.next;
    for (let r = 0; r <= length; r++) column[r] = r;
    let read = 0;
    for (let b = 1; b <= count; b++) {
      for (const y of words[first + b - 1] ?? []) {
        if (read >= LONGEST) break;
        read++;
        next[0] = read;
        for (let r = 1; r <= length; r++) {
          const substitution = (column[r - 1] ?? 0) + (said[r - 1] === y ? 0 : 1);
          next[r] = Math.min((column[r] ?? 0) + 1, (next[r - 1] ?? 0) + 1, substitution);
        }
        [column, next] = [next, column];
      }
      found(column[length] ?? 0, b);
      if (read > 2 * length + 8) break;
    }
    this.column = column;
    this.next = next;
  }
}

/** Longest reading compared, code points. */
const LONGEST = 128;

const DIGIT = /\p{N}/u;
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const LETTER = /[\p{L}\p{M}]/u;

/** Without eSpeak's reading, how many phonemes a text word may take: 1 a letter, 4 a digit, 2 a CJK character. */
function expectedLength(word: TextWord, cps?: readonly string[]): number {
  if (!cps) return word.wordLength;
  let sum = 0;
  for (let k = word.textPosition - 1; k < word.textPosition - 1 + word.wordLength; k++) {
    const c = cps[k] ?? '';
    sum += DIGIT.test(c) ? 4 : WIDE.test(c) ? 2 : LETTER.test(c) ? 1 : 0;
  }
  return Math.max(1, sum);
}
