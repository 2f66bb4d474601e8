/**
 * Kokoro v1.0's model input from eSpeak's phonemes: a phoneme string whose code points are
 * looked up in the model's vocabulary (`config.json` `vocab`, symbol → id; symbols it lacks
 * are dropped, as kokoro-js and kokoro-onnx do), at most 510 ids per model call, with the ids
 * of every word of the text.
 *
 * Kokoro v1.0 was trained on misaki's phonemes, not on raw eSpeak IPA, so eSpeak's output is
 * rewritten the way misaki rewrites eSpeak (hexgrad/misaki `espeak.py`): diphthongs and
 * affricates eSpeak writes as one phoneme become misaki's single symbols (aɪ → I, aʊ → W,
 * eɪ → A, oʊ → O, əʊ → Q, ɔɪ → Y, dʒ → ʤ, tʃ → ʧ, and outside English ts → ʦ, dz → ʣ); for
 * English also misaki's fallback rules (r → ɹ, ɐ → ə, ɚ → əɹ, glottal stop → t, …; American:
 * no length marks, ɜː → ɜɹ; British: eə → ɛː). eSpeak's phoneme boundaries (the `_` it writes
 * between phonemes) stand in for the tie marks misaki asks eSpeak for. Punctuation is the
 * text's own, as kokoro-js keeps it: the clause's closing marks (full-width ones as their
 * ASCII forms, "..." as "…") and quotes or brackets opening it, then a space.
 *
 * Differences from kokoro-js, which sends eSpeak's IPA almost unchanged: the misaki rewrites
 * above; no text normalisation here (the engine's text rules already spell out numbers,
 * money and abbreviations); punctuation inside a clause (quotes around a word, brackets) is
 * not kept. Japanese and Chinese Kokoro voices expect misaki's own phonemes for those
 * languages (not eSpeak's); this module gives eSpeak's.
 */

import type { PhonemeClause } from '../espeak/protocol';
import { alignClauseWords, type IdRange, type WordSpan } from './piper-phonemes';

/** A Kokoro model's vocabulary (`config.json` `vocab`): symbol (one code point) → id. */
export type KokoroVocab = Readonly<Record<string, number>>;

/** Most ids in one Kokoro call, pads excluded (the model takes ≤ 512 with its two 0 pads). */
export const KOKORO_MAX_TOKENS = 510;

/** One Kokoro model call. */
export interface KokoroPiece {
  /** Token ids without the 0 pads: the caller sends [0, ...ids, 0], so word ids move by one. */
  ids: number[];
  /** The text's words in this call; `firstId` indexes `ids`. */
  words: WordSpan[];
  /** The phonemes the ids stand for (symbols missing from the vocabulary included). */
  phonemes: string;
  /** Phoneme symbols dropped because the vocabulary lacks them, one entry per occurrence. */
  missing: string[];
}

export interface KokoroOptions {
  /** English rewrites of misaki: `us` (American voices, `a…`) or `gb` (British, `b…`); absent: other languages. */
  english?: 'us' | 'gb';
  /** Largest call, default KOKORO_MAX_TOKENS. */
  maxTokens?: number;
}

const STRESS = /^[ˈˌ]+/u;

/** eSpeak phonemes written as one symbol by misaki, in every language (misaki EspeakG2P). */
const JOINED_ALL: Readonly<Record<string, string>> = {
  aɪ: 'I',
  aʊ: 'W',
  dz: 'ʣ',
  dʒ: 'ʤ',
  eɪ: 'A',
  oʊ: 'O',
  əʊ: 'Q',
  ss: 'S',
  ts: 'ʦ',
  tʃ: 'ʧ',
  ɔɪ: 'Y',
};
/** The same for English (misaki EspeakFallback), by dialect. */
const JOINED_ENGLISH: Readonly<Record<string, string>> = {
  aɪ: 'I',
  aʊ: 'W',
  dʒ: 'ʤ',
  eɪ: 'A',
  tʃ: 'ʧ',
  ɔɪ: 'Y',
  əl: 'ᵊl',
};
const JOINED_US: Readonly<Record<string, string>> = { ...JOINED_ENGLISH, oʊ: 'O' };
const JOINED_GB: Readonly<Record<string, string>> = { ...JOINED_ENGLISH, əʊ: 'Q', eə: 'ɛː' };

/** misaki's English rewrites across phonemes, longest first. */
const ENGLISH_RULES: ReadonlyArray<readonly [string, string]> = [
  ['ʔˌn\u0329', 'tn'],
  ['ʔn\u0329', 'tn'],
  ['ʔn', 'tn'],
  ['ʔ', 't'],
  ['ʲo', 'jo'],
  ['ʲə', 'jə'],
  ['ʲ', ''],
  ['ɚ', 'əɹ'],
  ['r', 'ɹ'],
  ['x', 'k'],
  ['ç', 'k'],
  ['ɐ', 'ə'],
  ['ɬ', 'l'],
  ['\u0303', ''],
  ['e', 'A'],
];

/**
 * One eSpeak word (its phonemes in eSpeak's units, as `PhonemeClause.words` has them) as
 * Kokoro's phoneme symbols.
 */
