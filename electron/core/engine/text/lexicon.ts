/**
 * The pronunciation lexicon in the engine: a render's entries (plain data, those of the
 * request's language) compiled once into a matcher, which finds where they apply in a chunk
 * and what the engine reads there instead. The rewriting rules (`./rules`) emit these
 * replacements before any rule of their own, through the same map back to the source, so word
 * timings and subtitles keep the original words.
 *
 * Matching (see `shared/lexicon.ts`): case-insensitive unless the entry says otherwise; whole
 * words unless the entry says otherwise (in scripts written without spaces, Chinese and
 * Japanese, a word's edges cannot be seen, so such entries match wherever their characters
 * stand); a space in a phrase matches any run of spaces or line breaks; ’ matches '. Among
 * overlapping matches the longest wins, then the earliest, then a case-sensitive entry.
 *
 * An abbreviation entry ("Cty." → "công ty") matches as a whole word with or without its final
 * full stop; a full stop it takes in at the end of a line or of the text stays a sentence end.
 * Unit entries ("kn" → "knot|knots") are not matched here: `lexiconUnits` hands them to the
 * language's measure rules, which read them after a number.
 *
 * Offsets are UTF-16 code-unit offsets, as everywhere in the engine.
 */

import { unitForms } from '../../../shared/lexicon-units';
import { ipaToEspeak, type IpaConversion } from '../../../shared/lexicon-ipa';
import type { LexiconRule } from '../engine';
import type { LanguageCode } from '../types';
import type { CompiledLexicon, LanguageRules, LexiconMatch, UnitWords } from './rule-kit';
import { languageRules } from './rules';

