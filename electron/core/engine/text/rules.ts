/**
 * Rewriting a chunk into what eSpeak NG reads well, with a map from the engine's word events
 * back to the source: the rule engine, and the rules every language shares (dates, times,
 * money, percent, ranges, and characters the engine must not see). Each language's words and
 * rules of its own are in `./languages/<code>.ts`; what a rule is, in `./rule-kit`. Nothing here
 * names a language: a new one is its file and its entry in `LANGUAGES`.
 *
 * Offsets are UTF-16 code-unit offsets (JavaScript string indexes) unless a name says
 * otherwise, as everywhere in the engine (see `../types`).
 */

import type { LanguageCode, PreparedText } from '../types';
import { english } from './languages/en';
import { spanish } from './languages/es';
import { french } from './languages/fr';
import { japanese } from './languages/ja';
import { korean } from './languages/ko';
import { vietnamese } from './languages/vi';
import { chinese } from './languages/zh';
import { MappedTextBuilder, type MappedText } from './mapped-text';
import {
  type CompiledLexicon,
  NUM_END,
  NUM_START,
  validDate,
  WORD_END,
  capturingGroups,
  leadingLookaheads,
  type Currency,
  type DateParts,
  type LanguageRules,
  type OutPiece,
  type PrepareOptions,
  type Rule,
  type RuleContext,
  type RuleName,
  type RuleReading,
  type SharedReading,
} from './rule-kit';

/**
 * What the engine reads for `text` in `language`, with the map back to it: the one way into
 * this module for rendering. `preparation` is the model profile's: 'full' rewrites the text
 * with the rules (`rewriteForEngine`); 'none' leaves it as written (the std-v1 model reads the
 * raw text) but for the characters the engine must not see and the lexicon's entries. A
 * language with a stage after the rules (`LanguageRules.afterRules`: Japanese kana) gets the
 * rules and that stage whatever `preparation`: without it the engine cannot read the script.
 * Rejects only where that stage does (Japanese: AppError ENGINE_FAILED when its dictionary
 * cannot be loaded).
 */
export async function prepareForEngine(
  text: string,
  language: LanguageCode,
  options: PrepareOptions = {},
  preparation: 'full' | 'none' = 'full',
): Promise<PreparedText> {
  const { afterRules } = LANGUAGES[language];
  if (afterRules) return afterRules(rewriteForEngine(text, language, options), text);
  if (preparation === 'full') return rewriteForEngine(text, language, options);
  return options.lexicon ? rewriteAsIs(text, options.lexicon) : asIs(text);
}

/**
 * Rewrites one chunk's text into what eSpeak NG reads well in `language`, and maps the
 * engine's word events back to the chunk (the spans let another stage chain on it). Only what
 * eSpeak was heard to get wrong is rewritten: dates (2026-11-21, 21/11/2026), clock times where
 * eSpeak says "zero zero", currency symbols before amounts ("$5" is read "dollar five"),
 * percent in Chinese, Korean and Japanese, Vietnamese round numbers ("50.000" gets a spurious
 * "không trăm"), some abbreviations, number ranges with an en dash. It also removes what the
 * engine must not see: `<`, `>` and `&` (the engine runs in SSML mode, where they swallow
 * text) become words or spaces; emoji (read as their names) and markdown markers become
 * spaces; full-width ASCII becomes ASCII; line breaks and tabs become spaces.
 *
 * A language with reading rules of its own (`LanguageRules.readingRules`: Vietnamese) has every
 * number and what stands around it (dates, times, money, units, phone numbers, abbreviations)
 * written out in its words instead.
 *
 * These are the rules only: a language's stage after them (Japanese kana) is applied by
 * `prepareForEngine`. Never throws.
 */
export function rewriteForEngine(
  text: string,
  language: LanguageCode,
  options: PrepareOptions = {},
): MappedText {
  return rewrite(text, language, options);
}

/**
 * What `rewriteForEngine` did to `text`: the engine text, and each place it rewrote, with what
 * decided it (a lexicon entry or a rule of a class). The "how it will be read" views are built
 * on this (`./reading`). Never throws.
 */
