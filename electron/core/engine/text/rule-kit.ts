/**
 * What a rewriting rule is, and the parts rules are built from. The rule engine and the rules
 * every language shares are in `./rules`; what each language adds (its words for dates,
 * times, money and symbols, and rules of its own) is a `LanguageRules` in
 * `./languages/<code>.ts`.
 */

import type { SayAs } from '../../../shared/ssml';
import type { ReadingRule } from '../../../shared/api';
import type { MappedText } from './mapped-text';
import type { LanguageCode, PreparedText } from '../types';

/** One place where an entry applies. */
export interface LexiconMatch {
  /** Offsets of the matched source text. */
  start: number;
  end: number;
  /** What the engine reads instead: the respelling, or eSpeak phonemes in `[[ ]]`. */
  spoken: string;
}

/** A render's lexicon, ready to match (compiled by `./lexicon`). */
export interface CompiledLexicon {
  /** Entries that could be compiled (an IPA entry eSpeak cannot read is left out). */
  readonly size: number;
  /** The non-overlapping matches in `text`, in order. */
  find(text: string): LexiconMatch[];
  /**
   * The abbreviation entries' words, lower case, without a final full stop ("cty"): their full
   * stop does not end a sentence (`SplitOptions.abbreviations`).
   */
  readonly abbreviations?: ReadonlySet<string>;
}

/** How a text is rewritten for the engine (`./rules`), beside the language's own rules. */
export interface PrepareOptions {
  /**
   * How to read an ambiguous numeric date like 05/06/2026 in English: month first ('mdy',
   * the default: most of the app's English voices are American) or day first ('dmy').
   * Unambiguous dates (21/11/2026) are read correctly either way; other languages are
   * always day first.
   */
  dateOrder?: 'mdy' | 'dmy';
  /**
   * The pronunciation lexicon of the text's language (`./lexicon`): where an entry matches, its
   * replacement is what the engine reads, before any rule below; the map still points at the
   * matched words.
   */
  lexicon?: CompiledLexicon | undefined;
  /**
   * Units of measure the user added for the text's language (the lexicon's unit entries), by
   * the symbol as written ("kn"): the measure rules read them after a number as they read their
   * own table's, and before it.
   */
  units?: ReadonlyMap<string, UnitWords> | undefined;
  /**
   * English numbers read British style, with "and" before the last part under a hundred ("one
   * hundred and twenty", "two thousand and five"); American style (the default) has none. Set
   * for the British and Australian English voices (`prepareOptions` in `../render/voice`).
   */
  andAfterHundred?: boolean | undefined;
  /**
   * Acronyms the text defined before this piece ("Ban tổ chức (BTC)"), acronym → its words: a
   * render prepares a chapter piece by piece (`../render/speech-plan`), so a later "BTC" in
   * another piece is read as the words too, as `readingOf` over the whole text reads it. The
   * definitions inside the piece itself are found by the language's rules (`definedAcronyms`).
   */
  definedAcronyms?: ReadonlyMap<string, string> | undefined;
}

/** An acronym a text defines: where (the offset of its "(") and the words it stands for. */
export interface AcronymDefinition {
  at: number;
  words: string;
}

/** How a unit of measure is read after a number: "km" → one "kilometre", many "kilometres". */
export interface UnitWords {
  one: string;
  many: string;
}

/** A piece of a rule's output, tied to a range of the match (offsets relative to the match start). */
export interface OutPiece {
  text: string;
  from: number;
  to: number;
}

/** What a rule sees of a match besides its groups. */
export interface RuleContext {
  /** The whole (normalised) input being rewritten. */
  input: string;
  /** Offset of the match in `input`. */
  index: number;
  /** Offset just past the match. */
  end: number;
  language: LanguageCode;
  options: PrepareOptions;
}

/**
 * What a rule reads, for the reading's list of changes (`./reading`): the classes of written
 * text a reader tells apart, and what the engine must not see (the list is the API's,
 * `READING_RULES` in shared/api.ts).
 */
export type RuleName = ReadingRule;