interface Pattern {
  /** The match, case-folded unless case-sensitive, as code units; a space stands for any run of spaces. */
  units: string;
  caseSensitive: boolean;
  wholeWord: boolean;
  spoken: string;
  /** eSpeak phonemes of an IPA entry (without brackets), for `LanguageRules.afterEntryPhonemes`. */
  phonemes?: string;
  /** Where the entry stood in the list, to keep choices stable. */
  order: number;
  /** An abbreviation matched with its full stop: the stop stays a sentence end at a line's end. */
  stop?: boolean;
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
const NO_SPACE_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;
const SPACE = /[\s\u00A0\u2000-\u200B\u202F\u205F\u3000]/u;
/** Characters the engine must not be given in a respelling (SSML markup, phoneme brackets). */
const UNSAFE = /[<>&[\]]/gu;

/** One code unit, case-folded when that keeps its length (offsets must not move). */
function foldUnit(unit: string): string {
  if (unit === '\u2019' || unit === '\u02BC') return "'";
  const lower = unit.toLowerCase();
  return lower.length === 1 ? lower : unit;
}

function fold(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += foldUnit(text[i] as string);
  return out;
}

/** The code point that ends at `end` (exclusive) / starts at `start`, or '' at the text's edge. */
function charBefore(text: string, end: number): string {
  if (end <= 0) return '';
  const low = text.charCodeAt(end - 1);
  const isPair = low >= 0xdc00 && low <= 0xdfff && end >= 2;
  return text.slice(isPair ? end - 2 : end - 1, end);
}

function charAt(text: string, start: number): string {
  if (start >= text.length) return '';
  return String.fromCodePoint(text.codePointAt(start) as number);
}

/** Whether an edge between `outside` (the text's character) and `inside` (the match's) is a word edge. */
function isWordEdge(outside: string, inside: string): boolean {
  if (outside === '' || !WORD_CHAR.test(outside)) return true;
  // Words of these scripts are not separated by spaces: their edges cannot be seen.
  return NO_SPACE_SCRIPT.test(outside) || NO_SPACE_SCRIPT.test(inside);
}

/** IPA conversions of this thread, by language and IPA (cleared when full). */
const MAX_CONVERSIONS = 50_000;
const conversions = new Map<string, IpaConversion>();

/** What the engine reads for an entry, and an IPA entry's phonemes. */
interface Spoken {
  spoken: string;
  phonemes?: string;
}

/** What the engine reads for an entry (and an IPA entry's phonemes), or undefined when it cannot be read. */
function spokenFor(rule: LexiconRule, language: LanguageCode): Spoken | undefined {
  if (rule.kind !== 'ipa') {
    const text = rule.replacement.replace(UNSAFE, ' ').trim();
    return text === '' ? undefined : { spoken: text };
  }
  const key = `${language}\u0000${rule.replacement}`;
  let converted = conversions.get(key);
  if (converted === undefined) {
    converted = ipaToEspeak(rule.replacement, language);
    // Every render compiles its entries: the same IPA is converted once per thread.
    if (conversions.size >= MAX_CONVERSIONS) conversions.clear();
    conversions.set(key, converted);
  }
  return converted.ok ? { spoken: bracketed(converted.phonemes), phonemes: converted.phonemes } : undefined;
}

/**
 * Phonemes as eSpeak reads them: each word in its own `[[ ]]`, so that every word of the engine
 * text is whole on its own (the neural voices' phonemiser reads words one by one when it must).
 */
function bracketed(phonemes: string): string {
  return phonemes
    .split(' ')
    .map((word) => `[[${word}]]`)
    .join(' ');
}

/**
 * The units of measure among `rules` (the lexicon's `unit` entries of a language), by symbol as
 * written, for `PrepareOptions.units`; undefined when there are none. An entry whose words are
 * not "one|many" (a file edited by hand) is left out.
 */
export function lexiconUnits(
  rules: readonly LexiconRule[] | undefined,
): ReadonlyMap<string, UnitWords> | undefined {
  const units = new Map<string, UnitWords>();
  for (const rule of rules ?? []) {
    if (rule.kind !== 'unit') continue;
    const forms = unitForms(rule.replacement.normalize('NFC').replace(UNSAFE, ' '));
    const symbol = rule.match.normalize('NFC').trim();
    if (forms && symbol !== '' && !units.has(symbol)) units.set(symbol, forms);
  }
  return units.size > 0 ? units : undefined;
}

/** The text forms an entry matches: an abbreviation's with and without its final full stop. */
function matchForms(rule: LexiconRule, match: string): { match: string; stop?: boolean }[] {
  if (rule.kind !== 'abbreviation') return [{ match }];
  const bare = match.replace(/\.$/u, '');
  return bare === '' ? [] : [{ match: bare }, { match: `${bare}.`, stop: true }];
}

/**
 * Compiles `rules` (the entries of `language`) for matching; undefined when there is nothing to
 * match. Entries that cannot be used (empty, or IPA eSpeak cannot read: a file edited by hand)
 * are left out rather than failing the render; unit entries are the measure rules' (`lexiconUnits`).
 */
export function compileLexicon(
  rules: readonly LexiconRule[] | undefined,
  language: LanguageCode,
): CompiledLexicon | undefined {
  if (!rules || rules.length === 0) return undefined;
  const root: TrieNode = { next: new Map(), ending: [] };
  const { afterEntryPhonemes } = languageRules(language);
  let size = 0;
  const abbreviations = new Set<string>();
  const add = (rule: LexiconRule, order: number, match: string, spoken: Spoken, stop?: boolean) => {
    const units = rule.case_sensitive ? match.replace(/[\u2019\u02BC]/g, "'") : fold(match);
    const pattern: Pattern = {
      units,
      caseSensitive: rule.case_sensitive,
      wholeWord: rule.whole_word || rule.kind === 'abbreviation',
      ...spoken,
      order,
      ...(stop ? { stop } : {}),
    };
    if (!afterEntryPhonemes) delete pattern.phonemes;
    // The trie is walked with the folded text: a case-sensitive pattern is checked at its end.
    let node = root;
    for (const unit of units) {
      const key = foldUnit(unit);
      let child = node.next.get(key);
      if (!child) {
        child = { next: new Map(), ending: [] };
        node.next.set(key, child);
      }
      node = child;
    }
    node.ending.push(pattern);
  };
  rules.forEach((rule, order) => {
    if (rule.kind === 'unit') return;
    const match = rule.match.normalize('NFC').trim().replace(/\s+/gu, ' ');
    const spoken = spokenFor(rule, language);
    if (match === '' || spoken === undefined) return;
    const forms = matchForms(rule, match);
    for (const form of forms) add(rule, order, form.match, spoken, form.stop);
    if (forms.length > 0) size++;
    if (rule.kind === 'abbreviation' && forms[0]) abbreviations.add(forms[0].match.toLowerCase());
  });
  if (size === 0) return undefined;
  return {
    size,
    find: (text) => findMatches(text, root, afterEntryPhonemes),
    ...(abbreviations.size > 0 ? { abbreviations } : {}),
  };
}

/**
 * The patterns as a trie over folded code units, ' ' standing for a run of spaces: a walk from a
 * position of the text meets every pattern that matches there, in one pass over the text it shares.
 */
interface TrieNode {
  next: Map<string, TrieNode>;
  /** Patterns that end at this node. */
  ending: Pattern[];
}

/** End of `pattern` matched at `start` of the text, or -1. */
function matchAt(text: string, folded: string, start: number, pattern: Pattern): number {
  const source = pattern.caseSensitive ? text : folded;
  const { units } = pattern;
  let t = start;
  for (let p = 0; p < units.length; p++) {
    const unit = units[p] as string;
    if (unit === ' ') {
      if (t >= text.length || !SPACE.test(text[t] as string)) return -1;
      while (t < text.length && SPACE.test(text[t] as string)) t++;
      continue;
    }
    const have =
      pattern.caseSensitive && (source[t] === '\u2019' || source[t] === '\u02BC') ? "'" : source[t];
    if (have !== unit) return -1;
    t++;
  }
  return t;
}

/** Whether only spaces stand between `end` and the end of its line or of the text. */
function endsLine(text: string, end: number): boolean {
  let k = end;
  while (k < text.length && (text[k] === ' ' || text[k] === '\t' || text[k] === '\u00A0')) k++;
  return k >= text.length || text[k] === '\n' || text[k] === '\r';
}

function findMatches(
  text: string,
  root: TrieNode,
  afterEntryPhonemes: LanguageRules['afterEntryPhonemes'],
): LexiconMatch[] {
  const folded = fold(text);
  const candidates: { start: number; end: number; pattern: Pattern }[] = [];
  const consider = (start: number, end: number, patterns: readonly Pattern[]) => {
    for (const pattern of patterns) {
      if (pattern.caseSensitive && matchAt(text, folded, start, pattern) !== end) continue;
      // An abbreviation's full stop ends it whatever follows ("Q.1", "Cty.ABC").
      if (
        pattern.wholeWord &&
        (!isWordEdge(charBefore(text, start), charAt(text, start)) ||
          (!pattern.stop && !isWordEdge(charAt(text, end), charBefore(text, end))))
      )
        continue;
      candidates.push({ start, end, pattern });
    }
  };
  for (let i = 0; i < text.length; i++) {
    let node: TrieNode | undefined = root.next.get(folded[i] as string);
    let t = i + 1;
    while (node) {
      if (node.ending.length > 0) consider(i, t, node.ending);
      if (t >= text.length) break;
      const spaces = node.next.get(' ');
      if (spaces && SPACE.test(text[t] as string)) {
        while (t < text.length && SPACE.test(text[t] as string)) t++;
        node = spaces;
        continue;
      }
      node = node.next.get(folded[t] as string);
      t++;
    }
  }
  if (candidates.length === 0) return [];
  candidates.sort(
    (a, b) =>
      b.end - b.start - (a.end - a.start) ||
      a.start - b.start ||
      Number(b.pattern.caseSensitive) - Number(a.pattern.caseSensitive) ||
      a.pattern.order - b.pattern.order,
  );
  const taken = new Uint8Array(text.length);
  const chosen: LexiconMatch[] = [];
  for (const { start, end, pattern } of candidates) {
    let free = true;
    for (let k = start; k < end && free; k++) if (taken[k]) free = false;
    if (!free) continue;
    taken.fill(1, start, end);
    // What eSpeak would misread right after phonemes (English "'s", spelt out "ess"): the
    // language's rules let an IPA entry take it in.
    const stretched =
      pattern.phonemes === undefined ? undefined : afterEntryPhonemes?.(pattern.phonemes, text, end);
    if (stretched && !taken.subarray(end, stretched.end).includes(1)) {
      taken.fill(1, end, stretched.end);
      chosen.push({ start, end: stretched.end, spoken: bracketed(stretched.phonemes) });
      continue;
    }
    chosen.push({
      start,
      end,
      spoken: pattern.stop && endsLine(text, end) ? `${pattern.spoken}.` : pattern.spoken,
    });
  }
  return chosen.sort((a, b) => a.start - b.start);
}