export function rewriteWithChanges(
  text: string,
  language: LanguageCode,
  options: PrepareOptions = {},
): { text: MappedText; changes: RewriteChange[] } {
  const changes: RewriteChange[] = [];
  return { text: rewrite(text, language, options, changes), changes };
}

/** One place the rewrite changed: source offsets (of the text given), what the engine reads, and why. */
export interface RewriteChange {
  from: number;
  to: number;
  spoken: string;
  source: 'lexicon' | 'rule';
  rule?: RuleName;
}

function rewrite(
  text: string,
  language: LanguageCode,
  options: PrepareOptions,
  changes?: RewriteChange[],
  maxPartLength = MAX_PART_LENGTH,
): MappedText {
  const input = normaliseWidth(text);
  const builder = new MappedTextBuilder(input);
  const { parts } = compileRules(language, maxPartLength);
  const matcher = ruleMatcher(parts, input);
  // Lexicon entries win over every rule: a rule match that overlaps one is dropped.
  const entries = options.lexicon?.find(input) ?? [];
  let nextEntry = 0;
  let copied = 0;
  /** Emits the lexicon matches that start before `before`, with the text up to each. */
  const emitEntries = (before: number) => {
    while (nextEntry < entries.length && (entries[nextEntry] as { start: number }).start < before) {
      const { start, end, spoken } = entries[nextEntry++] as (typeof entries)[number];
      if (start < copied) continue;
      builder.copy(copied, start);
      builder.replace(spoken, start, end);
      changes?.push({ from: start, to: end, spoken, source: 'lexicon' });
      copied = end;
    }
  };
  let found: PartMatch | undefined;
  while ((found = matcher.next()) !== undefined) {
    let { m, part } = found;
    if (m[0].length === 0) {
      matcher.lastIndex++;
      continue;
    }
    let end = m.index + m[0].length;
    // A match that runs into a lexicon entry is tried again on the text before the entry, so a
    // number is still read when the word after it is an entry ("15 người").
    let k = nextEntry;
    while (k < entries.length && (entries[k] as { start: number }).start <= m.index) k++;
    const entryStart = entries[k]?.start;
    if (entryStart !== undefined && entryStart < end && m.index >= copied) {
      const bounded = ruleMatcher(parts, input.slice(0, entryStart), 'bounded');
      bounded.lastIndex = m.index;
      const shorter = bounded.next();
      if (shorter?.m.index === m.index && shorter.m[0].length > 0) {
        ({ m, part } = shorter);
        end = m.index + m[0].length;
      }
    }
    emitEntries(end);
    if (m.index < copied) {
      // The rule's match overlaps an entry's: look again after the entry.
      matcher.lastIndex = copied;
      continue;
    }
    const entry = part.rules.find((r) => m[r.group] !== undefined);
    if (!entry) continue;
    const groups = m.slice(entry.group, entry.group + entry.count + 1);
    const result = entry.rule.rewrite(groups, { input, index: m.index, end, language, options });
    if (result === undefined) {
      // Declined: let other rules try from the next code point.
      matcher.lastIndex =
        m.index + (input.charCodeAt(m.index) >= 0xd800 && input.charCodeAt(m.index) <= 0xdbff ? 2 : 1);
      continue;
    }
    const { out, name = entry.rule.name, end: stop } = isRuleReading(result) ? result : { out: result };
    const readTo = stop !== undefined && stop > 0 && stop < m[0].length ? m.index + stop : end;
    builder.copy(copied, m.index);
    if (typeof out === 'string') builder.replace(out, m.index, end);
    else for (const p of out) builder.replace(p.text, m.index + p.from, m.index + p.to);
    changes?.push({
      from: m.index,
      to: readTo,
      spoken: typeof out === 'string' ? out : out.map((p) => p.text).join(''),
      source: 'rule',
      rule: name,
    });
    copied = readTo;
    // The rest of a match the rule did not read is looked at again by every rule.
    if (readTo < end) matcher.lastIndex = readTo;
  }
  emitEntries(input.length);
  builder.copy(copied, input.length);
  return builder.build(input);
}

function isRuleReading(result: string | OutPiece[] | RuleReading): result is RuleReading {
  return typeof result === 'object' && !Array.isArray(result);
}

/** How `language` is read: its hooks, for the lexicon and SSML's say-as beside the rules. */
export function languageRules(language: LanguageCode): LanguageRules {
  return LANGUAGES[language];
}