export function kokoroWord(units: readonly string[], english?: 'us' | 'gb'): string {
  const joined = english === 'us' ? JOINED_US : english === 'gb' ? JOINED_GB : JOINED_ALL;
  let word = units
    .map((raw) => {
      // eSpeak's phonemes arrive in NFD; the vocabulary has "ç" precomposed (its only such symbol).
      const unit = raw.replace(/c\u0327/gu, 'ç');
      const stress = STRESS.exec(unit)?.[0] ?? '';
      const core = unit.slice(stress.length);
      return stress + (joined[core] ?? core);
    })
    .join('')
    .replace(/-/gu, '');
  if (!english) return word;
  for (const [from, to] of ENGLISH_RULES) word = word.split(from).join(to);
  word = word.replace(/(\S)\u0329/gu, 'ᵊ$1').replace(/\u0329/gu, '');
  if (english === 'us') {
    word = word.replace(/ɜːɹ/gu, 'ɜɹ').replace(/ɜː/gu, 'ɜɹ').replace(/ɪə/gu, 'iə').replace(/ː/gu, '');
  } else {
    word = word.replace(/iə/gu, 'ɪə');
  }
  return word.replace(/o/gu, 'ɔ');
}

/** Punctuation Kokoro's vocabulary has, and how the text's other marks are written for it. */
const PUNCTUATION = new Set([';', ':', ',', '.', '!', '?', '—', '…', '"', '(', ')', '“', '”']);
const PUNCTUATION_AS: Readonly<Record<string, string>> = {
  '。': '.',
  '．': '.',
  '，': ',',
  '、': ',',
  '！': '!',
  '？': '?',
  '：': ':',
  '；': ';',
  '–': '—',
  '«': '“',
  '»': '”',
  '（': '(',
  '）': ')',
};

/** The text's marks as Kokoro punctuation: "..." as "…", full-width marks as ASCII, others dropped. */
function kokoroPunctuation(marks: string): string {
  return Array.from(marks.replace(/\.{3,}/gu, '…'))
    .map((c) => PUNCTUATION_AS[c] ?? c)
    .filter((c) => PUNCTUATION.has(c))
    .join('');
}

const WORDY = /[\p{L}\p{N}]/u;

/**
 * Kokoro's input for a piece of text from the clauses `WorkerPool.phonemize` gave for it: one
 * or more calls of at most `maxTokens` ids (cut between clauses when possible, else between
 * words), each with the span of ids of every word of the text. `text` must be the text that
 * was phonemised; positions refer to it (1-based code points, like eSpeak's word events).
 */
export function kokoroInput(
  text: string,
  clauses: readonly PhonemeClause[],
  vocab: KokoroVocab,
  options: KokoroOptions = {},
): KokoroPiece[] {
  const maxTokens = Math.max(1, Math.floor(options.maxTokens ?? KOKORO_MAX_TOKENS));
  const cps = Array.from(text);
  const ids: number[] = [];
  /** Every symbol added, with the index its id has (or would have had, when dropped). */
  const symbols: Array<{ symbol: string; at: number; dropped: boolean }> = [];
  const clauseStarts = new Set<number>();
  const wordStarts = new Set<number>();
  const spaceId = vocab[' '];
  const words: WordSpan[] = [];

  /** Adds the symbols of `s`; returns each one's id range ([at, at) when the vocabulary lacks it). */
  const add = (s: string): IdRange[] =>
    Array.from(s).map((symbol) => {
      const start = ids.length;
      const id = vocab[symbol];
      if (id !== undefined) ids.push(id);
      symbols.push({ symbol, at: start, dropped: id === undefined });
      return { start, end: ids.length };
    });

  clauses.forEach((clause, index) => {
    clauseStarts.add(ids.length);
    let first = clause.textPosition - 1;
    const lead: string[] = [];
    while (first < cps.length && !WORDY.test(cps[first] ?? '')) lead.push(cps[first++] ?? '');
    const opening = kokoroPunctuation(lead.join(''));
    add(opening);
    if (opening && /\s$/u.test(lead.join(''))) add(' ');
    const slots = clause.words.map((units, w) => {
      if (w > 0) add(' ');
      wordStarts.add(ids.length);
      return add(kokoroWord(units, options.english));
    });
    words.push(...alignClauseWords(clause, slots, cps));
    const marks = kokoroPunctuation(clause.punctuation);
    // As kokoro-js keeps it: a space the text has before the marks ("asked — and") stays.
    const end = clause.textPosition - 1 + clause.textLength;
    if (marks && end < cps.length && /\s/u.test(cps[end] ?? '')) add(' ');
    add(marks);
    if (index < clauses.length - 1) add(' ');
  });

  const pieces: KokoroPiece[] = [];
  let start = 0;
  while (start < ids.length) {
    if (ids[start] === spaceId) {
      start++;
      continue;
    }
    let end = Math.min(ids.length, start + maxTokens);
    if (end < ids.length)
      end = cutBefore(start, end, clauseStarts) ?? cutBefore(start, end, wordStarts) ?? end;
    let last = end;
    while (last > start && ids[last - 1] === spaceId) last--;
    pieces.push({
      ids: ids.slice(start, last),
      words: words
        .filter((w) => w.firstId >= start && w.firstId < last)
        .map((w) => {
          const firstId = w.firstId - start;
          return { ...w, firstId, idCount: Math.max(0, Math.min(w.idCount, last - start - firstId)) };
        }),
      phonemes: symbols
        .filter((s) => s.at >= start && s.at < last)
        .map((s) => s.symbol)
        .join(''),
      missing: symbols.filter((s) => s.dropped && s.at >= start && s.at < last).map((s) => s.symbol),
    });
    start = end;
  }
  return pieces;
}

/** The latest cut in (start, end] from `cuts` (a piece may end just before it), if any. */
function cutBefore(start: number, end: number, cuts: ReadonlySet<number>): number | undefined {
  for (let p = end; p > start; p--) if (cuts.has(p)) return p;
  return undefined;
}