/** One rewrite: a pattern, and what the engine should read for a match of it. */
export interface Rule {
  /** The class of what it reads (shown in the reading's changes). */
  name: RuleName;
  /** Regex source (compiled with the `u` flag inside one alternation); no back-references. */
  pattern: string;
  /**
   * The engine text for a match: a string (mapped to the whole match) or pieces (mapped to
   * parts of it). `groups[0]` is the match, `groups[1..]` its capture groups. Undefined
   * leaves the text as it is.
   */
  rewrite(groups: (string | undefined)[], ctx: RuleContext): string | OutPiece[] | RuleReading | undefined;
  /**
   * A zero-width start (lookarounds only, no capture group) that `pattern` begins with and that
   * neighbouring rules share: the combined expression writes it once for a run of such rules,
   * which keeps it under the size V8 optimises. Set it with `withLead`.
   */
  lead?: string;
}

/**
 * Calls `visit` with each character of `pattern` (written for the `u` flag) that is syntax: not
 * escaped and not in a character class. Stops at the first call that returns true, and says so.
 */
function someSyntax(pattern: string, visit: (c: string, at: number) => boolean): boolean {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (visit(c, i)) return true;
  }
  return false;
}

/**
 * Whether a pattern has an alternative (`|`) outside any group: then a lead written once in
 * front of it would apply to every branch, not only the first.
 */
export function hasTopLevelAlternative(pattern: string): boolean {
  let depth = 0;
  return someSyntax(pattern, (c) => {
    if (c === '(') depth++;
    else if (c === ')') depth--;
    return c === '|' && depth === 0;
  });
}

/**
 * The contents of the lookaheads `pattern` starts with, one per top-level alternative
 * ("(?=\d)…|(?=[vV])…" gives "\d" and "[vV]"); null when an alternative starts otherwise.
 * A text in which none of them matches anywhere has no match of the pattern.
 */
export function leadingLookaheads(pattern: string): string[] | null {
  const leads: string[] = [];
  let depth = 0;
  let start = 0;
  let lead: string | null = null;
  /** An alternative ends at `at`: true (stop) when it had no lead. */
  const ended = (at: number): boolean => {
    if (lead === null) return true;
    leads.push(lead);
    lead = null;
    start = at + 1;
    return false;
  };
  const stopped = someSyntax(pattern, (c, at) => {
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0 && lead === null && pattern.startsWith('(?=', start)) {
      lead = pattern.slice(start + 3, at);
    } else if (c === '|' && depth === 0) return ended(at);
    return false;
  });
  return stopped || ended(pattern.length) ? null : leads;
}

/**
 * The capturing groups of a pattern: each "(" that is syntax and not "(?", but "(?<name>" counts.
 * Read from the source: asking V8 (compiling each rule and matching "") cost ~50 ms a language,
 * on the path of every first render (test/core/engine/text/rules.test.ts compares both for
 * every rule).
 */
export function capturingGroups(pattern: string): number {
  let count = 0;
  someSyntax(pattern, (c, at) => {
    if (c === '(' && (pattern[at + 1] !== '?' || /^\?<[^=!]/u.test(pattern.slice(at + 1, at + 4)))) count++;
    return false;
  });
  return count;
}

/** The rule with `lead` set when its pattern starts with it and has no top-level alternative. */
export function withLead(rule: Rule, lead: string): Rule {
  if (!rule.pattern.startsWith(lead) || hasTopLevelAlternative(rule.pattern.slice(lead.length))) return rule;
  return { ...rule, lead };
}

/**
 * What a rule returns when a plain rewrite does not say enough: the class it read, for a rule
 * that reads several (a number with a currency is 'money'), and where its reading stops.
 */
export interface RuleReading {
  /** The engine text, as a rule's rewrite otherwise returns it. */
  out: string | OutPiece[];
  /** The class read, when not the rule's `name`. */
  name?: RuleName;
  /**
   * Offset in the match where the reading stops: the text after it is left to the other rules
   * (a word after a number that turned out not to be a unit). Pieces stay before it.
   */
  end?: number;
}