/** Characters the engine must not see in text left as written: SSML markup, and "[[" / "]]" (phonemes). */
const UNSAFE_AS_IS = /[<>&]|\[(?=\[)|\](?=\])/g;

/**
 * Text for the engine left as written (the std-v1 model reads the raw text), but with the
 * lexicon's entries applied: only the characters the engine must not see are blanked, one for
 * one. Never throws.
 */
export function rewriteAsIs(text: string, lexicon: CompiledLexicon | undefined): MappedText {
  const builder = new MappedTextBuilder(text);
  const copySafe = (from: number, to: number) => {
    const part = text.slice(from, to);
    let at = from;
    for (const m of part.matchAll(UNSAFE_AS_IS)) {
      const index = from + (m.index ?? 0);
      builder.copy(at, index);
      builder.replace(' ', index, index + 1);
      at = index + 1;
    }
    builder.copy(at, to);
  };
  let copied = 0;
  for (const { start, end, spoken } of lexicon?.find(text) ?? []) {
    copySafe(copied, start);
    builder.replace(spoken, start, end);
    copied = end;
  }
  copySafe(copied, text.length);
  return builder.build(text);
}

/**
 * Prepared text that is the source itself: only what the engine must not see is blanked, one
 * for one (SSML-significant characters, and the brackets of "[[" / "]]", which open phonemes).
 */
function asIs(text: string): PreparedText {
  const engineText = text.replace(UNSAFE_AS_IS, ' ');
  // eSpeak counts code points; the source is indexed in UTF-16 code units.
  const unitOffsets: number[] = [];
  for (let i = 0; i < text.length; i++) {
    unitOffsets.push(i);
    if ((text.codePointAt(i) ?? 0) > 0xffff) i++;
  }
  unitOffsets.push(text.length);
  const at = (cp: number) => unitOffsets[Math.max(0, Math.min(cp, unitOffsets.length - 1))] ?? text.length;
  return {
    engineText,
    toSource: (textPosition, wordLength) => ({
      start: at(textPosition - 1),
      end: at(textPosition - 1 + wordLength),
    }),
  };
}

/** Each language's words and rules of its own. */
const LANGUAGES: Record<LanguageCode, LanguageRules> = {
  en: english,
  fr: french,
  es: spanish,
  vi: vietnamese,
  zh: chinese,
  ko: korean,
  ja: japanese,
};

/**
 * The words the shared rules read `language` with. They are only in the rules of a language
 * without reading rules of its own (`rulesFor`), so this throws only on a wiring mistake.
 */
function shared(language: LanguageCode): SharedReading {
  const own = LANGUAGES[language];
  if (own.readingRules)
    throw new Error(
      `A shared reading rule ran for "${language}", which reads numbers with rules of its own.`,
    );
  return own;
}

/** Rules in priority order: at one position, the first that matches wins. */
function rulesFor(language: LanguageCode): Rule[] {
  const own = LANGUAGES[language];
  const rules: Rule[] = [emojiRule, listItemStopRule];
  if (own.abbreviations) rules.push(own.abbreviations);
  if (own.readingRules) rules.push(...own.readingRules);
  else
    rules.push(
      isoDateRule,
      numericDateRule,
      ...(own.rulesAfterDates ?? []),
      timeRule,
      currencyBeforeRule,
      currencyAfterRule,
      percentRule,
      ...(own.rulesAfterNumbers ?? []),
      rangeRule,
    );
  rules.push(
    htmlTagRule,
    comparisonRule,
    markupRule,
    ampersandRule,
    tableBarRule,
    markdownRule,
    phonemeBracketRule,
  );
  return rules;
}

/**
 * One expression of a language's rules: rules that start with the same lookaheads (their lead),
 * in their order, each with the number of its group in it and its place among all the rules.
 */
interface RulePart {
  /** Made when first asked: a text that does not hold the lead never makes it (`trigger`). */
  readonly re: RegExp;
  /** The same, for a match tried again on the text before a lexicon entry (made when first asked). */
  readonly bounded: RegExp;
  /**
   * The rules' lead as an expression (`leadingLookaheads`); null for rules that start otherwise.
   * A text in which it matches nowhere has no match of the part: its expression is not tried, nor
   * made. Made, V8 compiles an expression on its first match; a language's ~110 rules cost
   * ~250 ms so (~540 property classes such as \p{L}, each hundreds of ranges), on the path of a
   * `say` and of every first render; a sentence without numbers makes about half of them.
   */
  readonly trigger: RegExp | null;
  /** Whether `re` has been made. */
  readonly made: boolean;
  rules: { rule: Rule; group: number; count: number; index: number }[];
}

/**
 * A language's rules as expressions of at most `maxPartLength` characters each, by lead; with
 * `Infinity`, all of them in one expression in their order (what the parts must read as: tests).
 */
interface CompiledRules {
  parts: RulePart[];
}

/**
 * The longest expression the rules are compiled into. V8 stops optimising a regular expression
 * whose pattern is longer than 20 KB (its `kRegExpTooLargeToOptimize`), and every match then runs
 * several times slower; so a language whose rules are longer gets several expressions, each
 * under it, tried together as one alternation would be (`ruleMatcher`). The rules are grouped by
 * their lead first (`RulePart.trigger`): against two expressions of all of them in order, English
 * read a 500,000-character book in 0.80 of the time and Vietnamese 0.83 (bench:reading, side by
 * side), and the first reading of a short sentence in a process (a `say`) took ~50 ms where it
 * took ~160–190 ms (every expression made and compiled). The patterns hold the
 * no-break and narrow no-break spaces as the characters themselves (a JavaScript escape in the
 * string, `'\u00A0'`), one character of pattern each where the regular expression's `\\u00A0`
 * takes six: fewer expressions to try.
 */
export const MAX_PART_LENGTH = 20 * 1024 - 1;

/**
 * The length of the pattern V8 keeps for `source`, the one its 20 KB limit is measured on: it
 * escapes a "/" outside a character class and each line terminator (`RegExp.prototype.source`),
 * one character more each. (Measured on the source as written, a Vietnamese expression of 20,470
 * characters was 20,527 kept, past the limit, and read 4.5 times slower.)
 */
export function keptPatternLength(source: string): number {
  let length = source.length;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) length++;
    if (c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029') length++;
  }
  return length;
}

const compiled = new Map<string, CompiledRules>();

/** The expression of `list`, rules of one lead (`leads`), made when first asked. */
function rulePart(list: Rule[], leads: string[] | null, order: ReadonlyMap<Rule, number>): RulePart {
  let group = 1;
  const rules = list.map((rule) => {
    const count = capturingGroups(rule.pattern);
    const entry = { rule, group, count, index: order.get(rule) ?? 0 };
    group += count + 1;
    return entry;
  });
  const source = combinedSource(list);
  let re: RegExp | undefined;
  let bounded: RegExp | undefined;
  let trigger: RegExp | null | undefined;
  return {
    get re() {
      re ??= new RegExp(source, 'gu');
      return re;
    },
    // Only a text with lexicon entries needs it.
    get bounded() {
      bounded ??= new RegExp(source, 'gu');
      return bounded;
    },
    get trigger() {
      trigger ??= leads && new RegExp(leads.map((lead) => `(?:${lead})`).join('|'), 'u');
      return trigger;
    },
    get made() {
      return re !== undefined;
    },
    rules,
  };
}

function compileRules(language: LanguageCode, maxPartLength = MAX_PART_LENGTH): CompiledRules {
  const key = `${language} ${maxPartLength}`;
  const cached = compiled.get(key);
  if (cached) return cached;
  const all = rulesFor(language);
  const order = new Map(all.map((rule, i) => [rule, i]));
  const groups = new Map<string, { leads: string[] | null; rules: Rule[] }>();
  if (maxPartLength === Infinity) groups.set('', { leads: null, rules: all });
  else
    for (const rule of all) {
      const leads = leadingLookaheads(rule.pattern);
      const key = JSON.stringify(leads);
      const group = groups.get(key);
      if (group) group.rules.push(rule);
      else groups.set(key, { leads, rules: [rule] });
    }
  const parts = [...groups.values()].flatMap(({ leads, rules }) =>
    splitRules(rules, maxPartLength).map((list) => rulePart(list, leads, order)),
  );
  const result: CompiledRules = { parts };
  compiled.set(key, result);
  return result;
}