// --- Pattern parts and helpers ----------------------------------------------------------

/**
 * Not preceded by a Latin letter, digit or joining punctuation: the start of a number.
 * CJK letters may touch a number ("涨了50%").
 */
export const NUM_START = '(?<![\\p{Script=Latin}\\p{N}_.,:/-])';
/** Not followed by a digit, or by punctuation that continues a number. */
export const NUM_END = '(?![\\p{N}]|[.,:/-]\\p{N})';
export const WORD_START = '(?<![\\p{L}\\p{N}_])';
export const WORD_END = '(?![\\p{L}\\p{N}_])';
/**
 * Text ending in a number, or in a unit written after one ("5", "90VAC", "25 °", "13.3”"): a tilde
 * after it starts the other end of a range ("5~10 kg", "90VAC~240VAC"), in every language that reads one.
 */
export const QUANTITY_END = /\d[\p{L}°%”″]{0,4}[ \u00A0]?$/u;

/** Fractions written as one character, by numerator and denominator ("½" one of two). */
export const UNICODE_FRACTIONS: Readonly<Record<string, readonly [string, string]>> = {
  '½': ['1', '2'],
  '⅓': ['1', '3'],
  '⅔': ['2', '3'],
  '¼': ['1', '4'],
  '¾': ['3', '4'],
  '⅕': ['1', '5'],
  '⅛': ['1', '8'],
  '⅜': ['3', '8'],
  '⅝': ['5', '8'],
  '⅞': ['7', '8'],
};