/**
 * The rules in runs whose combined expression is at most `maxLength` characters (one run when
 * they fit), cut only between rules that share no `lead` (`combinedSource`).
 */
function splitRules(list: Rule[], maxLength: number): Rule[][] {
  const runs: Rule[][] = [];
  for (let i = 0; i < list.length;) {
    const { lead } = list[i] as Rule;
    let j = i + 1;
    while (lead !== undefined && j < list.length && list[j]?.lead === lead) j++;
    runs.push(list.slice(i, j));
    i = j;
  }
  // A part's kept length is its runs' lengths and a "|" between each: each run is measured once
  // (measuring the growing part at every run took ~50 ms of a command's start).
  const parts: Rule[][] = [[]];
  let partLength = 0;
  for (const run of runs) {
    const last = parts[parts.length - 1] as Rule[];
    const runLength = keptPatternLength(combinedSource(run));
    if (last.length > 0 && partLength + 1 + runLength > maxLength) {
      parts.push([...run]);
      partLength = runLength;
    } else {
      partLength = last.length > 0 ? partLength + 1 + runLength : runLength;
      last.push(...run);
    }
  }
  return parts;
}

/** A match of one of the parts, with that part (its rules' groups). */
interface PartMatch {
  m: RegExpExecArray;
  part: RulePart;
}

/**
 * Walks `input` with the parts as `RegExp.exec` walks with one expression: `next()` is the first
 * match from `lastIndex` over all the parts as one alternation of every rule in order would find
 * it (the leftmost, and at one index the earliest rule's: each part's own match there is its
 * earliest rule's), and moves `lastIndex` past it; the caller may set `lastIndex`. Only the parts
 * whose lead `input` holds take part. Each part's next match is kept while it lies ahead, so
 * each part scans the text about once. `which`: the parts' own expressions, or their copies for a
 * match tried again on the text before a lexicon entry.
 */
function ruleMatcher(all: RulePart[], input: string, which: 're' | 'bounded' = 're') {
  const parts = all.filter((part) => part.trigger === null || part.trigger.test(input));
  /** Each part's next match (null: none) and where that search started. */
  const ahead: ({ from: number; m: RegExpExecArray | null } | undefined)[] = parts.map(() => undefined);
  const matcher = {
    lastIndex: 0,
    next(): PartMatch | undefined {
      let best: PartMatch | undefined;
      parts.forEach((part, i) => {
        let found = ahead[i];
        if (!found || found.from > matcher.lastIndex || (found.m && found.m.index < matcher.lastIndex)) {
          const re = part[which];
          re.lastIndex = matcher.lastIndex;
          found = { from: matcher.lastIndex, m: re.exec(input) };
          ahead[i] = found;
        }
        if (
          found.m &&
          (!best ||
            found.m.index < best.m.index ||
            (found.m.index === best.m.index && ruleIndex(part, found.m) < ruleIndex(best.part, best.m)))
        )
          best = { m: found.m, part };
      });
      if (best) matcher.lastIndex = best.m.index + best.m[0].length;
      return best;
    },
  };
  return matcher;
}

/** The order in the language's rules of the rule of `part` that matched `m`. */
function ruleIndex(part: RulePart, m: RegExpExecArray): number {
  return part.rules.find((r) => m[r.group] !== undefined)?.index ?? -1;
}

/** Each rule of `language`'s combined expression (for tests). */
export function rulePatterns(language: LanguageCode): string[] {
  return rulesFor(language).map((rule) => rule.pattern);
}

/**
 * The rules as one alternation, each its own group, in order. A run of neighbouring rules that
 * share a zero-width `lead` is written `lead(?:(a)|(b)…)`: the same matches, the lead once.
 */
export function combinedSource(list: Rule[]): string {
  const parts: string[] = [];
  for (let i = 0; i < list.length;) {
    const { lead, pattern } = list[i] as Rule;
    let j = i + 1;
    while (lead !== undefined && j < list.length && list[j]?.lead === lead) j++;
    if (lead === undefined || j === i + 1) parts.push(`(${pattern})`);
    else {
      const bodies = list.slice(i, j).map((r) => `(${r.pattern.slice(lead.length)})`);
      parts.push(`${lead}(?:${bodies.join('|')})`);
    }
    i = j;
  }
  return parts.join('|');
}

/** The length of each expression a language's rules are compiled into (each under 20 KB: `MAX_PART_LENGTH`). */
export function rulePartLengths(language: LanguageCode, maxPartLength = MAX_PART_LENGTH): number[] {
  return compileRules(language, maxPartLength).parts.map((part) => part.re.source.length);
}

/** How many of `language`'s expressions have been made, of how many (for tests). */
export function rulePartsMade(language: LanguageCode): { made: number; parts: number } {
  const { parts } = compileRules(language);
  return { made: parts.filter((part) => part.made).length, parts: parts.length };
}

/**
 * `rewriteWithChanges` with the rules cut into expressions of at most `maxPartLength` characters
 * (for tests: the same readings however the rules are cut).
 */
export function rewriteWithPartsOf(
  maxPartLength: number,
  text: string,
  language: LanguageCode,
  options: PrepareOptions = {},
): { text: string; changes: RewriteChange[] } {
  const changes: RewriteChange[] = [];
  const mapped = rewrite(text, language, options, changes, maxPartLength);
  return { text: mapped.engineText, changes };
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

// --- Rule helpers ----------------------------------------------------------------------

const AMOUNT = '\\d{1,3}(?:[,.\u00A0\u202F]\\d{3})+(?:[.,]\\d{1,2})?|\\d+(?:[.,]\\d{1,2})?';

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

// --- Dates ------------------------------------------------------------------------------

function sayDate(d: DateParts, ctx: RuleContext): OutPiece[] {
  return shared(ctx.language).sayDate(d, ctx);
}

const isoDateRule: Rule = {
  name: 'date',
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
        month,
        day,
        monthAt: [mAt, mAt + mo.length],
        dayAt: [dAt, dAt + d.length],
        year: { text: y, at: [yAt, yAt + 4] },
      },
      ctx,
    );
  },
};

const numericDateRule: Rule = {
  name: 'date',
  // 21/11/2026, 11/21/2026, 21.11.2026, 21-11-2026
  pattern: `${NUM_START}(\\d{1,2})([/.-])(\\d{1,2})[/.-](\\d{4})${NUM_END}`,
  rewrite([whole, a, sep, b, y], ctx) {
    if (!whole || !a || !sep || !b || !y) return undefined;
    const first = Number(a);
    const second = Number(b);
    const order = shared(ctx.language).numericDateOrder(first, second, sep, ctx);
    if (!order) return undefined;
    const monthFirst = order === 'month-first';
    const month = monthFirst ? first : second;
    const day = monthFirst ? second : first;
    if (!validDate(month, day)) return undefined;
    const bAt = whole.indexOf(b, a.length + 1);
    const yAt = whole.length - 4;
    const aSpan: [number, number] = [0, a.length];
    const bSpan: [number, number] = [bAt, bAt + b.length];
    return sayDate(
      {
        month,
        day,
        monthAt: monthFirst ? aSpan : bSpan,
        dayAt: monthFirst ? bSpan : aSpan,
        year: { text: y, at: [yAt, yAt + 4] },
      },
      ctx,
    );
  },
};

// --- Times ------------------------------------------------------------------------------

const timeRule: Rule = {
  name: 'time',
  pattern: `${NUM_START}([01]?\\d|2[0-4]):([0-5]\\d)(?![\\p{N}]|[:.,]\\p{N})`,
  rewrite([whole, hText, mText], ctx) {
    if (!whole || !hText || !mText) return undefined;
    const h = Number(hText);
    const min = Number(mText);
    const hSpan: [number, number] = [0, hText.length];
    const mSpan: [number, number] = [hText.length, whole.length];
    return shared(ctx.language).sayTime({ h, min, hSpan, mSpan }, ctx);
  },
};

// --- Money and percent ------------------------------------------------------------------

const EN_SCALES = '(?:thousand|million|billion|trillion|k|bn)';

/** Splits "1,234.50" into integer digits and (optionally) two cent digits, by the last separator. */
function parseAmount(amount: string): { whole: string; cents?: string } {
  const m = /^(.*?)[.,](\d{1,2})$/.exec(amount);
  if (m && m[1] !== undefined && m[2] !== undefined)
    return { whole: m[1].replace(/\D/g, '') || '0', cents: m[2].padEnd(2, '0') };
  return { whole: amount.replace(/\D/g, '') };
}