/** Whether the text before a mark has an opening quote of its kind not yet closed, so the mark closes it ("“Top 10”"). */
export function closesAQuote(ctx: RuleContext, mark: string): boolean {
  const text = ctx.input.slice(Math.max(0, ctx.index - 80), ctx.index).replace(/^.*[.!?](?=\s)/su, '');
  if (mark === '”') return text.lastIndexOf('“') > text.lastIndexOf('”');
  if (mark === '’') return text.lastIndexOf('‘') > text.lastIndexOf('’');
  // Marks right after a digit are inch or foot marks ("4.37\", but we were 0.77\" below"), not quotes.
  if (mark === '"') return (text.match(/(?<!\d)"/gu) ?? []).length % 2 === 1;
  if (mark === "'") return (text.match(/(?<!\d)'/gu) ?? []).length % 2 === 1;
  return false;
}

export function piece(text: string, from: number, to: number): OutPiece {
  return { text, from, to };
}

const UPPER_RE = /\p{Lu}/u;

/** "." when the text after `end` starts a new sentence or line, so a rewrite that drops an abbreviation's full stop keeps a sentence end. */
function periodIfSentenceEnd(ctx: RuleContext): string {
  const rest = ctx.input.slice(ctx.end, ctx.end + 8);
  const m = /^[ \t\u00A0]*(.)?/su.exec(rest);
  const next = m?.[1];
  if (next === undefined || next === '\n' || UPPER_RE.test(next)) return '.';
  return '';
}

/** The digits without leading zeros ("007" → "7"; "0" stays). */
export function stripZeros(digits: string): string {
  return digits.replace(/^0+(?=\d)/, '');
}

/** Whether a month and day can make a date (days are not checked against the month). */
export function validDate(month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

// --- What the shared rules hand to a language -------------------------------------------

/** A date found by the date rules (`./rules`). Offsets are inside the match. */
export interface DateParts {
  month: number;
  day: number;
  monthAt: [number, number];
  dayAt: [number, number];
  /** The year as written, with its offsets; absent when the date has none. */
  year?: { text: string; at: [number, number] };
}

/** A clock time h:mm found by the time rule (`./rules`). Offsets are inside the match. */
export interface TimeParts {
  /** Hour, 0–24. */
  h: number;
  /** Minutes, 0–59. */
  min: number;
  /** Offsets of the hour, and of the rest (":30"). */
  hSpan: [number, number];
  mSpan: [number, number];
}

/** The currencies the money rules know, by symbol. */
export type Currency = '$' | '€' | '£' | '¥' | '₩' | '₫';

/** A currency's name, singular and plural, and of its hundredth ('' where amounts have none). */
export interface CurrencyWords {
  one: string;
  many: string;
  centOne: string;
  centMany: string;
}

/** An amount of money found by the money rules (`./rules`), with the currency's names. */
export interface MoneyParts {
  /** The integer part's digits, as written without separators ("1234", "05"; "0" when it has none). */
  whole: string;
  /** Two digits of hundredths ("50" for ",5"), when the amount has a decimal part. */
  cents?: string;
  /** The currency's names in this language. */
  words: CurrencyWords;
}

/** Money read as digits then the currency ("5.50美元"): what eSpeak's Chinese, Korean and Japanese voices read well. */
export function sayMoneyInDigits({ whole, cents, words }: MoneyParts): string {
  return `${stripZeros(whole)}${cents && cents !== '00' ? `.${cents}` : ''}${words.many}`;
}

/** Words for comparison operators: < > <= >=. */
export interface ComparisonWords {
  lt: string;
  gt: string;
  le: string;
  ge: string;
}

/**
 * How one language is read: its rules and words (`./rules`). A language either reads numbers,
 * dates, times and money itself (`OwnReading`: Vietnamese, English) or is read by the rules every
 * language shares with its words for them (`SharedReading`); the type says which, so a language
 * with reading rules of its own has no hook the shared rules would use, and one without has them all.
 */
export type LanguageRules = OwnReading | SharedReading;

/** What every language gives, whoever reads its numbers. */
export interface LanguageHooks {
  /** Abbreviations eSpeak misreads in this language (see `abbreviationRule`); tried right after emoji. */
  abbreviations?: Rule;
  /** What "&" is read as. */
  andWord: string;
  /**
   * The acronyms `text` defines for itself, each with the offset of its definition and the words
   * it stands for (Vietnamese news: "Ban tổ chức (BTC)"), for `PrepareOptions.definedAcronyms`.
   */
  definedAcronyms?(text: string): ReadonlyMap<string, AcronymDefinition>;
  /** What < > <= >= between numbers or spaces are read as; without them they become spaces. */
  comparison?: ComparisonWords;
  /**
   * A stage after the rules for a script eSpeak cannot read as written (Japanese kanji, read
   * "Chinese letter"): it gets the rules' output and the source it maps to. A language with this
   * stage gets the rules and the stage whatever the model's text preparation.
   */
  afterRules?(rewritten: MappedText, source: string): Promise<PreparedText>;
  /**
   * An ordinal (SSML `say-as interpret-as="ordinal"`) written as this language's rules or eSpeak
   * read one ("3rd", "3ème"): `n` is the number, `digits` as written. Without this the digits stay.
   */
  writeOrdinal?(n: number, digits: string): string;
  /**
   * SSML `<say-as interpret-as=kind>` over `written`, read this language's way (Vietnamese
   * telephone numbers in Vietnamese digit words, "thứ tư"; an English cardinal as a count, never a
   * year's pairs): the text handed to this language's rules in its place (digits in it are read as
   * the rules read them), or undefined for the shared reading (`render/ssml-segments.ts`).
   * `options` are the render's (British "and" after hundred). Filled in
   * `./languages/<code>-say-as.ts`.
   */
  sayAs?(kind: SayAs, written: string, options: PrepareOptions): string | undefined;
  /**
   * What eSpeak reads for a letter spelt out on its own (SSML `say-as` characters), where its
   * capital is misread; undefined (or without this) for the capital, which eSpeak names.
   */
  letterName?(c: string): string | undefined;
  /**
   * What follows a lexicon entry's phonemes that eSpeak misreads after `]]` (English "'s", spelt
   * out "ess"): given the entry's phonemes and where it ends in `text`, the end of what the entry
   * takes in and the phonemes of the whole; undefined to leave the text after it alone.
   */
  afterEntryPhonemes?(
    phonemes: string,
    text: string,
    end: number,
  ): { end: number; phonemes: string } | undefined;
}

/** A language that reads numbers, dates, times, money, measures and the like with rules of its own. */
export interface OwnReading extends LanguageHooks, WithoutSharedReading {
  /**
   * The language's own reading of numbers, dates, times, money, measures and the like: these
   * rules take the place of the shared ones (dates, clock times, money, percent, ranges, and the
   * hooks of `SharedReadingHooks`); tried right after the abbreviations, in order, before the
   * characters the engine must not see.
   */
  readingRules: Rule[];
}

/** The hooks of the shared rules, which never run for a language with reading rules of its own. */
type WithoutSharedReading = { [K in keyof SharedReadingHooks]?: never };

/** A language read by the shared rules (dates, clock times, money, percent, ranges) in its words. */
export interface SharedReading extends LanguageHooks, SharedReadingHooks {
  readingRules?: undefined;
}

/** What the shared rules (`./rules`) ask of a language they read. */
export interface SharedReadingHooks {
  /** Rules of this language only, tried after the date rules and before clock times. */
  rulesAfterDates?: Rule[];
  /** Rules of this language only, tried after money and percent and before ranges and markup. */
  rulesAfterNumbers?: Rule[];
  /**
   * Which number of a numeric date like 05/06/2026 (`first` and `second`, joined by `separator`)
   * is the month, or undefined to leave such dates as written. The year-first form (2026-11-21)
   * is read in every language.
   */
  numericDateOrder(
    first: number,
    second: number,
    separator: string,
    ctx: RuleContext,
  ): 'month-first' | 'day-first' | undefined;
  /** A date from 2026-11-21 or 21/11/2026, in this language's words. */
  sayDate(date: DateParts, ctx: RuleContext): OutPiece[];
  /** A clock time, or undefined where eSpeak reads it well as written. */
  sayTime(time: TimeParts, ctx: RuleContext): OutPiece[] | undefined;
  /** A percentage: `number` is the digits, `whole` the match ("50 %"); without this eSpeak reads it as written. */
  sayPercent?(number: string, whole: string): OutPiece[];
  /** Names of the currencies, for amounts with a currency symbol. */
  currency: Record<Currency, CurrencyWords>;
  /** An amount with a currency symbol ("$5", "5,50 €"), in this language's words. */
  sayMoney(money: MoneyParts): string;
  /**
   * An amount with a scale word after it ("$3 million", "$2.5k"): `amount` as written, `scale` the
   * word. Without this the amount is read by `sayMoney` and the scale word stays as written.
   */
  sayScaledMoney?(amount: string, scale: string, words: CurrencyWords): string;
  /** What the dash of a number range ("10–20") is read as; without it the dash stays. */
  rangeWord?: string;
}

// --- Abbreviations ---------------------------------------------------------------------

export interface AbbreviationEntry {
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
export function abbreviationRule(table: Record<string, AbbreviationEntry>): Rule {
  const keys = Object.keys(table).sort((a, b) => b.length - a.length);
  const escaped = keys.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s?'));
  // An entry ending in a slash may touch the word after it ("w/TCT" with); the others end a word.
  const slashed = escaped.filter((k) => k.endsWith('/'));
  const words = escaped.filter((k) => !k.endsWith('/'));
  // Entries are looked up without their spaces: "p. ex." and "p.ex." are the same.
  const byKey = new Map(Object.entries(table).map(([k, v]) => [k.replace(/\s/g, ''), v]));
  return {
    name: 'abbreviation',
    pattern: `(?<![\\p{L}\\p{N}.])(?:(?:${words.join('|')})(?![\\p{L}\\p{N}])${slashed.map((k) => `|${k}`).join('')})`,
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
      if (whole.endsWith('/') && /^\p{L}/u.test(rest)) return `${entry.say} `;
      return entry.canEnd && whole.endsWith('.') ? `${entry.say}${periodIfSentenceEnd(ctx)}` : entry.say;
    },
  };
}