function sayMoney(amount: string, currency: Currency, language: LanguageCode): string {
  const own = shared(language);
  return own.sayMoney({ ...parseAmount(amount), words: own.currency[currency] });
}

function toCurrency(symbol: string): Currency {
  if (symbol === '￥') return '¥';
  return symbol as Currency;
}

const currencyBeforeRule: Rule = {
  name: 'money',
  // $5, €20, £3.50, ¥100, US$5, $3 million: eSpeak reads "dollar five".
  pattern: `(?<![A-Za-z0-9])(?:US|C|A|HK|NZ)?([$€£¥￥₩₫])[ \u00A0\u202F]?(${AMOUNT})(?:[ \u00A0\u202F]?(${EN_SCALES}))?${WORD_END}`,
  rewrite([whole, symbol, amount, scale], ctx) {
    if (!whole || !symbol || !amount) return undefined;
    const own = shared(ctx.language);
    const currency = toCurrency(symbol);
    if (scale && own.sayScaledMoney) return own.sayScaledMoney(amount, scale, own.currency[currency]);
    const spoken = sayMoney(amount, currency, ctx.language);
    const scaleText = scale !== undefined ? whole.slice(whole.lastIndexOf(scale)) : '';
    return scaleText ? `${spoken.replace(/\s*$/, '')} ${scaleText}` : spoken;
  },
};

const currencyAfterRule: Rule = {
  name: 'money',
  // 5 €, 5,50 €, 50.000đ, 50.000 VND
  pattern: `${NUM_START}(${AMOUNT})[ \u00A0\u202F]?([$€£¥￥₩₫]|đ|VNĐ|VND|vnđ|vnd)${WORD_END}`,
  rewrite([whole, amount, symbol], ctx) {
    if (!whole || !amount || !symbol) return undefined;
    const normalized = /^[$€£¥￥₩₫]$/u.test(symbol) ? toCurrency(symbol) : '₫';
    return sayMoney(amount, normalized, ctx.language);
  },
};

const percentRule: Rule = {
  name: 'percent',
  // eSpeak's Chinese, Korean and Japanese voices say "percent" in English.
  pattern: `${NUM_START}(\\d+(?:[.,]\\d+)?)[ \u00A0\u202F]?[%％]`,
  rewrite([whole, n], ctx) {
    if (!whole || !n) return undefined;
    return shared(ctx.language).sayPercent?.(n, whole);
  },
};

const rangeRule: Rule = {
  name: 'range',
  // 10–20: eSpeak drops the en dash and reads "ten twenty".
  pattern: '(?=[ \u00A0\u202F–—])(?<=\\p{N})[ \u00A0\u202F]?[–—][ \u00A0\u202F]?(?=\\p{N})',
  rewrite(_groups, ctx) {
    return shared(ctx.language).rangeWord;
  },
};

// --- Characters the engine must not see ----------------------------------------------

const comparisonRule: Rule = {
  name: 'symbol',
  // "1 < 2", "x >= 3", "(> 38,3 độ C)", "≥ 7": a comparison stands between spaces or digits, or
  // opens a bracket.
  pattern: '(?=[<>≤≥])(?<=[\\s\\p{N}(\\[]|^)(<=|>=|<|>|≤|≥)(?=[\\s\\p{N}]|$)',
  rewrite([op], ctx) {
    const words = LANGUAGES[ctx.language].comparison;
    if (!words || !op) return ' ';
    const word =
      op === '<' ? words.lt : op === '>' ? words.gt : op === '<=' || op === '≤' ? words.le : words.ge;
    // A space on each side, unless the text has one there (or an opening bracket before).
    const lead = /[\s([]/u.test(ctx.input[ctx.index - 1] ?? '') ? '' : ' ';
    const trail = /\s/u.test(ctx.input[ctx.end] ?? '') ? '' : ' ';
    return `${lead}${word}${trail}`;
  },
};

const htmlTagRule: Rule = {
  name: 'markup',
  // Pasted HTML: eSpeak would have skipped the tag silently, so a reader expects it gone.
  pattern: '</?[A-Za-z][\\w:-]*(?:\\s[^<>]*)?/?>',
  rewrite() {
    return ' ';
  },
};

/**
 * "1.Cầu lông bắt đầu …", "2.The rules": a list item's number glued to its first word at the
 * start of a line. The full stop is the item's, a pause: between them eSpeak says "chấm",
 * "dot" (measured). Every language.
 */
const listItemStopRule: Rule = {
  name: 'symbol',
  pattern: '(?=\\.)(?<=(?:^|\\n)[ \\t]*\\d{1,3})\\.(?=\\p{Lu}\\p{Ll})',
  rewrite: () => '. ',
};

const markupRule: Rule = {
  name: 'markup',
  // The engine runs in SSML mode: "<" starts a tag that can swallow the rest of the text,
  // "&" an entity. Anything that is not a comparison or a conjunction is dropped.
  pattern: '[<>]+',
  rewrite() {
    return ' ';
  },
};

const tableBarRule: Rule = {
  name: 'symbol',
  // "Cầu Giấy | 23/05/2019 | 04:00 |", "APR for Cash Advances |": a table's cell bar is a pause
  // between cells, nothing at a line's ends (eSpeak says "bar" or runs the cells together).
  pattern: '[ \\t]*\\|[ \\t]*',
  rewrite(_groups, ctx) {
    const atEdge =
      /(?:^|\n)[ \t]*$/u.test(ctx.input.slice(Math.max(0, ctx.index - 8), ctx.index)) ||
      /^[ \t]*(?:\n|$)/u.test(ctx.input.slice(ctx.end, ctx.end + 8)) ||
      /^[ \t]*\|/u.test(ctx.input.slice(ctx.end, ctx.end + 8));
    return atEdge ? ' ' : ', ';
  },
};

const ampersandRule: Rule = {
  name: 'symbol',
  pattern: '&',
  rewrite(_groups, ctx) {
    return LANGUAGES[ctx.language].andWord;
  },
};

const emojiRule: Rule = {
  name: 'emoji',
  // Emoji are read by their English names ("grinning face"), which a narrator would not say.
  // Text-style symbols (© ™ ↔) stay: eSpeak names them sensibly.
  pattern:
    '\\p{Regional_Indicator}+|(?:\\p{Emoji_Presentation}|\\p{Extended_Pictographic}\\uFE0F)(?:\\p{Emoji_Modifier}|\\uFE0F|[\\u{E0020}-\\u{E007F}])*(?:\\u200D(?:\\p{Extended_Pictographic}|\\p{Emoji_Presentation})(?:\\p{Emoji_Modifier}|\\uFE0F)*)*|\\uFE0F?\\u20E3',
  rewrite(groups) {
    // A keycap's digit stays; only the keycap marks go.
    return groups[0]?.startsWith('\u20E3') || groups[0]?.startsWith('\uFE0F') ? '' : ' ';
  },
};

const phonemeBracketRule: Rule = {
  name: 'markup',
  // eSpeak reads what stands between "[[" and "]]" as phonemes, which only the lexicon writes:
  // in the text they would swallow the words after them.
  pattern: '\\[\\[+|\\]\\]+',
  rewrite() {
    return ' ';
  },
};

/** Marks that open a list's line: bullets, check marks, arrows, stars, squares. */
const LIST_MARKS = '•·‣▪◦✔✓☑✅✗✘❌➤►▶★☆❖◆◇■□●○';
const LIST_MARK = new RegExp(`[${LIST_MARKS}]`, 'u');

const markdownRule: Rule = {
  name: 'markup',
  // "**bold**" is read "asterisk asterisk", "# Title" "hash title"; a bullet opening a line
  // ("• Nurture and nap time …") makes eSpeak pause after the next word, and a check mark or an
  // arrow there ("✔ Đường: 100g") is read by its name ("heavy check mark"): list marks, unsaid.
  pattern: `\\*+|(?<=^|\\n)[ \\t]*(?:#{1,6}(?=[ \\t])|[${LIST_MARKS}][ \\t]+)`,
  rewrite([whole]) {
    return whole && LIST_MARK.test(whole) ? '' : ' ';
  },
};
