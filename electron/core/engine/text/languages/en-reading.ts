/**
 * The English reading rules (`LanguageRules.readingRules`): numbers and what surrounds them
 * written out in English words, American style, as a reader says them (the conventions of
 * NVIDIA NeMo's English text normalisation): cardinals, decimals, ordinals, fractions, years
 * and decades, dates, clock times and durations, money, percent, measures, telephone numbers,
 * ranges, scores, versions, Roman numerals in context, acronyms, e-mail and web addresses.
 *
 * A rule that is not sure declines and leaves the text as written; no reading ever changes a
 * value ("$1,234.123" is "one thousand two hundred thirty four point one two three dollars").
 * Rules are tried in the order of `ENGLISH_READING_RULES`: at one position the first that
 * matches wins, so the longer, more specific forms come first.
 */

import { ROMAN_NUMERAL, romanValue } from '../roman-numerals';
import {
  closesAQuote,
  piece,
  QUANTITY_END,
  UNICODE_FRACTIONS,
  validDate,
  withLead,
  type OutPiece,
  type Rule,
  type RuleContext,
  type UnitWords,
} from '../rule-kit';
import {
  callSignBandRule,
  COMPASS_NAME_AHEAD,
  datelineTitleRule,
  ENGLISH_WORD_ACRONYMS,
  englishAcronymRule,
  englishCompassPairRule,
  englishPossessiveAcronymRule,
  englishCompassRule,
  englishInitialsRule,
  partyStateRule,
  spellAcronym,
  STREET_AHEAD,
  usStateRule,
} from './en-abbreviations';
import {
  cardinalWords,
  decimalWords,
  codeDigitWords,
  digitWords,
  fractionWords,
  houseNumberWords,
  mixedFractionWords,
  ordinalSuffix,
  ordinalWords,
  yearWords,
} from './en-numbers';
import { ENGLISH_UNITS, ENGLISH_UNITS_ONLY_ATTACHED } from './en-units';

export const EN_MONTHS = [
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

/** A space inside a written expression: ASCII, no-break or narrow no-break (the characters themselves: a shorter pattern, see rules.ts MAX_PART_LENGTH). */
const SP = '[ \u00A0\u202F]';
/** Before a number: not inside a word, another number or a code ("COVID-19"); after the dash of a range of times or ordinals it is ("2pm-5pm", "1st-3rd"), and in a height or odds ("6-foot-5", "1-in-3"). */
const NUM_BEFORE =
  "(?=[\\d.−–½⅓⅔¼¾⅕⅛⅜⅝⅞-])(?<![\\p{L}\\p{N}_.,:/'’%‰]|(?<!\\d[apAPsnrt]|\\d-foo|\\d-fee|\\d-i)[\\p{L}_]-)";
/** After a number: no more digits and no punctuation continuing it. */
const NUM_AFTER = '(?![\\p{N}]|[.,:/]\\p{N})';
/** After a year in a date: not the start of a longer number or a numeric date ("2012-07-25"). */
const YEAR_AFTER = '(?![\\p{N}]|[.,:/–-]\\p{N})';
const WORD_AFTER = '(?![\\p{L}\\p{N}_])';
/** An unsigned amount as written in English: "1,234.50", "1234", "3.14", ".5". */
const AMOUNT = '\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?|\\.\\d+';

/** Month names as written: capitalised, or lower case where the word is not also a verb ("may", "march"). */
const MONTH_NAME =
  '[Jj]anuary|[Ff]ebruary|March|[Aa]pril|May|[Jj]une|[Jj]uly|[Aa]ugust|[Ss]eptember|[Oo]ctober|[Nn]ovember|[Dd]ecember';
const MONTH_ABBREVIATION =
  '(?:[Jj]an|JAN|[Ff]eb|FEB|Mar|MAR|[Aa]pr|APR|[Jj]un|JUN|[Jj]ul|JUL|[Aa]ug|AUG|[Ss]ept|SEPT|[Ss]ep|SEP|[Oo]ct|OCT|[Nn]ov|NOV|[Dd]ec|DEC)\\.?';
/** Month names in capitals ("SEPTEMBER 15"). */
const MONTH_CAPITALS =
  'JANUARY|FEBRUARY|MARCH|APRIL|MAY|JUNE|JULY|AUGUST|SEPTEMBER|OCTOBER|NOVEMBER|DECEMBER';
const MONTH = `(?:${MONTH_NAME}|${MONTH_CAPITALS}|${MONTH_ABBREVIATION})`;

/** The month (1–12) a name or abbreviation stands for. */
function monthNumber(written: string): number {
  const key = written.slice(0, 3).toLowerCase();
  return EN_MONTHS.findIndex((m) => m.slice(0, 3).toLowerCase() === key) + 1;
}

/** A minus sign as written before a number: hyphen, minus sign or en dash ("to –2.7 percent"). */
const MINUS = '[-−–]';

/** A number as written, in words: sign, thousands separators, decimals ("-1,234.5" → "minus one thousand two hundred thirty four point five"). */
export function numberWords(written: string): string {
  const negative = /^[-−–]/.test(written);
  const plain = written.replace(/^[-−–]/, '').replace(/,/g, '');
  const dot = plain.indexOf('.');
  const words = dot < 0 ? cardinalWords(plain) : decimalWords(plain.slice(0, dot), plain.slice(dot + 1));
  return negative ? `minus ${words}` : words;
}

/** Whether a number as written is exactly one ("1", "-1"), for singular unit and currency names. */
function isOne(written: string): boolean {
  return /^[-−–]?1$/.test(written.replace(/,/g, ''));
}

function rangeOf(whole: string, part: string, from = 0): [number, number] {
  const at = whole.indexOf(part, from);
  return [at, at + part.length];
}

/** The text just before a match, for context words. */
function before(ctx: RuleContext, length = 32): string {
  return ctx.input.slice(Math.max(0, ctx.index - length), ctx.index);
}

function after(ctx: RuleContext, length = 32): string {
  return ctx.input.slice(ctx.end, ctx.end + length);
}

// --- Dates ------------------------------------------------------------------------------

interface DateFound {
  month: number;
  day?: string;
  year?: string;
  monthAt: [number, number];
  dayAt?: [number, number];
  yearAt?: [number, number];
}

/**
 * "July twenty fifth, twenty twelve" (month first) or "the twenty fifth of July twenty twelve"
 * (day first), each part mapped to where it is written (the year of 2012-07-25 is said last).
 */
function sayEnglishDate(d: DateFound, dayFirst: boolean, theBefore: boolean): OutPiece[] {
  const month = EN_MONTHS[d.month - 1] as string;
  const out: OutPiece[] = [];
  if (d.day !== undefined && d.dayAt) {
    const day = ordinalWords(d.day);
    if (dayFirst) {
      out.push(piece(`${theBefore ? '' : 'the '}${day}`, ...d.dayAt));
      out.push(piece(` of ${month}`, ...d.monthAt));
    } else {
      out.push(piece(month, ...d.monthAt));
      out.push(piece(` ${day}`, ...d.dayAt));
    }
  } else out.push(piece(month, ...d.monthAt));
  if (d.year !== undefined && d.yearAt) {
    const comma = d.day !== undefined && !dayFirst ? ',' : '';
    // A two-digit year: "11/17/05" oh five and "01/07/98" ninety eight as written, "10/23/14"
    // twenty fourteen whole (the readers of sets 13 and 17), a year of this century up to 2030.
    const year =
      d.year.length !== 2
        ? yearWords(d.year)
        : d.year.startsWith('0')
          ? `oh ${cardinalWords(d.year)}`
          : Number(d.year) <= 30
            ? yearWords(`20${d.year}`)
            : yearWords(d.year);
    out.push(piece(`${comma} ${year}`, ...d.yearAt));
  }
  return out;
}

function dayFirstByDefault(ctx: RuleContext): boolean {
  return ctx.options.dateOrder === 'dmy';
}

const isoDateRule: Rule = {
  name: 'date',
  // 2012-07-25, 2012/07/25
  pattern: `${NUM_BEFORE}(\\d{4})([-/.])(\\d{1,2})[-/.](\\d{1,2})${NUM_AFTER}`,
  rewrite([whole, y, sep, mo, d], ctx) {
    if (!whole || !y || !sep || !mo || !d || !validDate(Number(mo), Number(d))) return undefined;
    if (whole.split(sep).length !== 3) return undefined;
    const moAt = rangeOf(whole, mo, 5);
    return sayEnglishDate(
      {
        month: Number(mo),
        day: d,
        year: y,
        monthAt: moAt,
        dayAt: rangeOf(whole, d, moAt[1] + 1),
        yearAt: [0, 4],
      },
      dayFirstByDefault(ctx),
      false,
    );
  },
};

/**
 * Whether a date of numbers only has its month first: with slashes ("07/25/2012") unless the
 * voice's order is day first (`dateOrder` 'dmy'); with dots or dashes day first; a number over 12
 * settles it either way.
 */
export function monthComesFirst(first: number, second: number, separator: string, ctx: RuleContext): boolean {
  // "3/9/1993" and "3-9-1993" are American, month first; "25.07.2012" with points is day first.
  let monthFirst = (separator === '/' || separator === '-') && !dayFirstByDefault(ctx);
  if (monthFirst && first > 12 && second <= 12) monthFirst = false;
  if (!monthFirst && second > 12 && first <= 12) monthFirst = true;
  return monthFirst;
}

/** Words after which "7/25" is a date, not a fraction; a date's label too ("Due: 4/30", "Average First Frost: 12/15"). */
const DATE_WORDS =
  '(?<![\\p{L}])(?:[Oo]n|[Ss]ince|[Uu]ntil|[Tt]ill|[Bb]y|[Ff]rom|[Dd]ated?|[Bb]efore|[Aa]fter|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day,?|(?:[Dd]ate|[Ff]rost|[Dd]ue|[Dd]eadline):)';

const numericDateRule: Rule = {
  name: 'date',
  // 07/25/2012, 25.07.2012, 25-07-2012; "on 7/25" (a day and month only after a date word, or
  // with the month's zero written: "Average Last Frost: 02/15").
  pattern: `${NUM_BEFORE}(\\d{1,2})([/.-])(\\d{1,2})[/.-](\\d{4}|(?<=/\\d{1,2}/)\\d{2})${NUM_AFTER}|(?=\\d)(?:(?<=${DATE_WORDS}${SP}+)|(?=0[1-9]/)(?<![\\p{L}\\p{N}_.,:/]))(\\d{1,2})(/)(\\d{1,2})${NUM_AFTER}(?!${SP}+of(?![\\p{L}]))`,
  rewrite([whole, a1, sep1, b1, y, a2, sep2, b2], ctx) {
    const a = a1 ?? a2;
    const b = b1 ?? b2;
    const sep = sep1 ?? sep2;
    if (!whole || !a || !sep || !b) return undefined;
    if (y !== undefined && whole.charAt(a.length + 1 + b.length) !== sep) return undefined;
    const monthFirst = monthComesFirst(Number(a), Number(b), sep, ctx);
    const month = Number(monthFirst ? a : b);
    const day = monthFirst ? b : a;
    if (!validDate(month, Number(day))) return undefined;
    const aAt: [number, number] = [0, a.length];
    const bAt: [number, number] = [a.length + 1, a.length + 1 + b.length];
    const spoken = sayEnglishDate(
      {
        month,
        day,
        year: y,
        monthAt: monthFirst ? aAt : bAt,
        dayAt: monthFirst ? bAt : aAt,
        yearAt: y ? [whole.length - y.length, whole.length] : undefined,
      },
      !monthFirst,
      /the[ \u00A0]+$/i.test(before(ctx, 5)),
    );
    // The number written first is said first either way: the pieces are in written order.
    return spoken;
  },
};

const monthDaysSlashRule: Rule = {
  name: 'date',
  // "Saturday night/Sunday morning October 7/8": a night (or a span) between two days after a
  // month's name, the days as ordinals ("October seventh to eighth"), never a fraction.
  pattern: `(?=\\d)(?<=(?<![\\p{L}])(?:${MONTH_NAME}|${MONTH_ABBREVIATION})${SP})(\\d{1,2})/(\\d{1,2})(?![\\p{N}/]|[.,]\\d)`,
  rewrite([whole, a, b]) {
    if (!whole || !a || !b || Number(b) <= Number(a) || Number(b) > 31) return undefined;
    return `${ordinalWords(String(Number(a)))} to ${ordinalWords(String(Number(b)))}`;
  },
};

const monthDateRule: Rule = {
  name: 'date',
  // "July 25, 2012", "july 25 2012", "Jul. 25", "July 25th", "March 2020", "Jan." alone.
  // "March 3-5, 2024": a range of days in one month, "March third to fifth".
  pattern: `(?=[JFMASONDjfmasond])(?<![\\p{L}\\p{N}])(${MONTH})(?=${SP}+\\d|,?${SP}+\\d{4}|(?<=\\.))(?:${SP}+(\\d{1,2})(?:st|nd|rd|th)?(?:${SP}?[-–]${SP}?(\\d{1,2})(?:st|nd|rd|th)?)?(?![\\p{L}\\p{N}]|[:.,/-]\\d))?(?:,?${SP}+(\\d{4})${YEAR_AFTER})?(?![\\p{L}\\p{N}])`,
  rewrite([whole, m, d, lastDay, y]) {
    if (!whole || !m) return undefined;
    if (lastDay !== undefined) return dayRangeWords(whole, m, d, lastDay, y);
    const month = monthNumber(m);
    if (d === undefined && y === undefined) {
      // A lone capitalised abbreviation with its full stop ("in Jan. and Feb."); a full name stays.
      return m.endsWith('.') && /^\p{Lu}\p{Ll}/u.test(m) ? EN_MONTHS[month - 1] : undefined;
    }
    if (d !== undefined && !validDate(month, Number(d))) return undefined;
    if (d === undefined && y !== undefined && !/^[12]\d{3}$/.test(y)) return undefined;
    const dayAt = d !== undefined ? rangeOf(whole, d, m.length) : undefined;
    const dayEnd = dayAt ? whole.slice(dayAt[1]).search(/[^\p{L}]|$/u) + dayAt[1] : undefined;
    return sayEnglishDate(
      {
        month,
        day: d,
        year: y,
        monthAt: [0, m.length],
        dayAt: dayAt && dayEnd !== undefined ? [dayAt[0], dayEnd] : undefined,
        yearAt: y ? [whole.length - 4, whole.length] : undefined,
      },
      false,
      false,
    );
  },
};

const apartDaySuffixRule: Rule = {
  name: 'date',
  // "November 1 st", "October 31 st": a day's suffix set apart is not said again (the date is said
  // with its ordinal)
  pattern: `(?=[ \u00A0])(?<=(?:${MONTH})${SP}+(\\d{1,2}))[ \u00A0](st|nd|rd|th)(?![\\p{L}\\p{N}])`,
  rewrite: ([whole, day, suffix]) =>
    whole && day && suffix && ordinalSuffix(day) === suffix ? '' : undefined,
};

/** "March 3-5, 2024" → "March third to fifth, twenty twenty four", each part mapped to where it is written. */
function dayRangeWords(
  whole: string,
  m: string,
  first: string | undefined,
  last: string,
  year: string | undefined,
): OutPiece[] | undefined {
  const month = monthNumber(m);
  if (first === undefined || !validDate(month, Number(last)) || Number(first) >= Number(last))
    return undefined;
  if (!validDate(month, Number(first))) return undefined;
  const firstAt = rangeOf(whole, first, m.length);
  const lastAt = rangeOf(whole, last, firstAt[1] + 1);
  const lastEnd = whole.slice(lastAt[1]).search(/[^\p{L}]|$/u) + lastAt[1];
  const out = [
    piece(EN_MONTHS[month - 1] as string, 0, m.length),
    piece(` ${ordinalWords(first)}`, firstAt[0], lastAt[0]),
    piece(` to ${ordinalWords(last)}`, lastAt[0], lastEnd),
  ];
  if (year !== undefined) out.push(piece(`, ${yearWords(year)}`, whole.length - 4, whole.length));
  return out;
}

/** The rest of a list of days after the one being read: more days and an "and" before the last ("4, 5 and 6"). */
const MORE_DAYS_AFTER =
  /^(?:,[ \u00A0]*\d{1,2}(?:st|nd|rd|th)?)*,?[ \u00A0]+(?:and|or|&)[ \u00A0]+\d{1,2}(?![\p{L}\p{N}]|[:.,/]\d)/u;

const dayListRule: Rule = {
  name: 'date',
  // "June 16 and 17" June sixteenth and seventeenth, "March 3, 4 and 5": the days listed after a
  // month and its day are ordinals too; "June 16, 17 people" stays a count (no "and" ends the list).
  pattern: `(?=\\d)(?<=(?<![\\p{L}\\p{N}])${MONTH}${SP}+\\d{1,2}(?:st|nd|rd|th)?(?:,${SP}*\\d{1,2}(?:st|nd|rd|th)?)*(,?${SP}+(?:and|or|&)${SP}+|,${SP}*))(\\d{1,2})(?:st|nd|rd|th)?(?![\\p{L}\\p{N}]|[:.,/]\\d)`,
  rewrite([whole, separator, day], ctx) {
    if (!whole || separator === undefined || !day || Number(day) < 1 || Number(day) > 31) return undefined;
    if (!/and|or|&/u.test(separator) && !MORE_DAYS_AFTER.test(after(ctx, 40))) return undefined;
    if (qualifiesNoun(ctx)) return undefined;
    return ordinalWords(day);
  },
};

const citationMarkRule: Rule = {
  name: 'abbreviation',
  // "minutes,[5] with", "the city.[12]", "[citation needed]", "Gothic[?]": a reference mark against a word or
  // punctuation is not read; "[5]" standing alone or after a space is left.
  pattern: `(?=\\[)(?<=[\\p{L}\\p{N}.,;:!?)"”’\\]])\\[(?:\\d{1,3}(?:[-–,]\\d{1,3})*|[a-z]|\\?|note \\d{1,3}|citation needed|clarification needed|when\\?|who\\?|by whom\\?|according to whom\\?|dubious(?: – discuss)?|failed verification|better source needed)\\]`,
  rewrite([whole]) {
    return whole ? '' : undefined;
  },
};

const pluralMarkRule: Rule = {
  name: 'abbreviation',
  // "registration(s)", "item(s)", "box(es)": a plural in brackets after its word is the plural.
  pattern: `(?=\\()(?<=\\p{Ll}{2})\\((e?s)\\)(?![\\p{L}\\p{N}])`,
  rewrite([whole, ending]) {
    return whole && ending ? ending : undefined;
  },
};

const dayMonthRule: Rule = {
  name: 'date',
  // "25 July 2012", "25th July", "the 25th of July, 2012"
  pattern: `${NUM_BEFORE}(\\d{1,2})(?:st|nd|rd|th)?${SP}+(?:of${SP}+)?(${MONTH})(?:,?${SP}+(\\d{4})${YEAR_AFTER})?(?![\\p{L}\\p{N}])`,
  rewrite([whole, d, m, y], ctx) {
    if (!whole || !d || !m) return undefined;
    const month = monthNumber(m);
    if (!validDate(month, Number(d))) return undefined;
    const monthAt = rangeOf(whole, m, d.length);
    const spoken = [
      // "the" where the text leaves it out ("25 July"); "8th of September" is said as written.
      piece(
        `${/the[ \u00A0]+$/i.test(before(ctx, 5)) || /of/u.test(whole.slice(0, monthAt[0])) ? '' : 'the '}${ordinalWords(d)} of `,
        0,
        monthAt[0],
      ),
      piece(EN_MONTHS[month - 1] as string, ...monthAt),
    ];
    if (y) spoken.push(piece(` ${yearWords(y)}`, monthAt[1], whole.length));
    return spoken;
  },
};

const dayRangeMonthRule: Rule = {
  name: 'date',
  // "16-22 July" the sixteenth to the twenty second of July, "3–5 May 2020"
  // (not a score before a month's day: "won 5-3 May 4")
  pattern: `${NUM_BEFORE}(?<!(?:won|beat|lost|led|trailed|defeated|scored|finished|ended|drew|tied)${SP}+)(\\d{1,2})(?:st|nd|rd|th)?${SP}?[-–]${SP}?(\\d{1,2})(?:st|nd|rd|th)?${SP}+(?:of${SP}+)?(${MONTH})(?!${SP}*\\d)(?:,?${SP}+(\\d{4})${YEAR_AFTER})?(?![\\p{L}\\p{N}])`,
  rewrite([whole, first, last, m, y], ctx) {
    if (!whole || !first || !last || !m) return undefined;
    const month = monthNumber(m);
    // No span of days: the first number alone, the rest read again by every rule.
    if (Number(first) >= Number(last) || !validDate(month, Number(last)))
      return { out: cardinalWords(first), end: first.length, name: 'cardinal' };
    const the = /the[ \u00A0]+$/i.test(before(ctx, 5)) ? '' : 'the ';
    const year = y ? ` ${yearWords(y)}` : '';
    return `${the}${ordinalWords(first)} to the ${ordinalWords(last)} of ${EN_MONTHS[month - 1]}${year}`;
  },
};

const dashedDayMonthRule: Rule = {
  name: 'date',
  // "16-Jan-2009" (press releases, logs): the sixteenth of January two thousand nine. The month
  // is matched as a word and looked up (the pattern stays under the size V8 optimises).
  pattern: `${NUM_BEFORE}(\\d{1,2})-([A-Z][a-z]{2,8})-(\\d{4})(?![\\p{L}\\p{N}])`,
  rewrite([whole, d, m, y], ctx) {
    if (!whole || !d || !m || !y || !MONTH_ALONE.test(m) || !validDate(monthNumber(m), Number(d)))
      return undefined;
    const monthAt = rangeOf(whole, m, d.length);
    const yearAt = rangeOf(whole, y, monthAt[1]);
    const date = {
      month: monthNumber(m),
      day: d,
      year: y,
      monthAt,
      dayAt: [0, d.length] as [number, number],
      yearAt,
    };
    return sayEnglishDate(date, true, /the[ \u00A0]+$/i.test(before(ctx, 5)));
  },
};

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
/** A day of the week abbreviated without "day" ("Fri", "Tues", "Sat"), as written in opening hours. */
const WEEKDAY_SHORT = '(?:Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun)';
/** A day of the week, whole or abbreviated ("Mon", "Tues", "Thurs"). */
const WEEKDAY = `${WEEKDAY_SHORT}(?:day|\\.)?|Wednesday|Saturday`;

/** The day of the week a name or abbreviation stands for. */
function weekdayName(written: string): string {
  return WEEKDAYS.find((d) => d.slice(0, 2) === written.slice(0, 2)) as string;
}

const weekdayRangeRule: Rule = {
  name: 'range',
  // "Monday-Friday", "Mon-Fri", "Tues.–Thurs." → "Monday to Friday"
  pattern: `(?=[MTWFS])(?<![\\p{L}\\p{N}])(${WEEKDAY})${SP}?[-–]${SP}?(${WEEKDAY})(?![\\p{L}\\p{N}])`,
  rewrite([whole, first, last]) {
    if (!whole || !first || !last) return undefined;
    const lastAt = whole.lastIndexOf(last);
    return [
      piece(weekdayName(first), 0, first.length),
      piece(' to ', first.length, lastAt),
      piece(weekdayName(last), lastAt, whole.length),
    ];
  },
};

/** Before a short day: another day and "&", "and", "," or "/" ("Sat & Sun", "Tue, Thu"). */
const DAY_LISTED_BEFORE = new RegExp(
  `(?:^|[^\\p{L}])(?:(?:${WEEKDAY})${SP}*(?:[&,/]|and)|[Cc]losed|[Oo]pen|[Uu]ntil|[Tt]hrough|[Tt]hru|[Ee]xcept|[Ee]very)${SP}*$`,
  'u',
);
/** Short days that are no English word ("Tues", "Thurs", "Fri"): a day wherever they stand. */
const ONLY_A_DAY = /^(?:Tues?|Thu(?:rs?)?|Fri)\.?$/u;
/**
 * After a short day: another day joined the same way or by "to" or a dash ("Wed to Fri"), or a
 * clock time, after a colon or a dash too ("Fri 5:45-7:15pm", "Sat: 10am", "Sun – Noon to 4 p.m."), or a
 * British date ("Wed, 5 February 2025").
 */
const DAY_LISTED_AFTER = new RegExp(
  `^(?:${SP}*(?:[&,/–—-]|and|to|through|thru)${SP}*(?:${WEEKDAY})(?![\\p{L}])|,${SP}+\\d{1,2}${SP}+(?:${MONTH_NAME})(?![\\p{L}])|(?::|${SP}*[–—-])?${SP}+(?:[Nn]oon|[Mm]idnight|[Cc]losed|\\d{1,2}:[0-5]\\d|\\d{1,2}(?:\\.[0-5]\\d)?${SP}?(?:[ap]\\.?m\\.?|[AP]\\.?M\\.?)(?![\\p{L}])))`,
  'u',
);

const weekdayInHoursRule: Rule = {
  name: 'date',
  // "Fri 5:45-7:15pm", "Sat & Sun", "Tue, Thu 6pm", "closed Mon": a short day beside a time or
  // another day, or after a word of opening hours, is the day's name, and "Tues", "Thurs", "Fri"
  // always are; "Sun" or "Wed" alone stays as written (a star, a verb).
  pattern: `(?=[MTWFS])(?<![\\p{L}\\p{N}])${WEEKDAY_SHORT}\\.?(?![\\p{L}\\p{N}])`,
  rewrite([whole], ctx) {
    if (!whole) return undefined;
    if (
      !ONLY_A_DAY.test(whole) &&
      !DAY_LISTED_BEFORE.test(before(ctx, 16)) &&
      !DAY_LISTED_AFTER.test(after(ctx, 24))
    )
      return undefined;
    // "closed Tues." at the end of a sentence keeps its full stop.
    const endsSentence =
      whole.endsWith('.') && /^(?:[ \u00A0]*$|[ \u00A0]*\n|[ \u00A0]+\p{Lu})/u.test(after(ctx, 3));
    return `${weekdayName(whole)}${endsSentence ? '.' : ''}`;
  },
};

/** A whole word that is a month's name or abbreviation. */
const MONTH_ALONE = new RegExp(`^${MONTH}$`, 'u');

const tildeRule: Rule = {
  name: 'range',
  // "5~10 kg", "90VAC~240VAC": a tilde after a number, or a unit written after one, is "to";
  // before a number elsewhere it is "about" ("~500 people"). eSpeak says "tilde".
  pattern: `~(?=${SP}?\\d)`,
  rewrite(_groups, ctx) {
    if (QUANTITY_END.test(before(ctx, 8))) return RANGE_WORD;
    if (/(?:^|[^\p{L}])(?:about|approximately|around|roughly)[ \u00A0]*$/iu.test(before(ctx, 16))) return ' ';
    return /[\p{L}\p{N}]$/u.test(before(ctx, 1)) ? ' about ' : 'about ';
  },
};

const monthRangeRule: Rule = {
  name: 'range',
  // "May-Sept", "Jan–Mar" → "May to September", "January to March": a dash between months is "to".
  // The second month is matched as a word and looked up, so the months are written once in the
  // expression (it stays under the size V8 optimises).
  pattern: `(?=[JFMASONDjfmasond])(?<![\\p{L}\\p{N}])(${MONTH})${SP}?[-–]${SP}?([A-Za-z]{3,9}\\.?)(?![\\p{L}\\p{N}])`,
  rewrite([whole, first, last]) {
    if (!whole || !first || !last) return undefined;
    // "January-August." ends a sentence: its full stop is not an abbreviation's.
    const stop = last.endsWith('.') && !MONTH_ALONE.test(last) ? '.' : '';
    const lastMonth = stop ? last.slice(0, -1) : last;
    if (!MONTH_ALONE.test(lastMonth)) return undefined;
    const lastAt = whole.lastIndexOf(last);
    return [
      piece(EN_MONTHS[monthNumber(first) - 1] as string, 0, first.length),
      piece(' to ', first.length, lastAt),
      piece(`${EN_MONTHS[monthNumber(lastMonth) - 1] as string}${stop}`, lastAt, whole.length),
    ];
  },
};

/** A month's abbreviation of three letters, as a table's heading writes it. */
const MONTH_THREE = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
/** What parts a table's headings: bars, commas, slashes or spaces. */
const HEADING_GAP = '(?:[ \\t]*[|,;/][ \\t]*|[ \\t]+)';

const monthRowRule: Rule = {
  name: 'date',
  // "| Jan | Feb | Mar |", "Jan Feb Mar": months side by side, a table's headings, each said in
  // full (one alone, "APR", may be an acronym: the date rule wants a day, a year or a full stop).
  pattern: `(?=${MONTH_THREE}(?![\\p{L}]))(?<![\\p{L}\\p{N}])(${MONTH_THREE})(?![\\p{L}\\p{N}.])(?:(?=${HEADING_GAP}${MONTH_THREE}(?![\\p{L}]))|(?<=${MONTH_THREE}${HEADING_GAP}${MONTH_THREE}))`,
  rewrite: ([whole, month]) => (whole && month ? EN_MONTHS[monthNumber(month) - 1] : undefined),
};

/** A runway's end by its side: "27L" twenty seven left. */
const RUNWAY_SIDES: Readonly<Record<string, string>> = { L: ' left', R: ' right', C: ' center' };

const runwayRule: Rule = {
  name: 'cardinal',
  // "Runway 7/25", "Runways 9L/27R": a runway's two ends, each its heading in tens of degrees
  // ("seven twenty five"), not a fraction or a date.
  pattern: `(?=\\d)(?<=[Rr]unways?${SP}+)(\\d{1,2})([LRC]?)/(\\d{1,2})([LRC]?)(?![\\p{L}\\p{N}/])`,
  rewrite: ([whole, a, sideA, b, sideB]) =>
    whole && a && b
      ? `${cardinalWords(a)}${RUNWAY_SIDES[sideA ?? ''] ?? ''} ${cardinalWords(b)}${RUNWAY_SIDES[sideB ?? ''] ?? ''}`
      : undefined,
};

const fiscalYearRule: Rule = {
  name: 'date',
  // "FY2024" F Y twenty twenty four, "FY23" F Y twenty three, "FY'23"; a fiscal year across two
  // ("FY 2020-21", "FY 20/21") is both years, never a range or a fraction: twenty twenty twenty one.
  pattern: `(?=FY)(?<![\\p{L}\\p{N}])FY${SP}?['’]?(\\d{4}|\\d{2})(?:[-/–](\\d{2}))?(?![\\p{L}\\p{N}]|[-/.,]\\d)`,
  rewrite([whole, year, next]) {
    if (!whole || !year) return undefined;
    const say = (y: string) =>
      y.length === 2 && y.startsWith('0') ? `oh ${cardinalWords(y)}` : yearWords(y);
    return `${spellAcronym('FY')} ${say(year)}${next === undefined ? '' : ` ${say(next)}`}`;
  },
};

const weekdayBeforeDateRule: Rule = {
  name: 'date',
  // "Tues., Nov. 7", "Sat. Oct. 14", "Sat, Dec 14": an abbreviated day of the week before a date is
  // said whole (without its point, only before a comma, a month and a day)
  pattern: `(?=[MTWFS])(?<![\\p{L}\\p{N}])(?:Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun)(?:\\.(?=,?${SP}+(?:${MONTH}|\\d))|(?=,${SP}+(?:${MONTH})${SP}+\\d))`,
  rewrite([whole]) {
    return whole ? weekdayName(whole) : undefined;
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

const decadeRule: Rule = {
  name: 'date',
  // "the 1990s" nineteen nineties, "2000s" two thousands, "'90s" and "the 80s" eighties.
  pattern: `(?=[\\d'’])(?<![\\p{L}\\p{N}'’])(?:(1\\d|20)|['’])?(\\d)0['’]?s${WORD_AFTER}|(?<![\\p{L}\\p{N}.,])(1(?:,?000){1,3}|100)s${WORD_AFTER}`,
  rewrite([whole, century, decade, round]) {
    if (!whole) return undefined;
    // "100s of people", "1,000s": hundreds, thousands, millions.
    if (round !== undefined) return `${cardinalWords(round.replace(/,/g, '')).replace(/^one /u, '')}s`;
    if (decade === undefined) return undefined;
    const d = Number(decade);
    const bare = !/^\d{3}/.test(whole);
    if (bare) return d >= 2 ? DECADES[d] : undefined;
    return decadeWords(century ?? '', d);
  },
};

/** A decade of a century in words: "19", 9 → "nineteen nineties"; "20", 0 → "two thousands". */
function decadeWords(century: string, decade: number): string {
  if (decade === 0) return century === '20' ? 'two thousands' : `${cardinalWords(century)} hundreds`;
  return `${cardinalWords(century)} ${DECADES[decade]}`;
}

const prefixedYearRule: Rule = {
  name: 'date',
  // "mid-2013" mid twenty thirteen, "late-1990s", "pre-2020", "post-1945": the year or decade
  // after a prefix, the hyphen silent.
  pattern: `(?=-)(?<=(?<![\\p{L}])(?:[Mm]id|[Ll]ate|[Ee]arly|[Pp]re|[Pp]ost))-((?:1\\d|20)\\d{2})(s?)${WORD_AFTER}(?![.,]\\d)`,
  rewrite([whole, year, plural]) {
    if (!whole || !year) return undefined;
    const decade = Number(year.charAt(2));
    if (plural && year.endsWith('0')) return ` ${decadeWords(year.slice(0, 2), decade)}`;
    return plural ? undefined : ` ${yearWords(year)}`;
  },
};

/** Abbreviations before a year in a life or a reign: "(m.1536)" married, "b. 1950" born, "r. 1509–1547" reigned ("c." circa is the dictionary's). */
const LIFE_EVENTS: Readonly<Record<string, string>> = {
  m: 'married',
  b: 'born',
  d: 'died',
  r: 'reigned',
  fl: 'flourished',
};

const lifeEventRule: Rule = {
  name: 'date',
  // "(m.1536)" married fifteen thirty six, "b. 1950" born, "d. 1603" died, "r. 1509–1547" reigned
  // fifteen oh nine to fifteen forty seven, "fl. 1420" flourished: only before a year of three or
  // four digits.
  pattern: `(?=[mbdrf])(?<![\\p{L}\\p{N}.])(m|b|d|r|fl)\\.${SP}?([1-9]\\d{2}|1\\d{3}|20\\d{2})(?:${SP}?[-–]${SP}?([1-9]\\d{2}|1\\d{3}|20\\d{2}))?(?![\\p{L}\\p{N}]|[.,:/]\\p{N})`,
  rewrite([whole, abbreviation, first, last]) {
    const event = abbreviation === undefined ? undefined : LIFE_EVENTS[abbreviation];
    if (!whole || !event || !first) return undefined;
    const firstAt = rangeOf(whole, first, abbreviation?.length);
    const out = [piece(`${event} `, 0, firstAt[0]), piece(yearWords(first), ...firstAt)];
    if (last !== undefined) {
      const lastAt = rangeOf(whole, last, firstAt[1]);
      out.push(piece(' to ', firstAt[1], lastAt[0]), piece(yearWords(last), ...lastAt));
    }
    return out;
  },
};

// --- Times and durations ----------------------------------------------------------------

const AM_PM = `(?:[apAP]\\.[mM]\\.?|[ap]m|[AP]M)(?![\\p{L}])`;

/** "a.m." or "p.m."; before the full stop that ends a sentence ("5pm.") without its own, so it is not doubled. */
function sayAmPm(written: string, ctx: RuleContext): string {
  const said = written.toLowerCase().startsWith('a') ? 'a.m.' : 'p.m.';
  return after(ctx, 1) === '.' ? said.slice(0, -1) : said;
}

/** Hour and minutes as a clock reads them: "nine fifteen", "nine oh five", "twelve o'clock", "fourteen hundred". */
export function clockWords(h: string, min: string, withAmPm: boolean): string {
  const hour = cardinalWords(h);
  const m = Number(min);
  if (m === 0)
    return withAmPm ? hour : Number(h) >= 1 && Number(h) <= 12 ? `${hour} o'clock` : `${hour} hundred`;
  if (m < 10) return `${hour} oh ${cardinalWords(min)}`;
  return `${hour} ${cardinalWords(min)}`;
}

/** A clock time past noon written in 24 hours ("18:30"). */
const TWENTY_FOUR_HOUR = /(?<![\d:])(?:1[3-9]|2[0-3]):[0-5]\d(?![\d:])/u;

/** Two digits of a clock after its hour: "05" oh five, "00" oh oh, "41" forty one. */
function clockPairWords(two: string): string {
  if (two === '00') return 'oh oh';
  return two.startsWith('0') ? `oh ${cardinalWords(two)}` : cardinalWords(two);
}

const clockTimeRule: Rule = {
  name: 'time',
  // 9:15, 9:05 am, 12:00, 14:30, 10:30:15 p.m.; "5pm", "5 p.m."
  pattern: `${NUM_BEFORE}(?:([01]?\\d|2[0-4]):([0-5]\\d)(?::([0-5]\\d))?(?:${SP}?(${AM_PM}))?|(1[0-2]|0?[1-9])${SP}?(${AM_PM}))(?![\\p{N}]|[:.,]\\p{N})`,
  rewrite([whole, h, min, sec, ampm, h2, ampm2], ctx) {
    if (!whole) return undefined;
    if (h2 !== undefined && ampm2 !== undefined) return `${cardinalWords(h2)} ${sayAmPm(ampm2, ctx)}`;
    if (h === undefined || min === undefined) return undefined;
    if (sec !== undefined && !ampm && !/(?:^|[^\p{L}])at[ \u00A0]+$/iu.test(before(ctx))) {
      // "14:10:30" as a stopwatch reads it, without "and".
      return durationWords(
        [
          [h, 'hour'],
          [min, 'minute'],
          [sec, 'second'],
        ],
        ' ',
      );
    }
    if (Number(h) === 24 && Number(min) > 0) return undefined;
    // "06:30 07:00 18:30 18:00": on a line of 24-hour times, a zero-led hour is "seven hundred".
    if (sec === undefined && !ampm && min === '00' && h.startsWith('0') && TWENTY_FOUR_HOUR.test(lineOf(ctx)))
      return `${cardinalWords(h)} hundred`;
    // "at 23:19:41 GMT", "10:16:27 PM": the seconds after the minutes, as the clock reads them
    // ("twenty three nineteen forty one").
    const clock =
      sec === undefined
        ? clockWords(h, min, ampm !== undefined)
        : [h, min, sec].map((n, i) => (i === 0 ? cardinalWords(n) : clockPairWords(n))).join(' ');
    return `${clock}${ampm ? ` ${sayAmPm(ampm, ctx)}` : ''}`;
  },
};

/** A British clock time with a point, only when a.m. or p.m. follows it or the end of its range ("9.30am", "10.30-11.45am"). */
const POINT_CLOCK = '(1[0-2]|0?[1-9])\\.([0-5]\\d)';

const pointClockRule: Rule = {
  name: 'time',
  // "9.30am" nine thirty a.m., "9.00 am" nine a.m., "10.30-11.45am": a point between hour and
  // minutes is a clock only with a.m./p.m. after it or after the time that ends its range, so
  // "9.30 people" and "3.45 kg" stay decimals.
  pattern: `${NUM_BEFORE}${POINT_CLOCK}(?:${SP}?(${AM_PM})|(?=${SP}?[-–]${SP}?${POINT_CLOCK.replace(/[()]/g, '')}${SP}?${AM_PM}))(?![\\p{N}]|[:.,]\\p{N})`,
  rewrite([whole, h, min, ampm], ctx) {
    if (!whole || !h || !min) return undefined;
    return `${clockWords(h, min, true)}${ampm ? ` ${sayAmPm(ampm, ctx)}` : ''}`;
  },
};

const noonRangeRule: Rule = {
  name: 'range',
  // "noon–8pm", "10am-noon", "9pm-midnight": a dash between noon or midnight and a clock time is "to".
  pattern: `(?=[-–])(?:(?<=(?<![\\p{L}])(?:noon|midnight))[-–](?=\\d{1,2}(?::[0-5]\\d)?${SP}?${AM_PM})|(?<=\\d${SP}?${AM_PM})[-–](?=(?:noon|midnight)(?![\\p{L}])))`,
  rewrite: () => ' to ',
};

/** Amounts of time in words, leaving out zeros: "two hours and thirty minutes"; `beforeLast` joins the last amount. */
function durationWords(parts: [string, string][], beforeLast = ' and '): string {
  const words = parts
    .filter(([n]) => Number(n) !== 0)
    .map(([n, unit]) => `${cardinalWords(n)} ${Number(n) === 1 ? unit : `${unit}s`}`);
  if (words.length === 0) return `zero ${(parts[parts.length - 1] as [string, string])[1]}s`;
  const last = words.pop() as string;
  return words.length > 0 ? `${words.join(' ')}${beforeLast}${last}` : last;
}

const lapTimeRule: Rule = {
  name: 'time',
  // "19:04.70", "1:02:17.5": a stopwatch's time with fractions of a second, never a clock's:
  // "nineteen minutes four point seven zero seconds".
  pattern: `${NUM_BEFORE}(?:(\\d{1,2}):)?(\\d{1,2}):([0-5]\\d)\\.(\\d{1,3})(?![\\p{N}]|[:.,]\\p{N})`,
  rewrite([whole, h, min, sec, fraction]) {
    if (!whole || !min || !sec || !fraction) return undefined;
    const seconds = `${decimalWords(String(Number(sec)), fraction)} seconds`;
    if (Number(h ?? 0) === 0 && Number(min) === 0) return seconds;
    const hoursAndMinutes: [string, string][] = [
      [h ?? '0', 'hour'],
      [min, 'minute'],
    ];
    return `${durationWords(hoursAndMinutes, ' ')} ${seconds}`;
  },
};

const durationRule: Rule = {
  name: 'duration',
  // "2h 30m", "2h30", "1 hr 15 min"
  pattern: `${NUM_BEFORE}(\\d{1,3})${SP}?(?:h|hrs?)${SP}?([0-5]?\\d)${SP}?(?:m|mins?)?(?![\\p{L}\\p{N}])`,
  rewrite([whole, h, min]) {
    if (!whole || !h || !min) return undefined;
    return durationWords([
      [h, 'hour'],
      [min, 'minute'],
    ]);
  },
};

// --- An amount before the noun it qualifies ---------------------------------------------

/**
 * Lower-case words after an amount that are not a noun it qualifies: articles and pronouns,
 * prepositions, conjunctions, common verbs, adverbs of time and place, comparatives ("$300 to",
 * "10 mm of rain", "$5 million was", "5 km away", "2 kg more", "$10 a share").
 */
const NOT_A_NOUN: ReadonlySet<string> = new Set(
  (
    'a an the this that these those its it his her their our your my some any each every all both no one ' +
    'of in on at by for from to with without into onto over under above below about after before between ' +
    'through during since until till against among across along around behind beyond near off out up down ' +
    'upon within via toward towards than as like plus minus versus vs per apiece ' +
    'and or but nor so yet if when while because although though unless whether where which who whom whose ' +
    'what how why then there here ' +
    'is are was were be been being am has have had do does did will would shall should can could may might must ' +
    'goes went comes came cost costs remain remains became become becomes seem seems make makes made get gets got ' +
    'take takes took give gives gave mean means meant cover covers include includes pay pays paid buy buys bought ' +
    'bring brings brought add adds help helps put puts go come ' +
    'more less fewer most least today yesterday tomorrow tonight now ago last next later earlier already still ' +
    'also just only even too enough total overall altogether back away apart ahead long wide high tall deep thick ' +
    'old worth net gross cash north south east west overnight inside outside indoors outdoors ' +
    'northeast northwest southeast southwest northward southward eastward westward upward downward ' +
    'dollar dollars euro euros pound pounds cent cents ' +
    'higher lower longer shorter faster slower bigger smaller larger wider deeper taller heavier lighter further ' +
    'farther greater better worse left free remaining either neither x prior'
  ).split(' '),
);

/** A determiner, and at most one word after it, before an amount ("a", "the", "a record", "an estimated"). */
const AMOUNT_DETERMINER =
  /(?:^|[^\p{L}])(?:an?|the|its|this|that|these|those|their|his|her|our|your|each|every|another)(?:[ \u00A0]+\p{Ll}+(?:-\p{Ll}+)?)?[ \u00A0]+$/iu;

/** Whether an amount written from `start` has a determiner before it. */
function determinedAt(ctx: RuleContext, start: number): boolean {
  return AMOUNT_DETERMINER.test(ctx.input.slice(Math.max(0, start - 32), start));
}

/** The lower-case word after a match, and the one after it. */
const WORDS_AFTER =
  /^[ \u00A0\u202F]+(\p{Ll}[\p{Ll}-]*)(?![\p{L}\p{N}'’])(?:[ \u00A0\u202F]+(\p{Ll}[\p{Ll}-]*)(?![\p{L}\p{N}'’]))?/u;

/**
 * A word that is a noun only if another noun follows it: "a $10 billion proposed merger", "a
 * $50 monthly fee", "a $5 million funding round"; an adjective after a measure is not ("gusts
 * up to 30 mph possible").
 */
const NEEDS_A_NOUN_AFTER = /(?:ed|ly|ing|able|ible)$/u;

/**
 * Whether an amount or measure qualifies the noun written right after it, where English says
 * the unit in the singular: "a $90 billion share repurchase", "the $10,000 fine", "1.7mm bezels",
 * "25W quick charging", "100 mph winds" (but "cost $300.", "$300 to", "10 mm of rain", "5 km away",
 * "at 100 mph in the"). A temperature keeps its plural ("30 °C heat").
 */
export function qualifiesNoun(ctx: RuleContext): boolean {
  return qualifiesNounIn(after(ctx, 40));
}

/** `qualifiesNoun` for the text after the amount or measure. */
function qualifiesNounIn(rest: string): boolean {
  const words = WORDS_AFTER.exec(rest);
  const first = words?.[1];
  if (first === undefined || NOT_A_NOUN.has(first)) return false;
  if (!NEEDS_A_NOUN_AFTER.test(first)) return true;
  const second = words?.[2];
  // "a $25 processing and administrative fee": two qualifiers joined before the noun.
  if ((second === 'and' || second === 'or') && words) return qualifiesNounIn(rest.slice(words[0].length));
  return second !== undefined && !NOT_A_NOUN.has(second) && !NEEDS_A_NOUN_AFTER.test(second);
}

/** The line a match stands on. */
function lineOf(ctx: RuleContext): string {
  const start = ctx.input.lastIndexOf('\n', ctx.index) + 1;
  const stop = ctx.input.indexOf('\n', ctx.end);
  return ctx.input.slice(start, stop < 0 ? undefined : stop);
}

/** The capitalised word after a match ("Share" in "$90B Share Buyback"). */
const CAPITALISED_WORD_AFTER = /^[ \u00A0\u202F]+(\p{Lu}\p{Ll}+)(?![\p{L}\p{N}'’])/u;
/** Words of four letters or more in a line. */
const LONG_WORDS = /\p{L}{4,}/gu;

/**
 * Whether an amount qualifies the capitalised noun after it in a headline written in title case,
 * where no determiner comes first: "Apple Announces $90B Share Buyback" ninety billion dollar share
 * buyback. A title-case line has every word of four letters or more capitalised.
 */
function qualifiesNounInHeadline(ctx: RuleContext): boolean {
  const next = CAPITALISED_WORD_AFTER.exec(after(ctx, 24))?.[1];
  if (next === undefined || NOT_A_NOUN.has(next.toLowerCase())) return false;
  const line = lineOf(ctx);
  if (line.length > 160) return false;
  const words = line.match(LONG_WORDS) ?? [];
  return words.length >= 3 && words.every((w) => /^\p{Lu}/u.test(w));
}

// --- Money ------------------------------------------------------------------------------

export interface CurrencyName {
  one: string;
  many: string;
  /** The hundredth's names; absent where amounts have none (yen). */
  cent?: [string, string];
  /** Hundredths after a whole amount said without their name ("£1.50" one pound fifty). */
  bareCents?: boolean;
}

const CURRENCY_BY_SYMBOL: Record<string, CurrencyName> = {
  $: { one: 'dollar', many: 'dollars', cent: ['cent', 'cents'] },
  US$: { one: 'US dollar', many: 'US dollars', cent: ['cent', 'cents'] },
  C$: { one: 'Canadian dollar', many: 'Canadian dollars', cent: ['cent', 'cents'] },
  A$: { one: 'Australian dollar', many: 'Australian dollars', cent: ['cent', 'cents'] },
  AU$: { one: 'Australian dollar', many: 'Australian dollars', cent: ['cent', 'cents'] },
  NZ$: { one: 'New Zealand dollar', many: 'New Zealand dollars', cent: ['cent', 'cents'] },
  HK$: { one: 'Hong Kong dollar', many: 'Hong Kong dollars', cent: ['cent', 'cents'] },
  S$: { one: 'Singapore dollar', many: 'Singapore dollars', cent: ['cent', 'cents'] },
  '€': { one: 'euro', many: 'euros', cent: ['cent', 'cents'] },
  '£': { one: 'pound', many: 'pounds', cent: ['penny', 'pence'], bareCents: true },
  '¥': { one: 'yen', many: 'yen' },
  '￥': { one: 'yen', many: 'yen' },
  '₩': { one: 'won', many: 'won' },
  '₹': { one: 'rupee', many: 'rupees', cent: ['paisa', 'paise'] },
  '₫': { one: 'dong', many: 'dong' },
  đ: { one: 'dong', many: 'dong' },
  USD: { one: 'US dollar', many: 'US dollars', cent: ['cent', 'cents'] },
  EUR: { one: 'euro', many: 'euros', cent: ['cent', 'cents'] },
  GBP: { one: 'British pound', many: 'British pounds', cent: ['penny', 'pence'], bareCents: true },
  JPY: { one: 'Japanese yen', many: 'Japanese yen' },
  CNY: { one: 'yuan', many: 'yuan' },
  CAD: { one: 'Canadian dollar', many: 'Canadian dollars', cent: ['cent', 'cents'] },
  AUD: { one: 'Australian dollar', many: 'Australian dollars', cent: ['cent', 'cents'] },
  CHF: { one: 'Swiss franc', many: 'Swiss francs' },
  INR: { one: 'Indian rupee', many: 'Indian rupees' },
  KES: { one: 'Kenyan shilling', many: 'Kenyan shillings', cent: ['cent', 'cents'] },
  Ksh: { one: 'shilling', many: 'shillings', cent: ['cent', 'cents'] },
  KSh: { one: 'shilling', many: 'shillings', cent: ['cent', 'cents'] },
  VND: { one: 'Vietnamese dong', many: 'Vietnamese dong' },
  VNĐ: { one: 'Vietnamese dong', many: 'Vietnamese dong' },
};

const SYMBOL = '(?:US|C|AU|A|NZ|HK|S)?\\$|[€£¥￥₩₹₫]';
const CODE = 'USD|EUR|GBP|JPY|CNY|CAD|AUD|CHF|INR|KES|Ksh|KSh|VND|VNĐ';
const SCALE =
  '(?:thousand|million|billion|trillion|Thousand|Million|Billion|Trillion|[kKmMbB]|mn|bn|tn)(?![\\p{L}\\p{N}])';
/** "$20/mo": what an amount is per. */
const PERIODS: Record<string, string> = {
  h: 'hour',
  hr: 'hour',
  hour: 'hour',
  d: 'day',
  day: 'day',
  wk: 'week',
  week: 'week',
  mo: 'month',
  month: 'month',
  yr: 'year',
  year: 'year',
  person: 'person',
  kg: 'kilogram',
  lb: 'pound',
};
const PERIOD = `(?:${Object.keys(PERIODS).join('|')})(?![\\p{L}\\p{N}])`;
const SCALE_WORDS: Record<string, string> = {
  k: 'thousand',
  K: 'thousand',
  m: 'million',
  M: 'million',
  mn: 'million',
  b: 'billion',
  B: 'billion',
  bn: 'billion',
  tn: 'trillion',
  // Capitalised in a headline: "$5 Million Deal".
  Thousand: 'thousand',
  Million: 'million',
  Billion: 'billion',
  Trillion: 'trillion',
};

/** The number part of an amount in words, without the currency: "5", "2.5 million". */
function amountNumber(amount: string, scale: string | undefined): string {
  // "$1500" written without a comma is said in hundreds, fifteen hundred; "$1,500", "$2000" are thousands.
  const n = /^[1-9][1-9]00$/u.test(amount) && !scale ? blockNumberWords(amount) : numberWords(amount);
  return scale ? `${n} ${SCALE_WORDS[scale] ?? scale}` : n;
}

/** Whether an amount is read with its hundredths as cents ("5.50"); other decimals keep their digits. */
function hasCents(amount: string, currency: CurrencyName, scale: string | undefined): boolean {
  return !scale && currency.cent !== undefined && /\.(?:\d{1,2}|\d{2}0+)$/.test(amount);
}

/** An amount of money in words: "five dollars", "one thousand two hundred thirty four dollars twelve cents", "one cent". */
export function moneyWords(amount: string, currency: CurrencyName, scale?: string): string {
  if (hasCents(amount, currency, scale)) {
    const [wholeText = '', decimals = ''] = amount.replace(/,/g, '').split('.');
    // "20.5" and "20.500" are 20 dollars 50 cents: the same value, said as cents.
    const centsText = decimals.padEnd(2, '0').slice(0, 2);
    const [centOne, centMany] = currency.cent as [string, string];
    const whole = wholeText === '' ? '0' : wholeText;
    const cents = Number(centsText);
    const centWords = `${cardinalWords(centsText)} ${cents === 1 ? centOne : centMany}`;
    const wholeWords = `${cardinalWords(whole)} ${isOne(whole) ? currency.one : currency.many}`;
    if (cents === 0) return wholeWords;
    if (Number(whole) === 0) return centWords;
    return `${wholeWords} ${currency.bareCents ? cardinalWords(centsText) : centWords}`;
  }
  const name = !scale && isOne(amount) ? currency.one : currency.many;
  return `${amountNumber(amount, scale)} ${name}`;
}

/** A range of money: "$5-$10" → "five to ten dollars"; "$5.50-$10" keeps each amount whole. */
function moneyRangeWords(
  first: [string, string | undefined],
  second: [string, string | undefined],
  currency: CurrencyName,
): string {
  const plain = (a: string, s: string | undefined) => !hasCents(a, currency, s);
  const to = moneyWords(second[0], currency, second[1]);
  if (plain(...first) && plain(...second)) return `${amountNumber(...first)} to ${to}`;
  return `${moneyWords(first[0], currency, first[1])} to ${to}`;
}

/**
 * The currency said in the singular where the amount qualifies a noun after a determiner ("a
 * $300 fee" three hundred dollar fee, "the $10,000 fine", "a record $5 billion deal"); without
 * one the noun is what the money is ("$1 billion damage", "$40 million cash"), and amounts with
 * cents keep their words ("a $2.50 fee").
 */
/** Nouns of an amount of money or harm, measured rather than counted: "caused $1 billion damage" is dollars of damage. */
const MASS_NOUNS: ReadonlySet<string> = new Set(
  'damage damages revenue revenues profit profits loss losses gain gains deficit surplus funding debt aid money income capital financing spending sales compensation relief credit'.split(
    ' ',
  ),
);

/** Words after an amount with no determiner that do not make it an adjective: "costs $5 extra", "$50 million short", "fares from $99 one-way". */
const AFTER_AN_AMOUNT_ALONE: ReadonlySet<string> = new Set(
  'extra short shy cheaper dearer richer poorer apiece upfront down one-way round-trip roundtrip return'.split(
    ' ',
  ),
);

function attributive(
  currency: CurrencyName | undefined,
  ctx: RuleContext | undefined,
  amounts: [string | undefined, string | undefined][],
): CurrencyName | undefined {
  if (!currency || !ctx) return currency;
  const singular = { ...currency, many: currency.one };
  const determined = determinedAt(ctx, ctx.index);
  if (!determined && qualifiesNounInHeadline(ctx)) return singular;
  if (amounts.some(([a, scale]) => a !== undefined && !scale && /\.\d*[1-9]/u.test(a))) return currency;
  if (!qualifiesNoun(ctx)) return currency;
  if (determined) return singular;
  // With no determiner before it, only right before a singular count noun: "$337 million
  // mission", but "Admission $18 adults, $15 seniors" is a price for each, "caused $1 billion
  // damage" an amount of it (but "$1.2 trillion spending bill"), "won $2 million playing poker"
  // a verb after, "costs $5 extra" an adverb.
  const words = WORDS_AFTER.exec(after(ctx, 40));
  const noun = words?.[1] ?? '';
  const next = words?.[2];
  if (MASS_NOUNS.has(noun)) return next !== undefined && !NOT_A_NOUN.has(next) ? singular : currency;
  if (
    AFTER_AN_AMOUNT_ALONE.has(noun) ||
    NEEDS_A_NOUN_AFTER.test(noun) ||
    isPluralNoun(noun, after(ctx, 40).slice(words?.[0].length))
  )
    return currency;
  return singular;
}

const moneyBeforeRule: Rule = {
  name: 'money',
  // $5, $1,234.12, US$5, €20, £3.50, $3 million, $2.5bn, USD 50, $5-$10, $5–10, "$ 1 million"
  pattern: `(?=[-−$€£¥￥₩₹₫A-Z])(?<![\\p{L}\\p{N}])([-−])?((?:${SYMBOL})${SP}?|(?:${CODE})${SP}|K[Ss]h(?=\\d))(${AMOUNT})(?:[ \u00A0\u202F-]?(${SCALE}))?(?:${SP}?[-–—]${SP}?(${SYMBOL})?(${AMOUNT})(?:${SP}?(${SCALE}))?)?(?:/(${PERIOD}))?(?![\\p{N}]|[.,]\\p{N})(${SP}(?:dollars|USD)(?![\\p{L}]))?`,
  rewrite([whole, minus, symbol, amount, scale, symbol2, amount2, scale2, period, doubled], ctx) {
    if (!whole || !symbol || !amount) return undefined;
    // "$1 million dollars", "$200 USD": the currency written twice is said once ("two hundred US dollars").
    if (doubled !== undefined && !symbol.endsWith('$')) return undefined;
    const sign = minus ? 'minus ' : '';
    const named = doubled?.trim() === 'USD' ? 'USD' : symbol.trim();
    const currency = attributive(CURRENCY_BY_SYMBOL[named], period === undefined ? ctx : undefined, [
      [amount, scale],
      [amount2, scale2],
    ]);
    if (!currency) return undefined;
    const per = period ? ` per ${PERIODS[period] ?? period}` : '';
    // "$250-$300": the currency written twice is said twice.
    if (amount2 !== undefined && symbol2 !== undefined)
      return `${sign}${moneyWords(amount, currency, scale)} to ${moneyWords(amount2, currency, scale2)}${per}`;
    if (amount2 !== undefined)
      return `${sign}${moneyRangeWords([amount, scale ?? scale2], [amount2, scale2], currency)}${per}`;
    return `${sign}${moneyWords(amount, currency, scale)}${per}`;
  },
};

const moneyAfterRule: Rule = {
  name: 'money',
  // 50 USD, 20 €, 50,000đ-style amounts in English text, 3.5 million EUR
  pattern: `${NUM_BEFORE}([-−]?(?:${AMOUNT}))(?:${SP}?(thousand|million|billion|trillion))?${SP}?(${CODE}|[€£¥￥₹₫]|đ)(?![\\p{L}\\p{N}])`,
  rewrite([whole, amount, scale, code], ctx) {
    if (!whole || !amount || !code) return undefined;
    const currency = attributive(CURRENCY_BY_SYMBOL[code], ctx, [[amount, scale]]);
    return currency ? moneyWords(amount, currency, scale) : undefined;
  },
};

// --- Percent, measures ------------------------------------------------------------------

const percentRule: Rule = {
  name: 'percent',
  // 5%, 2.5 %, -3%, 5‰
  pattern: `${NUM_BEFORE}(${MINUS}?(?:${AMOUNT}))${SP}?([%％‰])`,
  rewrite([whole, n, sign]) {
    if (!whole || !n) return undefined;
    return `${numberWords(n)} ${sign === '‰' ? 'per mille' : 'percent'}`;
  },
};

const feetInchesRule: Rule = {
  name: 'measure',
  // 5'11" five feet eleven inches
  pattern: `${NUM_BEFORE}(\\d{1,2})['’′]${SP}?(\\d{1,2})(?:"|”|″|'')`,
  rewrite([whole, ft, inches], ctx) {
    if (!whole || !ft || !inches || Number(inches) > 11) return undefined;
    // A person's height: "over 6' 2\" tall" six foot two.
    if (/^[ \u00A0]+tall(?![\p{L}])/u.test(after(ctx, 6)))
      return `${cardinalWords(ft)} foot ${cardinalWords(inches)}`;
    return `${cardinalWords(ft)} ${isOne(ft) ? 'foot' : 'feet'} ${cardinalWords(inches)} ${isOne(inches) ? 'inch' : 'inches'}`;
  },
};

const INCH_MARK = '″”"';

/** Whether an inch mark follows a match, not a quote's end ("3/4” meter"; "“Top 3/4”" is a quote). */
function inchMarkAfter(ctx: RuleContext): boolean {
  const mark = after(ctx, 1);
  return INCH_MARK.includes(mark) && mark !== '' && !closesAQuote({ ...ctx, index: ctx.end }, mark);
}

/** An amount with a foot or inch mark, in words and the unit: "12’" twelve feet, "2″ squares" two inch squares, "¼”" a quarter inch. */
function markedWords(amount: string, mark: string, singular: boolean): string {
  const inch = INCH_MARK.includes(mark);
  const fraction = UNICODE_FRACTIONS[amount.slice(-1)];
  let words: string;
  let one = singular || isOne(amount);
  if (fraction) {
    const whole = amount.slice(0, -1).trim();
    words = whole
      ? mixedFractionWords(whole, ...fraction)
      : fractionWords(...fraction).replace(/^one /u, 'a ');
    one ||= !whole;
  } else words = numberWords(amount);
  return `${words} ${inch ? (one ? 'inch' : 'inches') : one ? 'foot' : 'feet'}`;
}

const AMOUNT_WITH_A_MARK =
  '(?:(?:\\d{1,3}(?:,\\d{3})+|\\d+)(?:\\.\\d+)?|(?:\\d+[ \u00A0])?[½⅓⅔¼¾⅛⅜⅝⅞]|\\d*[½⅓⅔¼¾⅛⅜⅝⅞])';
const MARKED_AMOUNT = `(${AMOUNT_WITH_A_MARK})`;
const FOOT_OR_INCH_MARK = `([″”"'’′])`;

const footInchMarkRule: Rule = {
  name: 'measure',
  // "12’" twelve feet, "13.5″ screen" thirteen point five inch screen, "¼” thick" a quarter inch
  // thick; a mark that closes a quote ("“Top 10”") is a quote.
  pattern: `${NUM_BEFORE}${MARKED_AMOUNT}${FOOT_OR_INCH_MARK}(?![\\p{L}\\p{N}])`,
  rewrite([whole, amount, mark], ctx) {
    if (!whole || !amount || !mark || closesAQuote(ctx, mark)) return undefined;
    return markedWords(amount, mark, qualifiesNoun(ctx));
  },
};

const fractionInchRule: Rule = {
  name: 'measure',
  // An inch mark after a fraction the fraction rule reads: "a depth of 1/4"" one quarter inch,
  // "2 1/2" pipe" two and a half inches.
  pattern: `(?=[″”"])(?<=(?<![\\d/.,])(?:(\\d${SP}|\\d-)?)\\d{1,2}/\\d{1,2})([″”"])(?![\\p{L}\\p{N}])`,
  rewrite([whole, mixed, mark], ctx) {
    if (!whole || !mark || closesAQuote(ctx, mark)) return undefined;
    return mixed === undefined || qualifiesNoun(ctx) ? ' inch' : ' inches';
  },
};

/** The singular names of the units of length, volume and mass a hyphen joins to a number before a noun ("a 1-cup measure"). */
const HYPHENED_UNITS = new Set(
  Object.values(ENGLISH_UNITS)
    .map((u) => u.one)
    .filter((one) => /^\p{Ll}+$/u.test(one)),
);

/** The units' names, singular and plural ("mile", "miles", "inches"), lower case. */
const UNIT_NAMES = new Set(
  Object.values(ENGLISH_UNITS).flatMap((u) => [u.one, u.many].filter((w) => /^\p{Ll}+$/u.test(w))),
);

const numberUnitHyphenRule: Rule = {
  name: 'measure',
  // "a 1-cup glass measure" a one cup glass measure, "a 2-liter bottle": the hyphen between a
  // number and a unit's name is silent (eSpeak runs "one-cup" together as "wung-cup").
  pattern: `(?=-)(?<=(?<![\\p{L}.,])\\d+(?:\\.\\d+)?|[½⅓⅔¼¾⅕⅛⅜⅝⅞])-(?=(\\p{Ll}+)(?![\\p{L}\\p{N}]|-\\d))`,
  rewrite([whole, unitName]) {
    return whole && unitName && HYPHENED_UNITS.has(unitName) ? ' ' : undefined;
  },
};

/** Units after the last of two dimensions that make an "x" between numbers "by" ("9 x 13-inch pan", "2 x 2 inch squares"). */
const DIMENSION_UNIT_AFTER = `(?:[-${SP.slice(1, -1)}]?(?:inch|inches|in\\.|foot|feet|ft|yards?|yd|cm|mm|m|meters?|pixels?|px|ppi|dpi)(?![\\p{L}])|${SP}?[x×]${SP}?\\d)`;

/** What makes an "x" between two numbers "by": a foot or inch mark, a unit after the second, or two numbers of 3 to 5 digits (a resolution). */
const DIMENSIONS_AHEAD = `(?=${AMOUNT_WITH_A_MARK}(?:[″”"'’′]|${SP}?[x×]${SP}?${AMOUNT_WITH_A_MARK}(?:[″”"'’′]|${DIMENSION_UNIT_AFTER}))|\\d{3,5}${SP}?[x×]${SP}?\\d{3,5}(?!\\d))`;

/** A unit of length (or of a print's density) after two numbers: a size, said as numbers. */
const SIZE_UNIT_AFTER =
  /^[- \u00A0]?(?:inch|inches|in\.|foot|feet|ft|yards?|yd|cm|mm|m|meters?|ppi|dpi)(?![\p{L}])/u;

const dimensionsRule: Rule = {
  name: 'measure',
  // "12’ x 12’" twelve feet by twelve feet, "9 x 13-inch pan", "2256 x 1504" (a resolution), "2x4":
  // "x" between dimensions is "by"; both numbers are counts, not years.
  pattern: `${NUM_BEFORE}(?!0x)${DIMENSIONS_AHEAD}${MARKED_AMOUNT}${FOOT_OR_INCH_MARK}?${SP}?[x×]${SP}?${MARKED_AMOUNT}(?:${FOOT_OR_INCH_MARK}(?![\\p{L}\\p{N}]))?(?![\\p{N}]|[.,]\\p{N})(?:${SP}?[x×]${SP}?(\\d+(?:\\.\\d+)?)(?:${FOOT_OR_INCH_MARK}(?![\\p{L}\\p{N}]))?(?![\\p{N}]|[.,]\\p{N}))?(-(?=inch|foot|meter|centimeter|yard))?`,
  rewrite([whole, a, markA, b, markB, c, markC, hyphen], ctx) {
    if (!whole || !a || !b) return undefined;
    const singular = markB !== undefined && qualifiesNoun(ctx);
    if ((!markA && !/^[\d.,]+$/u.test(a)) || (!markB && !/^[\d.,]+$/u.test(b))) return undefined;
    const say = (n: string, mark: string | undefined): string =>
      mark ? markedWords(n, mark, singular) : numberWords(n);
    // "2560 × 1440", "(3840x2160)": a screen's resolution, each side in pairs ("twenty five sixty
    // by fourteen forty"); not a size in a unit ("1200 x 800 mm").
    if (
      !markA &&
      !markB &&
      c === undefined &&
      /^\d{3,4}$/u.test(a) &&
      /^\d{3,4}$/u.test(b) &&
      !SIZE_UNIT_AFTER.test(after(ctx, 12))
    )
      return `${houseNumberWords(a)} by ${houseNumberWords(b)}`;
    // "12” x 6” x 12”": the third side with its mark too.
    const third = c === undefined ? '' : ` by ${say(c, markC)}`;
    // "10 x 10cm": the unit after it brings no space of its own.
    const gap = hyphen || /^\p{L}/u.test(after(ctx, 1)) ? ' ' : '';
    return `${say(a, markA)} by ${say(b, markB)}${third}${gap}`;
  },
};

/** A unit by its symbol, "in" among them (the table has it only as "in.": "in" is also a word). */
function lengthUnit(token: string, ctx: RuleContext): UnitWords | undefined {
  return lookUpUnit(token === 'in' ? 'in.' : token, ctx);
}

const measureTimesRule: Rule = {
  name: 'measure',
  // "(4in x 4in)", "3 cm x 4 cm": four inches by four inches, a side by a side; "48cm x 22sts" forty eight
  // centimeters times twenty two stitches, two units: a product.
  pattern: `(?=${SP}[x×])(?<=\\d${SP}?(\\p{L}{1,4}))${SP}[x×]${SP}(?=\\d+(?:\\.\\d+)?${SP}?(\\p{L}{1,4})(?![\\p{L}\\p{N}]))`,
  rewrite([whole, left, right], ctx) {
    if (!whole || !left || !right || !lengthUnit(left, ctx) || !lengthUnit(right, ctx)) return undefined;
    return left === right ? ' by ' : ' times ';
  },
};

const trademarkRule: Rule = {
  name: 'symbol',
  // "WSD™", "Everyday®": a trade mark's sign is not said
  pattern: `(?=[™®℠])(?<=[\\p{L}\\p{N}.])[™®℠]`,
  rewrite: () => '',
};

const dotNetRule: Rule = {
  name: 'abbreviation',
  // ".NET framework", "ASP.NET": Microsoft's platform, "dot net" (eSpeak skipped the dot)
  pattern: `(?=\\.NET)(?<![\\p{N}.])\\.NET(?![\\p{L}\\p{N}])`,
  rewrite: ([whole], ctx) => (whole ? `${/\p{L}$/u.test(before(ctx, 1)) ? ' ' : ''}dot net` : undefined),
};

const temperatureWordRule: Rule = {
  name: 'abbreviation',
  // "water temp was 63", "air temps": temperature (an "oven temp" stays: set 7's reader)
  pattern: `(?=temp)(?<=(?<![\\p{L}])(?:[Ww]ater|[Aa]ir|[Bb]ody|[Rr]oom|[Cc]ore|[Ss]urface|[Ii]nternal|[Ss]ea)${SP})temp(s?)(?![\\p{L}])`,
  rewrite: ([whole, plural]) => (whole === undefined ? undefined : `temperature${plural ?? ''}`),
};

const gustRule: Rule = {
  name: 'measure',
  // "Wind: NW 7-12G18", "SW 10G20": a forecast's gusts, "gusting to eighteen"
  pattern: `(?=G)(?<=(?:[Ww]inds?|[Gg]usts?)[^.\\n]{0,40}\\d)G(\\d{1,3})(?![\\p{L}\\p{N}])`,
  rewrite: ([whole, speed]) => (whole && speed ? `gusting to ${cardinalWords(speed)}` : undefined),
};

const unitLabelRule: Rule = {
  name: 'measure',
  // "Actual Product Length (ft.)" feet, "Thickness (in.)" inches, "(lbs)", "updates (Hz)": a
  // unit alone in brackets names a table's column or a spec's
  pattern: `(?=[filomckyHGM])(?<=\\()(ft|in|lbs?|oz|mm|cm|kg|mi|yd|km|Hz|kHz|MHz|GHz|mAh|kWh)\\.?(?=\\))`,
  rewrite: ([whole, token], ctx) => (whole && token ? lengthUnit(token, ctx)?.many : undefined),
};

const inchesRule: Rule = {
  name: 'measure',
  // "4in", "| 1.5 in |", "10 in, 12 in": "in" written on a number, or after a number that ends a
  // table's cell or an item of a list of sizes, is inches ("in" is no unit of the table:
  // "8-0-1 in its past nine games")
  pattern: `(?=in)(?:(?<=\\d)in(?![\\p{L}\\p{N}])|(?<=\\d${SP})in(?=${SP}*\\||,${SP}\\d))`,
  rewrite: (_, ctx) =>
    /(?<![\d.])1[ \u00A0]?$/u.test(before(ctx, 3)) || qualifiesNoun(ctx) ? 'inch' : 'inches',
};

const inchAbbreviationRule: Rule = {
  name: 'measure',
  // "an 8-in. circle" an eight inch circle, "a 6-ft. fence": a hyphenated measure qualifies a noun
  pattern: `${NUM_BEFORE}(\\d+(?:\\.\\d+)?)-(in|ft)\\.(?=${SP}+\\p{Ll})`,
  rewrite([whole, n, unit]) {
    return whole && n ? `${numberWords(n)} ${unit === 'in' ? 'inch' : 'foot'}` : undefined;
  },
};

/** Words of the weather near "mb": millibars of air pressure, not megabytes ("central pressure: 985mb"). */
const PRESSURE_NEAR = /pressure|hurricane|storm|cyclone|typhoon|depression|barometer|millibar/iu;
const MILLIBAR: UnitWords = { one: 'millibar', many: 'millibars' };

/** A unit by its symbol: the user's own units for English first, then the table. */
function lookUpUnit(symbol: string, ctx: RuleContext): UnitWords | undefined {
  const own = ctx.options.units?.get(symbol);
  if (own) return own;
  if (
    (symbol === 'mb' || symbol === 'mbar') &&
    PRESSURE_NEAR.test(ctx.input.slice(Math.max(0, ctx.index - 80), ctx.end + 40))
  )
    return MILLIBAR;
  // "º" (the ordinal indicator) is often typed for the degree sign: "350ºF", "400º"; "25° C" is "25°C".
  return ENGLISH_UNITS[symbol.replace('º', '°').replace(/(?<=°)[ \u00A0]/u, '')];
}

/** A recipe's spoon as a capital or small letter before an ingredient: "1 T butter", "2 T. flour" tablespoons; "1 t salt" a teaspoon. */
const SPOONS: Readonly<Record<string, UnitWords>> = {
  T: { one: 'tablespoon', many: 'tablespoons' },
  t: { one: 'teaspoon', many: 'teaspoons' },
};
const INGREDIENT_AFTER =
  /^[ \u00A0]+(?!(?:and|or|to|the|a|an|is|was|are|were|be|in|on|at|by|for|with|from|as)(?![\p{L}]))\p{Ll}/u;

function spoonAt(ctx: RuleContext, token: string, space: string): UnitWords | undefined {
  const spoon = SPOONS[token];
  if (!spoon || !space || ctx.options.units?.has(token)) return undefined;
  return INGREDIENT_AFTER.test(ctx.input.slice(ctx.end, ctx.end + 8)) &&
    !NOT_FAHRENHEIT_BEFORE.test(before(ctx, 24))
    ? spoon
    : undefined;
}

/** The table by its symbols in lower case, for a unit written in other capitals ("12KG", "3 mbps"); a lower-case symbol wins. */
const UNITS_FOLDED = new Map<string, UnitWords>();
for (const [symbol, words] of Object.entries(ENGLISH_UNITS)) {
  const folded = symbol.toLowerCase();
  if (symbol === folded || !UNITS_FOLDED.has(folded)) UNITS_FOLDED.set(folded, words);
}

/** The number written just before a unit ("5", "1.5", "-1"), to choose singular or plural. */
const NUMBER_BEFORE_UNIT =
  /([-−–]?[\d,.]+)(?:[ \u00A0\u202F](?:thousand|million|billion))?[ \u00A0\u202F]?$/u;

const UNIT_TOKEN =
  '(?:c\\.(?=\\s)|[CF]°|°(?:[ \u00A0]?[CF](?![\\p{L}])|[NSEW])?|℃|℉|sq ft|sq mi|fl oz|lb-ft|N[.·]m|kgf[.·]m|in\\.(?=\\s|$)|m\\.p\\.h(?:\\.(?!\\s*(?:$|\\p{Lu})))?|[\\p{L}µΩ]{1,6}[²³23]?(?:/[\\p{L}µΩ]{1,4}[²³23]?)?)';

/** Units of cooking and of mass, before which a noun is what is measured ("2 tbsp sugar", "10 mg aspirin"), not qualified. */
const AMOUNT_OF_UNITS: ReadonlySet<string> = new Set([
  'tsp',
  'tbsp',
  'tbs',
  'c.',
  'pt',
  'qt',
  'cup',
  'cups',
  'oz',
  'lb',
  'lbs',
  'g',
  'kg',
  'mg',
  'ml',
  'mL',
  'µl',
  'μl',
  'µL',
  'μL',
  'l',
  'L',
]);

/**
 * Whether a measure qualifies the noun after it (`qualifiesNoun`), said in the singular: not a
 * temperature, nor an amount of a cooking or mass unit without a
 * determiner ("2 tbsp sugar" two tablespoons sugar; "a 5 kg bag" five kilogram bag).
 */
/** Before a measure in brackets: a measure joined to the noun by a hyphen ("five-mile (", "5.2-mile ("). */
const BRACKETED_AFTER_A_MEASURE = /[\p{L}\p{N}]-\p{Ll}+[ \u00A0]\([\d.,]+$/u;

/** "1 8 oz can crushed pineapple", "a 12 oz can of soda": "can" the container, not the verb (no participle or "of" after a modal). */
const CONTAINER_CAN_AFTER = /^[ \u00A0]+can[ \u00A0]+(?:of|\p{Ll}+ed)(?![\p{L}])/u;

/** A day or a month's name: after a measure it starts a date, not the measure's noun. */
const DAY_OR_MONTH =
  /^[ \u00A0\u202F]+(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day|^[ \u00A0\u202F]+(?:January|February|March|April|May|June|July|August|September|October|November|December)/u;

/** "100m Dash", "400m Hurdles", "5km Run": a length glued to its number names the event after it, in the singular. */
function namesAnEvent(ctx: RuleContext, token: string): boolean {
  const next = after(ctx, 24);
  return (
    LENGTH_SYMBOLS.has(token) &&
    /\d$/u.test(ctx.input.slice(Math.max(0, ctx.index - 1), ctx.end - token.length)) &&
    CAPITALISED_WORD_AFTER.test(next) &&
    !DAY_OR_MONTH.test(next)
  );
}
const LENGTH_SYMBOLS: ReadonlySet<string> = new Set(['m', 'km', 'mi', 'yd']);

/** Symbols written in the plural: said in the plural before a noun too ("550 lbs body weight"). */
const PLURAL_SYMBOLS: ReadonlySet<string> = new Set(['lbs', 'hrs', 'yds', 'mins', 'secs', 'mos']);

function measureQualifiesNoun(ctx: RuleContext, token: string, words: UnitWords, written: number): boolean {
  if (/^degrees /u.test(words.many) || PLURAL_SYMBOLS.has(token)) return false;
  // "30 mpg highway", "25 mpg city": where the mileage was measured.
  if (token === 'mpg' && /^[ \u00A0]+(?:highway|city|combined)(?![\p{L}])/u.test(after(ctx, 12)))
    return false;
  // "the five-mile (8 km) journey": a measure in brackets after a measure joined to its noun.
  if (BRACKETED_AFTER_A_MEASURE.test(before(ctx, written + 24)) && after(ctx, 1) === ')')
    return qualifiesNounIn(after(ctx, 41).slice(1));
  if (CONTAINER_CAN_AFTER.test(after(ctx, 24))) return true;
  if (namesAnEvent(ctx, token)) return true;
  // "a 2,915mAh one": "one" standing for the noun said before.
  if (/^[ \u00A0]+one(?![\p{L}])/u.test(after(ctx, 8))) return determinedAt(ctx, ctx.index - written);
  if (!qualifiesNoun(ctx)) return false;
  if (!AMOUNT_OF_UNITS.has(token)) return true;
  return determinedAt(ctx, ctx.index - written);
}

/** A proper fraction just before a unit, said with the unit in the singular ("1/2 lb." one half pound, "¾ cup"). */
const PROPER_FRACTION_BEFORE_UNIT =
  /(?<![\d/.,]|\d )(?:(1\/[2-9]|[2-8]\/[3-9])|([½⅓⅔¼¾⅛⅜⅝⅞]))[ \u00A0\u202F]?$/u;

/** A whole number and a fraction sign before a unit ("1½ t", "2¼ cups", "2 ½ tsp."): more than one. */
const MIXED_FRACTION_BEFORE_UNIT = /(?<![\d.,])(\d{1,3}[ \u00A0]?[½⅓⅔¼¾⅛⅜⅝⅞])[ \u00A0\u202F]?$/u;

/** Units also words, said as a unit with a space when written with their full stop after a number: "1 pt. cream", "2 qt. water". */
const SPACED_WITH_A_STOP: ReadonlySet<string> = new Set(['pt', 'qt']);

function abbreviatedAt(ctx: RuleContext, token: string): boolean {
  return (
    SPACED_WITH_A_STOP.has(token) &&
    (ctx.input.charAt(ctx.end) === '.' || ctx.input.charAt(ctx.end - 1) === '.')
  );
}

/** "325F", "98F": an F against a number of 2 or 3 digits, not a seat, room or flight ("seat 14F"). */
const NOT_FAHRENHEIT_BEFORE =
  /(?:seat|row|room|suite|apt\.?|apartment|unit|floor|gate|flight|level|model|no\.|#)[ \u00A0]*[-−–]?\d+$/iu;

function fahrenheitAt(ctx: RuleContext, number: string): boolean {
  return /^[-−–]?\d{2,3}$/u.test(number) && !NOT_FAHRENHEIT_BEFORE.test(before(ctx, 24));
}

const measureRule: Rule = {
  name: 'measure',
  // The unit after a number: "5km", "120km/h", "30°C", "100 m2", "16GB", "60 mph", "5 in.";
  // an abbreviation's full stop inside a sentence goes with it ("8 oz. of water").
  pattern: `(?=[ \u00A0\u202F°℃℉\\p{L}µΩ])(?<=[\\d½⅓⅔¼¾⅛⅜⅝⅞]|\\d${SP}(?:thousand|million|billion))(${SP}?)(?=[^\\s\\d])(${UNIT_TOKEN})(?![\\p{L}\\p{N}])(?:\\.(?=${SP}+\\p{Ll}))?`,
  rewrite([whole, space, token], ctx) {
    if (whole === undefined || token === undefined) return undefined;
    const found =
      NUMBER_BEFORE_UNIT.exec(before(ctx, 40)) ??
      PROPER_FRACTION_BEFORE_UNIT.exec(before(ctx, 12)) ??
      MIXED_FRACTION_BEFORE_UNIT.exec(before(ctx, 12));
    if (!found) return undefined;
    // "5kg–10kg": a dash after a unit ends a range, it is no sign of the number after it.
    const rangeDash =
      /^[-−–]/u.test(found[1] ?? '') && /\p{L}/u.test(ctx.input.charAt(ctx.index - found[0].length - 1));
    const number = (rangeDash ? found[1]?.slice(1) : found[1]) ?? '';
    // A number inside a word or code ("MP3s", "2x4s") has no unit; the second side of a size in
    // a unit of length does ("36x24mm").
    const at = ctx.index - found[0].length - 1;
    const sizeSide = /\dx$/u.test(ctx.input.slice(at - 1, at + 1)) && SIZE_UNIT_AFTER.test(token);
    if (!rangeDash && /[a-zA-Z]/.test(ctx.input.charAt(at)) && !sizeSide) return undefined;
    const spoon = spoonAt(ctx, token, space ?? '');
    let words = spoon ?? lookUpUnit(token, ctx);
    if (!words && token.includes('/')) {
      const [top, bottom] = token.split('/') as [string, string];
      const a = lookUpUnit(top, ctx);
      // "150 min/wk": a period after the slash ("wk", "mo", "yr") is a unit of time.
      const b = lookUpUnit(bottom, ctx)?.one ?? PERIODS[bottom];
      if (a && b) words = { one: `${a.one} per ${b}`, many: `${a.many} per ${b}` };
    }
    // Other capitals only for symbols of two letters or more, against the number or of three or more.
    if (!words && token.length >= (space ? 3 : 2)) words = UNITS_FOLDED.get(token.toLowerCase());
    if (!words) return undefined;
    if (
      space &&
      !spoon &&
      ENGLISH_UNITS_ONLY_ATTACHED.has(token) &&
      !ctx.options.units?.has(token) &&
      !abbreviatedAt(ctx, token)
    )
      return undefined;
    if (token === 'F' && !ctx.options.units?.has(token) && !fahrenheitAt(ctx, number)) return undefined;
    const fraction = PROPER_FRACTION_BEFORE_UNIT.test(before(ctx, 12));
    // The number rule leaves a space before a unit written against it in letters ("5km").
    const gap = space || !/^\p{L}/u.test(token) ? ' ' : '';
    return `${gap}${isOne(number) || fraction || measureQualifiesNoun(ctx, spoon ? 'tbsp' : token, words, found[0].length) ? words.one : words.many}`;
  },
};

/** Words a rate is "per" after a slash ("calls/day", "miles/hour"), beside the money periods and the unit table. */
const PER_WORDS = new Set(
  'second minute hour day night week month year annum person head capita unit share game page user visit mile gallon liter litre ton tonne pound ounce acre hectare serving dose trip barrel bushel ticket seat'.split(
    ' ',
  ),
);

const perUnitRule: Rule = {
  name: 'measure',
  // "$457.30 per cwt", "$5 per kg", "per sq ft": a unit's symbol after "per", with no number
  // before it (its full stop inside a sentence goes with it).
  pattern: `(?=[Pp]er)(?<![\\p{L}])([Pp]er${SP}+)(${UNIT_TOKEN})(?![\\p{L}\\p{N}])(?:\\.(?=${SP}+\\p{Ll}))?`,
  rewrite([whole, per, token], ctx) {
    if (!whole || !per || !token || token.length < 2) return undefined;
    const unit = lookUpUnit(token, ctx)?.one;
    return unit === undefined ? undefined : `${per}${unit}`;
  },
};

const perRule: Rule = {
  name: 'measure',
  // "calls/day" calls per day, "miles/hour", "$/kg" dollars per kilogram, "$90/barrel" ninety
  // dollars per barrel, "$1,404/case"; "and/or" stays
  pattern: `(?=[/$€£¥])(?:(\\$|[€£¥])|(?<=\\p{L}|[$€£¥]\\d[\\d,.]*))/(\\p{L}{2,8}[23²³]?)(?![\\p{L}\\p{N}/])(?:\\.(?=${SP}+\\p{Ll}))?`,
  rewrite([whole, currency, word], ctx) {
    if (!whole || !word) return undefined;
    // After an amount of money any word in lower case is what it buys ("$1,404/case" per case).
    const bought =
      /^\p{Ll}{3,8}$/u.test(word) && /[$€£¥]\d[\d,.]*$/u.test(before(ctx, 16)) ? word : undefined;
    const unit = PER_WORDS.has(word) ? word : (PERIODS[word] ?? lookUpUnit(word, ctx)?.one ?? bought);
    if (unit === undefined)
      return currency === undefined && slashBetweenWords(ctx) ? ` ${whole.slice(1)}` : undefined;
    const money = currency === undefined ? '' : (CURRENCY_BY_SYMBOL[currency]?.many ?? '');
    return `${money} per ${unit}`;
  },
};

/**
 * A slash between two words is not said ("Credit/debit cards", "Color/Finish", "good/excellent":
 * the readers of sets 13 to 17; set 2's said it once, in "Fillmore/Hertel"), except in an address
 * or a path with more than two parts ("a.b/c", "src/main/index").
 */
function slashBetweenWords(ctx: RuleContext): boolean {
  const left = /(?:^|[^\p{L}\p{N}/.@:_-])\p{L}{2,}$/u.test(before(ctx, 40));
  return left && /^\/\p{L}{2,}(?![\p{N}/._@-])/u.test(ctx.input.slice(ctx.index, ctx.index + 40));
}

const letterSlashLetterRule: Rule = {
  name: 'acronym',
  // "room A/C units", "I/O ports", "S/U graded": a capital on each side of a slash is two letters
  // said apart, the slash silent (eSpeak said "a slash C"); "N/A" is "not applicable".
  pattern: `(?=\\p{Lu}/\\p{Lu})(?<![\\p{L}\\p{N}/.&-])(?!N/A(?![\\p{L}\\p{N}]))(\\p{Lu})/(\\p{Lu})(?![\\p{L}\\p{N}/]|[.,]\\p{N})`,
  rewrite: ([whole, a, b]) => (whole && a && b ? spellAcronym(`${a}${b}`) : undefined),
};

const wordSlashRule: Rule = {
  name: 'symbol',
  // "good/excellent", "funeral/memorial": words longer than a unit's symbol (`perRule` reads the
  // others). After a space it stays: the readers of set 4 say "Issues /Decisions" with it, set
  // 16's "Distemper /Parvo" without.
  pattern: `(?=/)(?<=\\p{L}{2})/(?=\\p{L}{9})`,
  rewrite: (_, ctx) => (slashBetweenWords(ctx) ? ' ' : undefined),
};

const minutesPastRule: Rule = {
  name: 'time',
  // "departures at :15 and :45 past the hour": minutes past the hour written with their colon
  // alone, the number ("at fifteen and forty five past the hour").
  pattern: `(?=:[0-5]\\d)(?<=(?:^|[\\s(])):([0-5]\\d)(?![\\p{L}\\p{N}:])`,
  rewrite: ([whole, minutes]) => (whole && minutes ? cardinalWords(String(Number(minutes))) : undefined),
};

const spacedSlashRule: Rule = {
  name: 'symbol',
  // "Map / GPS version", "180 deg C / Gas Mark 4": a slash with a space each side between words
  // parts two phrases, a pause; after a word in capitals it is said ("MINNEAPOLIS / ST. PAUL", a
  // dateline, as set 9's reader said it).
  pattern: `(?=${SP}/${SP})(?<=[\\p{L}.)])(?<!\\p{Lu}{2}[.)]?)${SP}/${SP}(?=\\p{L})`,
  rewrite: () => ', ',
};

/** The units of a runner's pace, as said after "per". */
const PACE_UNITS: Readonly<Record<string, string>> = { km: 'kilometer', mi: 'mile', mile: 'mile' };

const paceRule: Rule = {
  name: 'duration',
  // "4:30/km", "7:45/mile": a runner's pace, minutes and seconds a unit ("four minutes thirty
  // seconds per kilometer"), never a clock time.
  pattern: `${NUM_BEFORE}(\\d{1,2}):([0-5]\\d)/(km|mi|mile)(?![\\p{L}\\p{N}])`,
  rewrite([whole, minutes, seconds, unit]) {
    if (!whole || !minutes || !seconds || !unit) return undefined;
    const m = Number(minutes);
    const s = Number(seconds);
    const secondWords = s > 0 ? ` ${cardinalWords(String(s))} second${s === 1 ? '' : 's'}` : '';
    return `${cardinalWords(String(m))} minute${m === 1 ? '' : 's'}${secondWords} per ${PACE_UNITS[unit] as string}`;
  },
};

// --- Telephone numbers ------------------------------------------------------------------

const telephoneRule: Rule = {
  name: 'telephone',
  // 123-123-5678, (555) 123-4567, +1 555 123 4567, 1-800-555-0199, 1 888 555 0199, 555-1234, 555.123.4567;
  // "212/423-3500" (a slash after the area code) and "877 523 9849" (spaced three-three-four, a
  // North American area code and exchange, never 0 or 1 first: no thousands grouping ends in four digits)
  pattern: `(?=[\\d+(])(?<![\\p{L}\\p{N}_.,/-])(?:\\+\\d{1,3}${SP}?(?:\\(\\d{1,4}\\)|\\d{1,4})(?:[ .-]\\d{2,4}){2,3}|(?:1[ .-])?(?:\\(\\d{3}\\)[ .-]?|\\d{3}[.-]|[2-9]\\d{2}/)\\d{3}[.-]\\d{4}(?:[.-]\\d{1,4})?|(?:1${SP})?[2-9]\\d{2}${SP}[2-9]\\d{2}${SP}\\d{4}|1${SP}8(?:00|88|77|66|55|44|33)${SP}\\d{3}${SP}\\d{4}|\\d{3}-\\d{2}-\\d{4}|0\\d{1,3}(?:[ .-]\\d{2,4}){2,3}|\\(\\d{3}\\)${SP}?\\d{3}${SP}\\d{4}|\\d{3}-\\d{4})(?![\\p{L}\\p{N}]|[.,-]\\p{N})`,
  rewrite([whole]) {
    if (!whole) return undefined;
    const groups = whole.match(/\+?\d+/g) ?? [];
    // A toll-free "1-800" is "one eight hundred"; 888, 877, 866 … stay digit by digit.
    const tollFree = groups[0] === '1' && groups[1] === '800';
    return groups
      .map((g, i) =>
        tollFree && i === 1 ? 'eight hundred' : g.startsWith('+') ? `plus ${digitWords(g)}` : digitWords(g),
      )
      .join(', ');
  },
};

// --- Roads ------------------------------------------------------------------------------

const interstateRule: Rule = {
  name: 'abbreviation',
  // "I-95" I ninety five, "I-405" I four oh five: an interstate highway, its number as in an address
  pattern: `(?=I-\\d)(?<![\\p{L}\\p{N}_-])I-(\\d{1,3})(?![\\p{L}\\p{N}]|[.,-]\\p{N})`,
  rewrite([whole, n]) {
    return whole && n ? `I ${houseNumberWords(n)}` : undefined;
  },
};

const perUnitPriceRangeRule: Rule = {
  name: 'range',
  // "$1.83/lb.-$1.86/lb.": the dash between two prices per unit is "to", not the second's minus
  // (the abbreviation's full stop before it goes too).
  pattern: `(?=\\.?[-–][$€£¥]\\d)(?<=\\d/\\p{L}{1,6})\\.?[-–](?=[$€£¥]\\d)`,
  rewrite([whole]) {
    return whole ? ' to ' : undefined;
  },
};

const toRangeRule: Rule = {
  name: 'range',
  // "asteroids 5-to-50 meters", "a 3-to-1 vote", "19-for-28 shooting", "23-of-32 passing": the
  // word written between the numbers, the hyphens silent.
  pattern: `${NUM_BEFORE}(${AMOUNT})-(to|for|of)-(${AMOUNT})${NUM_AFTER}`,
  rewrite([whole, a, word, b]) {
    return whole && a && word && b ? `${numberWords(a)} ${word} ${numberWords(b)}` : undefined;
  },
};

const creditSlashRule: Rule = {
  name: 'abbreviation',
  // A slash in a photo credit is a pause: "(AP Photo/Mariam Zuhaib)", "Image credit: NASA/MSFC".
  pattern: `(?=/)(?<=(?<![\\p{L}])(?:Photos?|Photograph|Images?|Illustration|Graphic|Video|[Cc]redit|[Cc]ourtesy)(?::?${SP}+(?:of${SP}+)?\\p{Lu}[\\p{L}.&'’-]*){0,3})/(?=\\p{Lu})`,
  rewrite: () => ', ',
};

const telephoneMarkRule: Rule = {
  name: 'telephone',
  // "(at 89th St.). & 212/423-3500.": an "&" opening a sentence before a telephone is a guide's
  // telephone mark, not "and"; it is not read.
  pattern: `(?=&)(?<=(?:^|\\n|[.;:!?)][ \u00A0]+))&[ \u00A0]+(?=\\+\\d|\\(?\\d{3}\\)?[ ./-]?\\d{3}[ .-]\\d{4})`,
  rewrite: () => '',
};

const atSignRule: Rule = {
  name: 'abbreviation',
  // "Main Street @ Art Alley", "Lakers @ Celtics": an at sign standing alone between words is "at".
  pattern: `(?=@)(?<=[\\p{L}\\p{N}.)][ \u00A0]+)@(?=[ \u00A0]+[\\p{L}\\p{N}])`,
  rewrite: () => 'at',
};

// --- Ordinals, fractions, scores, versions, ranges, numbers -----------------------------

const ordinalRule: Rule = {
  name: 'ordinal',
  // 1st, 2nd, 21st, 103rd, 1,000th; "3 rd" (a suffix a page set apart); a club's teams "the 4ths"
  // (fourths)
  pattern: `${NUM_BEFORE}(\\d{1,3}(?:,\\d{3})+|\\d+)(?:(st|nd|rd|th|ST|ND|RD|TH)(?:(?<=th)(s))?|[ \u00A0](st|nd|rd|th))${WORD_AFTER}`,
  rewrite([whole, n, attached, plural, apart]) {
    const suffix = attached ?? apart;
    if (!whole || !n || !suffix) return undefined;
    const digits = n.replace(/,/g, '');
    if (ordinalSuffix(digits) !== suffix.toLowerCase()) return undefined;
    return `${ordinalWords(digits)}${plural ?? ''}`;
  },
};

const compoundOrdinalRule: Rule = {
  name: 'ordinal',
  // "turn-of-the-18th-century", "mid-19th-century": an ordinal inside a compound of words (a code
  // such as "COVID-19" has no ordinal suffix).
  pattern: `(?=\\d)(?<=(?<![\\p{L}])(?:the|mid|late|early)-)(\\d{1,2})(st|nd|rd|th)(?=-\\p{Ll})`,
  rewrite: ordinalRule.rewrite,
};

/** Whole-number pairs with a slash that are names, not fractions. */
const SLASH_NAMES: Record<string, string> = {
  '24/7': 'twenty four seven',
  '9/11': 'nine eleven',
  '50/50': 'fifty fifty',
};

/** The article "a" just before a number. */
const ARTICLE_BEFORE = /(?:^|[^\p{L}])[Aa][ \u00A0]$/u;

/** After a fraction: a unit's name joined by a hyphen ("-inch"), or the article before one ("1/2 an inch"). */
const ADJECTIVE_UNIT_AFTER = /^-(\p{Ll}+)(?![\p{L}\p{N}-])/u;
const AN_UNIT_AFTER = /^[ \u00A0]an?[ \u00A0]/u;
/** A unit of a recipe or a measure after a fraction ("3/4 cup"), its symbol's first letters or its name. */
const SPACED_UNIT_AFTER = /^[ \u00A0](\p{Ll}+)(?![\p{L}])/u;

/** Before a rating: "rated 4/5", "a rating of 8/10", "I give it 9/10", "4/5 stars". */
const RATING_WORD_BEFORE =
  /\b(?:[Rr]ated|[Rr]ating(?: of)?|[Ss]core[ds]?|[Gg]ive it|[Gg]ave it|[Vv]erdict:?)[ \u00A0]+$/u;
/** A review's line: a label of words and the score ending it ("Battery Life 5/5", "Display: 4/5"). */
const RATING_LABEL_BEFORE =
  /^[ \t]*(?!(?:About|Only|Over|Under|Nearly|Almost|Around|Roughly|Just|Add|Use|Mix|Cut|Fill|Take)[ \u00A0]+$)\p{Lu}[\p{L}’']*(?:(?:[ \u00A0]+(?:&|and))?[ \u00A0/]\p{Lu}[\p{L}’']*){0,4}:?[ \u00A0]+$/u;

/** "Display 4/5" ending a review's line, "rated 4/5", "4/5 stars": a score out of 5 or 10, "four out of five". */
function isRating(num: string, den: string, ctx: RuleContext): boolean {
  if ((den !== '5' && den !== '10') || Number(num) > Number(den)) return false;
  const line = before(ctx, 48).split('\n').pop() ?? '';
  const afterText = after(ctx, 8);
  if (/^[ \u00A0]+stars?\b/u.test(afterText) || RATING_WORD_BEFORE.test(line)) return true;
  return RATING_LABEL_BEFORE.test(line) && /^[ \t]*(?:$|\n)/u.test(afterText);
}

/**
 * "(323/736) patients", "87/104": a count of a total, not a fraction no one says ("seven hundred
 * thirty sixths"): ten or more of twenty or more, no month and day, no thirty-seconds or
 * sixty-fourths, with no unit after it.
 */
function isCountOfTotal(num: string, den: string, ctx: RuleContext): boolean {
  // "Due 12/31": a pair that may be a date is left to the date and fraction readings.
  if (
    Number(num) < 10 ||
    Number(den) < 20 ||
    Number(num) > Number(den) ||
    (Number(num) <= 12 && Number(den) <= 31)
  )
    return false;
  // "31/32", "11/32" (a stock's price), "45/64": sixteenths to sixty-fourths are fractions.
  if (['32', '64', '128'].includes(den)) return false;
  const unit = SPACED_UNIT_AFTER.exec(after(ctx, 16))?.[1] ?? '';
  return !inchMarkAfter(ctx) && lookUpUnit(unit, ctx) === undefined && !UNIT_NAMES.has(unit.toLowerCase());
}

const isbnRule: Rule = {
  name: 'telephone',
  // "ISBN 9781555974503", "ISBN: 978-3-16-148410-0", "UPC 41303-01572": a book's or a product's
  // number, digit by digit.
  pattern: `(?=\\d)(?<=(?<![\\p{L}])(?:ISBN(?:-1[03])?|UPC|EAN):?${SP})\\d[\\d-]{8,16}[\\dX](?![\\p{L}\\p{N}])`,
  rewrite: ([whole]) =>
    whole ? [...whole.replace(/-/gu, '')].map((c) => (c === 'X' ? c : digitWords(c))).join(' ') : undefined,
};

const scaleRatioRule: Rule = {
  name: 'cardinal',
  // "HO 1:87", "N 1:160", "a 1:100 model": a pair with a colon no clock can show (sixty or more
  // after it) is a ratio, "one to eighty seven".
  pattern: `${NUM_BEFORE}(\\d{1,3}):(\\d{2,4})(?![\\p{N}]|[:.,]\\p{N})`,
  rewrite([whole, a, b]) {
    if (!whole || !a || !b || Number(b) < 60) return undefined;
    return `${cardinalWords(a)} to ${cardinalWords(b)}`;
  },
};

const compactDateRule: Rule = {
  name: 'date',
  // "Effective: 01Dec2016", "15JAN2024": a day, a month's three letters and a year written
  // together (freight notices, military dates), "the first of December twenty sixteen".
  pattern: `(?=\\d)(?<![\\p{L}\\p{N}])(\\d{1,2})([A-Z][a-z]{2}|[A-Z]{3})((?:1\\d|20)\\d{2})(?![\\p{L}\\p{N}])`,
  rewrite([whole, day, month, year]) {
    if (!whole || !day || !month || !year || !MONTH_ALONE.test(month)) return undefined;
    const d = Number(day);
    if (d < 1 || d > 31) return undefined;
    return `the ${ordinalWords(String(d))} of ${EN_MONTHS[monthNumber(month) - 1] as string} ${yearWords(year)}`;
  },
};

/** What a unit's name measures, where a slash between two measures depends on it. */
function dimensionOf(unit: UnitWords): 'mass' | 'volume' | undefined {
  if (/(?:gram|ounce|pound|tonne)$/u.test(unit.one) && !/fluid/u.test(unit.one)) return 'mass';
  if (/(?:liter|litre|cup|teaspoon|tablespoon|pint|quart|gallon|fluid ounce)$/u.test(unit.one))
    return 'volume';
  return undefined;
}

const equivalentMeasureRule: Rule = {
  name: 'measure',
  // "450g/1lb", "250-300ml/½pt": a recipe's measure then the same in other units, "or"
  // ("four hundred fifty grams or one pound", "or half pint"); a mass over a volume is a
  // strength, "per" ("160mg/5mL" one hundred sixty milligrams per five milliliters).
  pattern: `/(?<=\\d${SP}?\\p{L}{1,3}/)(\\d+(?:\\.\\d+)?|[½¼¾⅓⅔])(\\p{L}{1,3})(?![\\p{L}\\p{N}])`,
  rewrite([whole, amount, symbol], ctx) {
    if (!whole || !amount || !symbol) return undefined;
    const unit = lookUpUnit(symbol, ctx);
    const firstUnit = lookUpUnit(/(\p{L}{1,3})$/u.exec(before(ctx, 4))?.[1] ?? '', ctx);
    if (!unit || !firstUnit) return undefined;
    const link = dimensionOf(firstUnit) === 'mass' && dimensionOf(unit) === 'volume' ? 'per' : 'or';
    const fraction = UNICODE_FRACTIONS[amount];
    if (fraction) return ` ${link} ${fractionWords(...fraction).replace(/^one /u, '')} ${unit.one}`;
    return ` ${link} ${numberWords(amount)} ${isOne(amount) ? unit.one : unit.many}`;
  },
};

const drawnNumbersRule: Rule = {
  name: 'cardinal',
  // "The winning numbers … were 13-14-41-49-59": four or more numbers of one or two digits joined
  // by dashes are a list, each said ("thirteen, fourteen, forty one, …"), never ranges.
  pattern: `${NUM_BEFORE}\\d{1,2}(?:-\\d{1,2}){3,}(?![\\p{N}]|[-.,/]\\p{N})`,
  rewrite: ([whole]) => (whole ? whole.split('-').map(cardinalWords).join(', ') : undefined),
};

const armRule: Rule = {
  name: 'cardinal',
  // "5/1 ARM", "7/1 ARMs": an adjustable-rate mortgage's fixed years and its reset, two numbers
  pattern: `${NUM_BEFORE}(\\d{1,2})/(1)(?=${SP}ARMs?(?![\\p{L}]))`,
  rewrite: ([whole, years, reset]) =>
    whole && years && reset ? `${cardinalWords(years)} ${cardinalWords(reset)}` : undefined,
};

const mileagePairRule: Rule = {
  name: 'measure',
  // "27/36 mpg", "gas mileage of 22/31": a car's city and highway mileage, two numbers, the slash
  // unsaid
  pattern: `${NUM_BEFORE}(?:(?<=(?:[Mm]ileage[\\p{L} \u00A0]{0,24}|mpg[^.!?\\n]{0,48}))|(?=\\d{2}/\\d{2}${SP}?(?:mpg|MPG)(?![\\p{L}])))(\\d{2})/(\\d{2})(?![\\p{N}]|[.,/]\\d)`,
  rewrite: ([whole, city, highway]) =>
    whole && city && highway ? `${cardinalWords(city)} ${cardinalWords(highway)}` : undefined,
};

const fractionRule: Rule = {
  name: 'fraction',
  // 1/2 one half, 3/4 three quarters, 2 1/2 two and a half, ½, 2½; "4-1/2 cents", "1-1/2 inch"
  // four and a half (a hyphen joins a whole number and halves, quarters … sixty-fourths, as US
  // prices and measures write them; "pages 3-5/6" is not one)
  pattern: `${NUM_BEFORE}(?:(\\d{1,3})(?:${SP}|-(?=\\d{1,2}/(?:2|4|8|16|32|64)(?!\\d))))?(\\d{1,3})/([2-9]|[1-9]\\d{1,2})(?:(?:st|nd|rd|th)s?|ST|ND|RD|TH)?${NUM_AFTER}(?![\\p{L}])|${NUM_BEFORE}(\\d{1,3})?${SP}?([½⅓⅔¼¾⅕⅛⅜⅝⅞])`,
  rewrite([whole, mixed, num, den, wholeU, sign], ctx) {
    if (!whole) return undefined;
    // After the article, "one" is not said again before half or quarter: "a ¼ inch" a quarter
    // inch, "a 1/2 cup" a half cup ("a 1/8 share" a one eighth share).
    const afterA = (words: string): string =>
      ARTICLE_BEFORE.test(before(ctx, 4)) ? words.replace(/^one (?=half|quarter)/u, '') : words;
    const asWritten = (words: string): string => {
      // "½-inch drywall" half inch, "¾-inch plywood" three quarter inch: before a unit joined by
      // a hyphen the fraction is an adjective, its "one" not said and its denominator singular;
      // "1/2 an inch" half an inch.
      if (HYPHENED_UNITS.has(ADJECTIVE_UNIT_AFTER.exec(after(ctx, 16))?.[1] ?? ''))
        return words.replace(/^one (?=\p{L}+$)/u, '').replace(/s$/u, '');
      // "3/4 cup white sugar" three quarter cup: quarters before a unit, as cooks say them.
      const unit = SPACED_UNIT_AFTER.exec(after(ctx, 16))?.[1] ?? '';
      if (
        /^\p{L}+ quarters$/u.test(words) &&
        (HYPHENED_UNITS.has(unit) || lookUpUnit(unit, ctx) !== undefined || inchMarkAfter(ctx))
      )
        return words.replace(/s$/u, '');
      return AN_UNIT_AFTER.test(after(ctx, 4)) ? words.replace(/^one (?=\p{L}+$)/u, '') : afterA(words);
    };
    if (sign !== undefined) {
      const [n, d] = UNICODE_FRACTIONS[sign] as [string, string];
      return asWritten(wholeU !== undefined ? mixedFractionWords(wholeU, n, d) : fractionWords(n, d));
    }
    if (!num || !den) return undefined;
    if (mixed === undefined && (isRating(num, den, ctx) || isCountOfTotal(num, den, ctx)))
      return `${cardinalWords(num)} out of ${cardinalWords(den)}`;
    const named = SLASH_NAMES[`${num}/${den}`];
    if (named && mixed === undefined) return named;
    // "50/34" (a crank's chainrings): more than a whole, in two numbers of two digits each, is no
    // fraction anyone says; the two numbers, the slash unsaid.
    if (Number(num) > Number(den) && Number(den) >= 10) {
      if (mixed === undefined) return `${cardinalWords(num)} ${cardinalWords(den)}`;
      // "Shimano 105 50/34": no mixed number; the first alone, the rest read again.
      return { out: cardinalWords(mixed), end: mixed.length, name: 'cardinal' };
    }
    return asWritten(mixed !== undefined ? mixedFractionWords(mixed, num, den) : fractionWords(num, den));
  },
};

const SCORE_BEFORE = `(?<=(?<![\\p{L}])(?:won|wins?|lost|loses|lose|beat|beats|defeat(?:s|ed)?|edged?|edges|routed|topped|blanked|whitewash(?:ed|es)?|swept|downed|trounced|crushed|outlasted|drew|draw|tied|ties|fell|falls|led|leads?|trail(?:s|ed|ing)?|score[ds]?|scoring|victory|final)(?:${SP}+(?:by|them|us|him|her|it|\\p{Lu}\\p{L}*)){0,3}${SP}+)`;
const SCORE_AFTER = `(?=${SP}+(?:win|victory|loss|defeat|draw|tie|lead|scoreline|score|thrashing|upset|run|sweep)(?![\\p{L}])|${SP}*\\(\\d{1,2}[-–]\\d{1,2},)`;
const SCORE = `(\\d{1,3})${SP}?[-–—]${SP}?(\\d{1,3})(?![\\p{N}]|[-–.,:/]\\p{N})`;

/** A score in words: of three digits in pairs ("123" one twenty three, "101" one oh one); a side with none is "nothing" ("1-0" one to nothing). */
function scoreWords(n: string): string {
  if (/^0+$/u.test(n)) return 'nothing';
  return n.length === 3 ? houseNumberWords(n) : cardinalWords(n);
}

const scoreRule: Rule = {
  name: 'score',
  // "won 3-1", "a 2-1 win", "beat Colorado 82-42": the two numbers with "to" ("three to one")
  // "the Golden State Warriors, 123-113,": two scores of a hundred or more after a team and its
  // comma. A basketball score of three digits is said in pairs: one twenty three to one thirteen.
  pattern: `(?=\\d)${SCORE_BEFORE}${NUM_BEFORE}${SCORE}|${NUM_BEFORE}${SCORE}${SCORE_AFTER}|(?=1)(?<=\\p{Lu}\\p{Ll}+,${SP})(?<!(?:Pages?|Chapters?|Verses?|Sections?|Lines?|Items?|Questions?|Rooms?|Units?),${SP})(1\\d{2})${SP}?[-–—]${SP}?(1\\d{2})(?=[,.;)]|${SP}+(?:at|on|in)${SP})`,
  rewrite([whole, a1, b1, a2, b2, a3, b3]) {
    const a = a1 ?? a2 ?? a3;
    const b = b1 ?? b2 ?? b3;
    if (!whole || !a || !b) return undefined;
    return `${scoreWords(a)} to ${scoreWords(b)}`;
  },
};

/** Capitalised words before a bracketed pair that make it a range, not a team's record ("Chapters (1-3)", "Ages (6-12)"). */
const NOT_A_TEAM_BEFORE = `(?<!(?:Chapters?|Pages?|Verses?|Sections?|Parts?|Figs?\\.?|Figures?|Tables?|Grades?|Ages?|Rooms?|Steps?|Levels?|Units?|Lines?|Items?|Questions?|Games?|Weeks?|Days?|Years?|Ratings?|Scales?)${SP}?\\()`;

/**
 * Verbs before a team's record of wins and losses ("improved to 8-8", "finished 10-6", "went 9-7
 * on the road", "a record of 12-4"); a score follows other verbs ("beat", "won", "lost"), and one
 * that puts a side ahead ("went 2-0 up"). "ended 2-2" is left to the other rules (a draw, mostly).
 */
const RECORD_BEFORE = `(?<=(?<![\\p{L}])(?:(?:improv(?:ed|es|e|ing)|f(?:ell|alls|alling)|dropp?(?:ed|s|ing)?|slipp?(?:ed|s|ing)?|mov(?:ed|es|e|ing)|climb(?:ed|s|ing)?|rose|even(?:ed|s)?|record|records)${SP}+(?:to|at|of)|went|finish(?:ed|es|ing)?|post(?:ed|s|ing)|compil(?:ed|es|ing)|sits${SP}+at|stands?${SP}+at|\\p{Lu}[\\p{L}'’]*${SP}+(?:[Aa]re|ARE|[Ii]s|IS|remains?|REMAINS?)(?:${SP}+now)?|(?:start(?:ed|ing|s)?|open(?:ed|ing|s)?)${SP}+(?:the${SP}+)?(?:season|year|campaign))${SP}+)`;

/** A verb of scoring just before a pair of numbers (`SCORE_BEFORE` at the end of the text before it). */
const SCORED_BEFORE = new RegExp(`${SCORE_BEFORE}$`, 'u');

/** A game or match named earlier in the clause: after it "finished 2-1" is a score. */
const GAME_BEFORE =
  /(?:^|[^\p{L}])(?:game|match|contest|bout|fixture|final|half|quarter|period|inning|set|score)s?(?![\p{L}])[^.;!?]*$/iu;

/** A count in a record of wins and losses: "0-6" oh and six. */
function recordCount(n: string): string {
  return n === '0' ? 'oh' : cardinalWords(n);
}

/** Shots made and attempted before their kind ("13-24 FG" thirteen of twenty four field goals). */
const SHOTS: Readonly<Record<string, string>> = {
  FG: 'field goals',
  FT: 'free throws',
  '3PT': 'three pointers',
  '3FG': 'three pointers',
  '3P': 'three pointers',
};

const shootingRule: Rule = {
  name: 'score',
  // "31 points (13-24 FG)", "6-8 FT", "4-9 3PT": made of attempted, then the kind of shot.
  pattern: `${NUM_BEFORE}(\\d{1,3})[-–](\\d{1,3})${SP}(${Object.keys(SHOTS).join('|')})(?![\\p{L}\\p{N}])`,
  rewrite([whole, made, tried, kind]) {
    if (!whole || !made || !tried || !kind) return undefined;
    return `${cardinalWords(made)} of ${cardinalWords(tried)} ${SHOTS[kind] as string}`;
  },
};

/**
 * Two consecutive years of a season or a school or fiscal year, the second in two digits
 * ("1987-88" nineteen eighty seven eighty eight) or in four after a slash ("2019/2020" twenty
 * nineteen twenty twenty; other pairs with a slash are left to the other rules).
 */
const seasonRule: Rule = {
  name: 'date',
  pattern: `${NUM_BEFORE}((?:1[5-9]|20)(\\d{2}))(?:[-–](\\d{2})|\\/((?:1[5-9]|20)\\d{2}))(?![\\p{N}]|[-–.,:/]\\p{N})`,
  rewrite([whole, first, firstTail, second, slashed]) {
    if (whole && first && slashed) {
      return Number(slashed) === Number(first) + 1 ? `${yearWords(first)} ${yearWords(slashed)}` : undefined;
    }
    if (!whole || !first || !firstTail || !second) return undefined;
    if ((Number(firstTail) + 1) % 100 !== Number(second)) {
      // A range of this century's years after 2010 says the second whole ("Drink 2014-20": twenty
      // fourteen to twenty twenty; "to twenty" would be a number).
      if (first.startsWith('20') && Number(firstTail) >= 10 && Number(second) > Number(firstTail))
        return `${yearWords(first)} to ${yearWords(`20${second}`)}`;
      // Other years are a range ("1990-95"): the first year here, the rest left to the other rules.
      return { out: yearWords(first), end: first.length };
    }
    return `${yearWords(first)} ${second.startsWith('0') ? `oh ${cardinalWords(second.slice(1))}` : cardinalWords(second)}`;
  },
};

/** Words of a game around "OT": a score, a result, a league's words. */
const SPORTS_NEAR =
  /\d{1,3}[-–]\d{1,3}(?!\d)|(?<![\p{L}])(?:[Ww]in|[Ww]ins|[Ww]on|[Bb]eat|[Bb]eats|[Dd]efeat(?:s|ed)?|[Tt]op(?:s|ped)?|[Gg]ame|[Gg]oal|[Ss]core[ds]?|[Ss]eason|[Pp]layoffs?|[Qq]uarter|[Pp]eriod|[Rr]egulation|[Ww]eek[ \u00A0]\d|NFL|NBA|NHL|touchdown|field goal|buzzer)(?![\p{L}])/u;
const OT_TIMES: Readonly<Record<string, string>> = { '2': 'double ', '3': 'triple ', '4': 'quadruple ' };

const overtimeRule: Rule = {
  name: 'abbreviation',
  // "Packers Top Pats in OT", "a 27-24 OT win", "a 2OT thriller": overtime in a sentence about a
  // game ("2OT" double overtime); "OT" elsewhere (a therapist, the Old Testament) is left.
  pattern: `(?=[2-4]?OT)(?<![\\p{L}\\p{N}_])([2-4])?OT(?![\\p{L}\\p{N}_])`,
  rewrite([whole, times], ctx) {
    if (!whole) return undefined;
    const sentence = `${
      before(ctx, 160)
        .split(/[.!?;\n](?=[ \u00A0\n])/u)
        .pop() ?? ''
    } ${after(ctx, 60).split(/[.!?;\n]/u)[0] ?? ''}`;
    if (SPORTS_NEAR.test(sentence)) return `${times ? OT_TIMES[times] : ''}overtime`;
    const spelt = times ? undefined : englishAcronymRule.rewrite([whole], ctx);
    return typeof spelt === 'string' ? { out: spelt, name: 'acronym' } : spelt;
  },
};

/** A clock word or a time word after a pair of numbers: "1-6 pm", "2-4 hours", "7-9 o'clock". */
const TIME_WORD_AFTER = new RegExp(
  `^${SP}*(?:${AM_PM}|(?:o['’]clock|noon|seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)(?![\\p{L}]))`,
  'u',
);
/** A unit symbol or word after a pair of numbers ("5-10 km", "3-4 inches"). */
const UNIT_AFTER = /^[ \u00A0\u202F]*([\p{L}°µ][\p{L}\d/]*)/u;

/** Whether a pair of numbers is followed by a clock word, a time word or a unit: then it is a range, never a record. */
function rangeOfQuantity(ctx: RuleContext): boolean {
  const next = after(ctx, 24);
  if (TIME_WORD_AFTER.test(next)) return true;
  const unit = UNIT_AFTER.exec(next)?.[1];
  return unit !== undefined && (lookUpUnit(unit, ctx) !== undefined || UNIT_NAMES.has(unit.toLowerCase()));
}

const threePartRecordRule: Rule = {
  name: 'score',
  // "Boston had been 8-0-1 in its past nine home games", "are now 3-3-0", "unbeaten at 3-0-2": wins,
  // losses and ties after a verb of being or "at" ("eight and oh and one").
  pattern: `(?=\\d)(?<=(?<![\\p{L}])(?:been|at|are|is|was|were|remains?|now|went)${SP}+)(\\d{1,2})[-–](\\d{1,2})[-–](\\d{1,2})(?![\\p{N}]|[-–.,:/]\\p{N})`,
  rewrite([whole, w, l, t], ctx) {
    if (!whole || !w || !l || !t || rangeOfQuantity(ctx)) return undefined;
    return [w, l, t].map(recordCount).join(' and ');
  },
};

const recordRule: Rule = {
  name: 'score',
  // A team's record of wins and losses: "The Lakers (50-18)", "2-17 at home", "10-3 on the road"
  // → "fifty and eighteen"; a score after "beat"/"won" is the score rule's ("to").
  pattern: `(?=\\d)(?:(?<=\\p{Lu}[\\p{L}.’']*${SP}?\\(${NOT_A_TEAM_BEFORE}(?:\\d{1,3}[-–]\\d{1,3},${SP})?)(\\d{1,3})[-–](\\d{1,3})(?:[-–](\\d{1,2}))?(?=\\)|,${SP}\\d{1,3}[-–]\\d{1,3}\\))|${NUM_BEFORE}(\\d{1,3})[-–](\\d{1,3})(?=${SP}+(?:(?:career|lifetime|playoff|conference|league)${SP}+)?(?:record|records|season|seasons|campaign|mark|start|finish|tear|streak|skid|stretch|slide|at home|on the road|away from home|in road games|in home games|in conference play|overall|all-time|(?<=(?<![\\p{L}])[Tt]he${SP}\\d{1,2}[-–]\\d{1,2}${SP})\\p{Lu}\\p{Ll}+s)(?![\\p{L}]))|${RECORD_BEFORE}${NUM_BEFORE}(\\d{1,3})[-–](\\d{1,3})(?![\\p{N}]|[-–.,:/]\\p{N}|${SP}+(?:up|down|ahead|behind|in front)(?![\\p{L}])))`,
  rewrite([whole, w1, l1, t1, w2, l2, w3, l3], ctx) {
    const wins = w1 ?? w2 ?? w3;
    const losses = l1 ?? l2 ?? l3;
    if (!whole || !wins || !losses) return undefined;
    // "Open Hours are 1-6 pm", "is 2-4 hours", "are 5-10 km": a range of hours or a measure.
    // The first number and the dash are read here; the second is left to the clock and unit rules.
    if (w3 !== undefined && rangeOfQuantity(ctx)) {
      const dash = whole.length - losses.length;
      return {
        out: [piece(cardinalWords(wins), 0, dash - 1), piece(' to ', dash - 1, dash)],
        name: 'range',
        end: dash,
      };
    }
    // "the match finished 2-1", "the game ended 24-17": a game's end is its score.
    // "won 3-1 at home", "beat Ohio 24-17 on the road": after a verb of scoring it is a score.
    if (
      (w3 !== undefined && GAME_BEFORE.test(before(ctx, 60))) ||
      (w1 === undefined && SCORED_BEFORE.test(before(ctx, 40)))
    )
      return `${scoreWords(wins)} to ${scoreWords(losses)}`;
    return `${recordCount(wins)} and ${recordCount(losses)}${t1 ? ` and ${recordCount(t1)}` : ''}`;
  },
};

/** Words before a number said in pairs as a name: a veterans' post, a union local, a lodge, a flight, a chip or aircraft model, a council bill or ordinance ("CB 2340"). */
const PAIRED_NUMBER_BEFORE = `(?<=(?<![\\p{L}])(?:Post|Local|Lodge|Troop|Flight|Graphics|GeForce|Radeon|Boeing|Section|Sec\\.|CB|Ordinance|Highway|highway|Hwy\\.?|Route|Rte\\.?|Interstate|SR)${SP})`;

const pairedNumberRule: Rule = {
  name: 'cardinal',
  // "VFW Post 3335" thirty three thirty five, "Intel HD Graphics 620" six twenty, "Boeing 737"
  // seven thirty seven, "Flight 1549", "Sec. 904" nine oh four, "Section 230" (a law's section,
  // as American lawyers say it), "Highway 101" one oh one, "Route 128" (a road's number): a
  // name's number, not a count.
  // "Ordinance 21-112": a year's two digits and a number, each said as such (twenty one one twelve).
  pattern: `(?=\\d)${PAIRED_NUMBER_BEFORE}(?:(\\d{3,4})|(?<=(?:Ordinance|CB)${SP})(\\d{2})-(\\d{2,3}))(?![\\p{L}\\p{N}]|[.,:/-]\\d)`,
  rewrite([whole, n, year, number]) {
    if (whole && year && number) return `${cardinalWords(year)} ${scoreWords(number)}`;
    return whole && n && !n.startsWith('0') ? houseNumberWords(n) : undefined;
  },
};

const caliberRule: Rule = {
  name: 'cardinal',
  // ".30-caliber", ".22 caliber", ".357-caliber": a gun's bore in hundredths or thousandths of an
  // inch, said as the number after the point ("thirty-caliber", "three fifty seven").
  pattern: `(?=\\.\\d)(?<![\\p{L}\\p{N}.])\\.(\\d{2,3})(?=-?${SP}?(?:caliber|calibre|cal\\.)(?![\\p{L}]))`,
  rewrite: ([whole, n]) =>
    whole && n ? (n.length === 3 ? houseNumberWords(n) : cardinalWords(n)) : undefined,
};

const phoneModelRule: Rule = {
  name: 'cardinal',
  // "iPhone 6s Plus": the model's letter, not seconds ("six s").
  pattern: `(?=\\d)(?<=(?<![\\p{L}])iPhone${SP})(\\d{1,2})s(?![\\p{L}\\p{N}])`,
  rewrite: ([whole, n]) => (whole && n ? `${cardinalWords(n)} s` : undefined),
};

const productCodeRule: Rule = {
  name: 'cardinal',
  // A model code of one or two capitals and three or four digits, the number in pairs: "A380" A
  // three eighty, "F150" F one fifty, "H100", "M1911" M nineteen eleven. The hyphen keeps a lone
  // "A" the letter (eSpeak reads "A three" as the article). Shorter codes ("S4", "A15", "M2")
  // eSpeak reads right as written. With a hyphen, any number: "AR-15" A R fifteen, "B-52" B fifty
  // two, "F-150" F one fifty (the hyphen silent). Five digits or more are a contract's or a
  // part's number, said digit by digit, 0 as "oh": "C16162262" C one six one six…, "PE-11011" P
  // E one one oh one one.
  pattern: `(?=\\p{Lu})(?<![\\p{L}\\p{N}_.&'’-])(\\p{Lu}{1,3})(?:(?<=(?<!\\p{L})\\p{Lu}{1,2})(?:([1-9]\\d{2,3})|-([1-9]\\d{0,3}))|-?(\\d{5,12}))(?![\\p{L}\\p{N}]|[.,:/–-]\\p{N})`,
  rewrite([whole, letters, digits, hyphened, long]) {
    if (!whole || !letters) return undefined;
    if (long) return `${spellAcronym(letters)} ${codeDigitWords(long)}`;
    const n = digits ?? hyphened;
    if (n === undefined) return undefined;
    return `${spellAcronym(letters)}-${n.length >= 3 ? houseNumberWords(n) : cardinalWords(n)}`;
  },
};

/** A blood-pressure pair in its ranges: systolic 60–250 over diastolic 40–150. */
const PRESSURE_PAIR = '((?:[6-9]\\d|1\\d\\d|2[0-4]\\d|250))/((?:[4-9]\\d|1[0-4]\\d|150))';

const bloodPressureRule: Rule = {
  name: 'measure',
  // "120/80 mmHg", "blood pressure of 140/90", "a reading of 120/80", "BP 135/85", and a pair in
  // its ranges later in a sentence about blood pressure ("The high blood pressure category … is
  // now 130/80"): one twenty over eighty. Elsewhere "120/80" stays a fraction.
  pattern: `${NUM_BEFORE}(\\d{2,3})/(\\d{2,3})(?=${SP}?mm${SP}?Hg(?![\\p{L}]))|(?=\\d)(?<=(?:[Bb]lood pressure|BP|[Hh]ypertension|[Ss]ystolic|[Dd]iastolic|[Rr]eading)[^.;!?\\n]{0,120}(?<![\\p{L}\\p{N}_.,:/'’%‰]))${PRESSURE_PAIR}${NUM_AFTER}`,
  rewrite([whole, a1, b1, a2, b2]) {
    const a = a1 ?? a2;
    const b = b1 ?? b2;
    return whole && a && b ? `${houseNumberWords(a)} over ${cardinalWords(b)}` : undefined;
  },
};

/** A statistic before "=", "<" or ">" and a number in a study: odds and hazard ratios, p, N, r… */
const STATISTIC = '(?:a?OR|a?HR|a?RR|IRR|CI|N|n|p|P|r|R|R²|r²|t|F|z|Z|SD|SE|SEM|df|ICC|AUC|β|χ²)';
const RELATIONS: Readonly<Record<string, string>> = {
  '=': 'equals',
  '<': 'less than',
  '>': 'greater than',
  '≤': 'less than or equal to',
  '≥': 'greater than or equal to',
};

const statisticRule: Rule = {
  name: 'abbreviation',
  // "(OR = 3.32)" O R equals three point three two, "(N = 5582)", "p < 0.05", "p<.001": a
  // relation between a statistic and a number is said; "OR" there is spelt, not the word "or".
  pattern: `(?=[a-zA-Zβχ²])(?<![\\p{L}\\p{N}_])(${STATISTIC})(${SP}?)([=<>≤≥])(?=${SP}?[-−]?\\.?\\d)`,
  rewrite([whole, stat, space, relation], ctx) {
    if (!whole || !stat || space === undefined || !relation) return undefined;
    const name = /^a?[A-Z]{2,3}$/u.test(stat) ? spellAcronym(stat) : stat;
    const spaceAfter = /^[ \u00A0\u202F]/u.test(after(ctx, 1)) ? '' : ' ';
    return [
      piece(name, 0, stat.length),
      piece(` ${RELATIONS[relation] ?? relation}${spaceAfter}`, stat.length, whole.length),
    ];
  },
};

const resolutionRule: Rule = {
  name: 'measure',
  // "1080p" ten eighty p, "720p" seven twenty p, "2160p": a video's lines, said in pairs
  pattern: `${NUM_BEFORE}(480|576|720|1080|1440|2160|4320)p(?![\\p{L}\\p{N}])`,
  rewrite([whole, lines]) {
    return whole && lines ? `${houseNumberWords(lines)} p` : undefined;
  },
};

const VERSION_NAMES =
  'version|Version|Python|Java|iOS|iPadOS|Android|macOS|OS X|Windows|Node|Node\\.js|Ubuntu|Debian|Fedora|Firefox|Chrome|PHP|Ruby|Perl|Rust|TypeScript|Kotlin|Swift|Linux|Bluetooth|HTTP|Unicode|Wi-Fi|Angular|React|Vue|Django|Rails|\\.NET|Excel|Word|Office';

function versionWords(numbers: string): string {
  return numbers
    .split('.')
    .map((n) => (n.length > 1 && n.startsWith('0') ? digitWords(n) : cardinalWords(n)))
    .join(' point ');
}

const versionRule: Rule = {
  name: 'version',
  // "v2.0" version two point zero, "V6" V six, "Python 3.11" three point eleven, "Windows 3.1", "1.2.3"
  pattern: `(?=[vV])(?<![\\p{L}\\p{N}_.])[vV](\\d+(?:\\.\\d+)*)${NUM_AFTER}(?![\\p{L}])|(?=\\d)(?<=(?:${VERSION_NAMES})${SP})(\\d+(?:\\.\\d+)+)${NUM_AFTER}|${NUM_BEFORE}(\\d{1,3}(?:\\.\\d{1,3}){2,3})${NUM_AFTER}(?![\\p{L}])`,
  rewrite([whole, v, named, dotted]) {
    if (!whole) return undefined;
    // A capital V before a whole number is a name, said as the letter: "a 3.5-liter V6", "V8
    // engine", "Supercharger V3"; "v3", "v2.0", "V2.1" are versions.
    if (v !== undefined && whole.startsWith('V') && !v.includes('.')) return `V ${cardinalWords(v)}`;
    if (v !== undefined) return `version ${versionWords(v)}`;
    if (named !== undefined) return versionWords(named);
    if (dotted === undefined) return undefined;
    // Four dotted numbers are an IP address, said digit by digit; three a version ("1.2.3").
    const parts = dotted.split('.');
    return parts.length === 4 ? parts.map(digitWords).join(' dot ') : versionWords(dotted);
  },
};

/** A context word before a number that makes a four-digit number a year. */
const YEAR_BEFORE =
  /(?:^|[^\p{L}])(?:in|since|fiscal|class of|season|by|from|until|till|to|through|of|year|FY|around|circa|c\.|before|after|during|early|late|mid|spring|summer|autumn|fall|winter|born|died|founded|established|est\.|between|and|or)[ \u00A0]+$/iu;
const ERA_AFTER = /^[ \u00A0]*(?:AD|BC|BCE|CE|A\.D\.|B\.C\.)(?![\p{L}])/u;
/** An asteroid's or comet's designation after its year of discovery: "2023 BU", "2004 MN4", "1997 XF11"; not a country's capitals ("1500 US troops"). */
const DESIGNATION_AFTER =
  /^[ \u00A0]+(?!US|UK|EU|UN|NY|LA|DC|TV|PC|GB|MB|KB|TB|AM|PM|ET|PT|CT|MT)[A-HJ-Y][A-Z]\d{0,4}(?![\p{L}\p{N}])/u;

/** Words before a four-digit number that make it a number in a list or a code, never a year ("No. 1984", "room 1203", "flight 1549"). */
const CODE_BEFORE =
  /(?:^|[^\p{L}])(?:No\.?|Nos\.?|number|block|room|suite|flight|page|pages|pp?\.|bus|route|highway|exit|gate|code|PIN|ID|apartment|apt\.?|unit|track|episode|item|line|step|model|section|article|chapter|verse|box)[ \u00A0]+$/iu;
/** Words before a four-digit number that make it a count ("about 2000", "more than 1500", "another 1200"). */
const COUNT_BEFORE =
  /(?:^|[^\p{L}])(?:about|nearly|almost|approximately|roughly|some|over|than|least|only|just|another|additional|extra|all|total|estimated)[ \u00A0]+$/iu;
/** Plural nouns without an -s, and verbs that follow a plural subject: a count comes before them ("2000 people", "1500 were"). */
const COUNTED_WORDS: ReadonlySet<string> = new Set(
  'people men women children feet teeth mice geese police staff personnel cattle sheep deer fish were are have'.split(
    ' ',
  ),
);
/** A determiner before a year that qualifies a plural noun ("the 2016 elections", "its 2023 results", "the men's 2011 convictions"). */
const DETERMINER_BEFORE =
  /(?:^|[^\p{L}])(?:the|its|their|his|her|our|this|that|last|\p{L}+['’]s|\p{L}+s['’])[ \u00A0]+$/iu;

/** A year word then a word of about ("in about 1350", "by around 2030"): a year, unless a plural noun follows. */
const APPROXIMATE_YEAR_BEFORE =
  /(?:^|[^\p{L}])(?:in|since|by|until|till|before|after)[ \u00A0]+(?:about|around|approximately|roughly|circa|c\.)[ \u00A0]+$/iu;

/** Year words that also come before a count: before a plural noun the number is a count ("of 1500 people", "to 2000 members"). */
const WEAK_YEAR_BEFORE = /(?:^|[^\p{L}])(?:of|to|and|or|from|between|around)[ \u00A0]+$/iu;

/** The word after a number, with its capitals: "people", "km", "Chevrolet". */
const WORD_AFTER_NUMBER = /^[ \u00A0\u202F]+([\p{L}µΩ°][\p{L}²³]*)(?![\p{L}\p{N}'’])/u;

/** Short words and others ending in s that are not plural nouns. */
const NOT_PLURAL: ReadonlySet<string> = new Set(
  'does goes this thus plus less ours hers yours whereas'.split(' '),
);

/**
 * Whether the word after a number is a plural count noun ("people", "meters"), not a singular
 * ending in s ("census", "class"), a short word ("was", "has") or a verb before its object
 * ("2023 marks the", "2020 brings a").
 */
function isPluralNoun(word: string, rest: string): boolean {
  if (COUNTED_WORDS.has(word)) return true;
  if (word.length < 4 || NOT_PLURAL.has(word) || !/^\p{Ll}+[^su'’]s$/u.test(word)) return false;
  return !/^[ \u00A0]+(?:the|its|his|her|their|our|this|another|an?(?![ \u00A0]+(?:day|week|month|year|night|head|person|piece|share|minute|hour|second)\b))(?![\p{L}])/iu.test(
    rest,
  );
}

/**
 * Whether a four-digit number from 1000 to 2099 is read in pairs like a year. Not after "$", "#"
 * or a word of a list or code ("No.", "room", "block", "flight"), nor before a unit ("1500 m").
 * A year after a year word ("in", "since", "fiscal", "class of") or before an era. A count
 * before a plural noun ("2000 people", "1500 meters"; but "the 2016 elections": a determiner
 * before a year that is not a round hundred) or after a count word ("about 2000", "more than
 * 1500"). Otherwise a year: alone ("(2019)"), before a name ("2017 Chevrolet") and before a
 * singular noun ("the 2016 election", "the 2022 season"). SSML's `<say-as
 * interpret-as="cardinal">` is read by `cardinalSayAs`.
 */
function isYear(digits: string, ctx: RuleContext): boolean {
  if (!/^(?:1\d|20)\d{2}$/.test(digits)) return false;
  if (/^\p{L}/u.test(after(ctx, 1))) return false;
  const left = before(ctx);
  if (/[$€£¥#№§]$/.test(left) || /§[ \u00A0]$/u.test(left) || CODE_BEFORE.test(left)) return false;
  // A term of a sum ("= 1056 ÷ 10"): a number.
  if (/[=×÷*][ \u00A0]?$/u.test(left) || /^[ \u00A0]?[=×÷*]/u.test(after(ctx, 2))) return false;
  const found = WORD_AFTER_NUMBER.exec(after(ctx, 40));
  const next = found?.[1];
  if (next !== undefined && !ENGLISH_UNITS_ONLY_ATTACHED.has(next) && lookUpUnit(next, ctx)) return false;
  const yearWord = YEAR_BEFORE.test(left);
  if ((yearWord && !WEAK_YEAR_BEFORE.test(left)) || ERA_AFTER.test(after(ctx, 6))) return true;
  // The end of a span of years ("the 2021-2022 values"): a year, whatever follows.
  const spanStart = /(?:^|[^\p{L}\p{N}])((?:1\d|20)\d{2})[-–]$/u.exec(left)?.[1];
  if (spanStart && !spanStart.endsWith('00') && Number(digits) > Number(spanStart)) return true;
  if (DESIGNATION_AFTER.test(after(ctx, 10))) return true;
  if (next !== undefined && isPluralNoun(next, after(ctx, 40).slice(found?.[0].length)))
    return !digits.endsWith('00') && DETERMINER_BEFORE.test(left) && !COUNTED_WORDS.has(next);
  // "excepting only 1961 and 1978": a year in a pair of years.
  if (/^[ \u00A0]+(?:and|or|&)[ \u00A0]+(?:1\d|20)\d{2}(?![\p{N}]|[ \u00A0]*\p{L})/u.test(after(ctx, 16)))
    return true;
  return yearWord || APPROXIMATE_YEAR_BEFORE.test(left) || !COUNT_BEFORE.test(left);
}

/**
 * Part of a code of numbers joined by dashes ("978-3-16-148410-0"), or of one that begins with
 * letters ("Docket S-99-727"), which is left as written.
 */
function inDashedCode(ctx: RuleContext): boolean {
  const before40 = before(ctx, 40);
  if (/\p{L}[-–]\d+$/u.test(before40)) return true;
  const left = /[\d–-]*$/u.exec(before40)?.[0] ?? '';
  const right = /^[\d–-]*/u.exec(after(ctx, 40))?.[0] ?? '';
  const run = `${left}${ctx.input.slice(ctx.index, ctx.end)}${right}`;
  return (run.match(/\d[-–](?=\d)/gu) ?? []).length >= 2;
}

/** Words before an emergency or service number that make it one ("Call 911", "dial 999"). */
const SERVICE_BEFORE =
  /(?:^|[^\p{L}])(?:call(?:s|ed|ing)?|dial(?:s|ed|ing)?|phon(?:e|es|ed|ing)|ring(?:s|ing)?|text(?:s|ed|ing)?|contact(?:s|ed|ing)?)(?:[ \u00A0]+(?:the|on|to))?[ \u00A0]+$/iu;
/** Words after one ("911 calls", "a 999 operator"). */
const SERVICE_AFTER =
  /^[ \u00A0]+(?:calls?|callers?|call-takers?|operators?|dispatch(?:ers?)?|cent(?:er|re)s?|lines?|emergenc(?:y|ies)|services?|system|hotline|number|tapes?|recordings?)(?![\p{L}])/iu;

/** Emergency and service numbers, read digit by digit where the context says so ("nine one one"). */
const SERVICE_NUMBERS = new Set(['911', '999', '112', '411', '311']);

/** Whether `n` is a service number here: "Call 911", "911 calls", "dial 999". */
function isServiceNumber(n: string, ctx: RuleContext): boolean {
  return SERVICE_NUMBERS.has(n) && (SERVICE_BEFORE.test(before(ctx)) || SERVICE_AFTER.test(after(ctx, 16)));
}

/** A US street block after its number ("the 3200 block of North Main Street"). */
const BLOCK_AFTER = /^[ \u00A0]+block(?![\p{L}])/u;

/** A block number in hundreds, as an address is said: "3200" thirty two hundred, "2700", "300" three hundred; "2000" two thousand. */
function blockNumberWords(digits: string): string {
  const hundreds = digits.slice(0, -2);
  return hundreds.length === 2 && !hundreds.endsWith('0')
    ? `${cardinalWords(hundreds)} hundred`
    : cardinalWords(digits);
}

/** A unit of time after two digits with a leading zero, which then are a count: "02 seconds", "05 minutes" (not a code "007"). */
const UNIT_NOUN_AFTER = /^[ \u00A0]+(?:second|minute|hour|day|week|month|year)s?(?![\p{L}])/u;

/** A state's postal code before a ZIP code ("Springfield, IL 62701"). */
const ZIP_BEFORE = /,[ \u00A0]+[A-Z]{2}[ \u00A0]+$/u;

/** A hotline after its number ("the 1022 Hotline"). */
const HOTLINE_AFTER = /^[ \u00A0]+(?:hot[ -]?lines?|help[ -]?lines?)(?![\p{L}])/iu;

/**
 * Whether a number without separators is one to dial (or a ZIP code after a state's postal
 * code, "IL 62701"), read digit by digit: three to five digits before "hotline" ("the 1022 Hotline"); seven digits or more in brackets or after a word
 * of calling ("(19003228)", "call 5551234"); eight digits opening with 1800 or 1900 (a hotline,
 * "19009095"). Other long numbers are counts.
 */
function isDialled(n: string, ctx: RuleContext): boolean {
  if (/^\d{5}$/.test(n) && ZIP_BEFORE.test(before(ctx, 8))) return true;
  if (/^\d{3,5}$/.test(n)) return HOTLINE_AFTER.test(after(ctx, 12));
  if (!/^\d{7,15}$/.test(n)) return false;
  return /^1[89]00\d{4}$/.test(n) || /\($/.test(before(ctx, 1)) || SERVICE_BEFORE.test(before(ctx));
}

/** Words before a number made of digit groups that is a code, read group by group ("Meeting ID: 955 2562 4143"). */
const CODE_WORDS = `(?:ID|Id|code|Code|PIN|pin|[Pp]asscode|[Aa]ccount|[Nn]umber|No\\.|#)`;

const digitGroupsRule: Rule = {
  name: 'telephone',
  // "Meeting ID: 955 2562 4143" nine five five, two five six two, four one four three
  pattern: `(?=\\d)(?<=${CODE_WORDS}:?${SP}{1,3})\\d{3,4}(?:${SP}\\d{3,4}){1,4}${NUM_AFTER}`,
  rewrite([whole]) {
    return whole ? (whole.match(/\d+/gu) ?? []).map(digitWords).join(', ') : undefined;
  },
};

/**
 * An unsigned number read the way its context says, or undefined for a plain cardinal: a number
 * to dial or a service number digit by digit, a street block in hundreds, a house number before
 * a street or an airliner's model in pairs, a year, two digits with a leading zero before a unit of time as a count.
 * (A number to dial is named a telephone number among the changes by the number rule.)
 */
function unsignedNumberWords(n: string, ctx: RuleContext): string | undefined {
  if (isDialled(n, ctx) || isServiceNumber(n, ctx)) return digitWords(n);
  if (/^[1-9]\d?00$/.test(n) && BLOCK_AFTER.test(after(ctx, 8))) return blockNumberWords(n);
  if (
    /^[1-9]\d{2,4}$/.test(n) &&
    (STREET_AHEAD.test(after(ctx, 80)) || COMPASS_NAME_AHEAD.test(after(ctx, 24)))
  )
    return houseNumberWords(n);
  // An airliner's model in pairs: "Boeing 737" seven thirty seven; so is a form's, a flight's, a
  // room's or a post's number ("Form 4868" forty eight sixty eight, "Flight 1549").
  if (/^[1-9]\d{2}$/.test(n) && /Boeing[ \u00A0]$/u.test(before(ctx, 8))) return houseNumberWords(n);
  if (/^[1-9]\d{2,3}$/.test(n) && /(?:^|[^\p{L}])(?:Form|Flight|Room|Post)[ \u00A0]$/u.test(before(ctx, 8)))
    return houseNumberWords(n);
  if (/^([01]\d|2[0-3])[0-5]\d$/.test(n) && isFourDigitTime(n, ctx)) return fourDigitTimeWords(n);
  if (/^\d{4}$/.test(n) && isYear(n, ctx)) return yearWords(n);
  if (/^0\d$/.test(n) && UNIT_NOUN_AFTER.test(after(ctx, 10))) return cardinalWords(n);
  return undefined;
}

/**
 * A 24-hour time in four digits: before a time zone or "hours" ("2353 UTC", "1800 hours"), or with
 * its zero after "the", "at", "by", "until" or "from" ("the 0531 from Sheffield", "at 0846").
 */
function isFourDigitTime(n: string, ctx: RuleContext): boolean {
  if (/^[ \u00A0]?(?:UTC|GMT|Z|hrs|hours)(?![\p{L}])/u.test(after(ctx, 7))) return true;
  return n.startsWith('0') && /(?:^|[^\p{L}])(?:at|the|by|until|from)[ \u00A0]$/u.test(before(ctx, 7));
}

/** "0531" oh five thirty one, "2353" twenty three fifty three, "1800" eighteen hundred, "1006" ten oh six. */
function fourDigitTimeWords(n: string): string {
  const hour = n.slice(0, 2);
  const minutes = n.slice(2);
  return `${hour === '00' ? 'oh zero' : clockPairWords(hour)} ${minutes === '00' ? 'hundred' : clockPairWords(minutes)}`;
}

const houseNumbersRule: Rule = {
  name: 'cardinal',
  // "861,865 Chestnut Dr": two house numbers on one street (an address has no thousands
  // separator), where the street's abbreviated name ends the line or the address
  pattern: `${NUM_BEFORE}([1-9]\\d{0,4}),([1-9]\\d{0,4})(?=(?:${SP}\\p{Lu}\\p{Ll}+){1,2}${SP}(?:Dr|Ave|St|Rd|Ln|Blvd|Ct|Pl|Way)\\.?(?:$|[,;\\n]))`,
  rewrite([whole, first, second]) {
    if (!whole || !first || !second) return undefined;
    return `${houseNumberWords(first)}, ${houseNumberWords(second)}`;
  },
};

const numberRule: Rule = {
  name: 'cardinal',
  // 1,234; -5; 3.14; .5; 0.010; 1943 (a year where the context says so); 007 (digit by digit)
  pattern: `${NUM_BEFORE}(${MINUS}(?=[\\d.]))?(${AMOUNT})${NUM_AFTER}`,
  rewrite([whole, sign, n], ctx) {
    if (!whole || !n) return undefined;
    if (inDashedCode(ctx)) return undefined;
    // An en dash after a number is a range's ("10 –20"), never a minus.
    if (sign === '–' && /[\p{N}%‰][ \u00A0\u202F]*$/u.test(before(ctx, 4))) return undefined;
    const spoken = sign === undefined ? unsignedNumberWords(n, ctx) : undefined;
    const said =
      spoken ?? (/^0\d+$/.test(n) ? `${sign ? 'minus ' : ''}${digitWords(n)}` : numberWords(whole));
    // "5km", "3D", "©2026": the words must not run into the letters or symbols beside them.
    const lead = /\p{S}$/u.test(before(ctx, 1)) ? ' ' : '';
    // "76ers", "49ers" seventy sixers, forty niners: the ending is said with the last word.
    const glued = /^ers(?![\p{L}])/u.test(after(ctx, 4));
    if (glued) return `${lead}${said.replace(/e$/u, '')}`;
    const out = /^\p{L}/u.test(after(ctx, 1)) ? `${lead}${said} ` : `${lead}${said}`;
    return spoken !== undefined && (isDialled(n, ctx) || isServiceNumber(n, ctx))
      ? { out, name: 'telephone' }
      : out;
  },
};

const temperatureScaleRule: Rule = {
  name: 'measure',
  // "68 - 82 degrees F", "20 deg C": the scale's letter after the word, "Fahrenheit", "Celsius".
  pattern: `(?=[CF])(?<=\\d${SP}?(?:degrees?|deg\\.?)${SP})[CF](?![\\p{L}\\p{N}])`,
  rewrite: ([whole]) => (whole === 'F' ? 'Fahrenheit' : whole === 'C' ? 'Celsius' : undefined),
};

const signRule: Rule = {
  name: 'symbol',
  // "#1" number one, "#311240" number three one one two four zero, "AMENDMENT#13", "ID# to use"; "3× faster" three times, "2×4" two by four; "65+" sixty five plus; "= 10" equals
  pattern: `(?=#)(?:(?<![\\p{L}\\p{N}&#])#(?=\\d)(?:\\d{5,}(?![\\p{N}]|[.,]\\d))?|(?<=\\p{Lu}{2})#(?=\\d|${SP}))|(?=×)(?<=\\d${SP}?)×(?:(?=${SP}?\\d)|(?![\\p{L}\\p{N}]))|(?=\\+)(?<=\\d)\\+(?![\\p{L}\\p{N}+])|(?==)(?<=${SP}|[\\p{L}\\d])=(?=${SP}+[-−]?\\d)|(?=÷)(?<=\\d${SP}?)÷(?=${SP}?\\d)`,
  rewrite([whole], ctx) {
    // "1 Imperial cup = 10 Imperial fluid ounces", "÷ 10cm= 105.6": an equation's signs.
    if (whole === '=' || whole === '÷') {
      const word = whole === '=' ? 'equals' : 'divided by';
      return /[ \u00A0\u202F]$/u.test(before(ctx, 1)) ? word : ` ${word}`;
    }
    // "AMENDMENT#13", "a confidential ID# to use": after capitals the sign is the word.
    // "VNUM #311240": an identifier of five digits and more, digit by digit.
    if (whole && whole.length > 5 && whole.startsWith('#')) return `number ${digitWords(whole.slice(1))}`;
    if (whole === '#')
      return /\p{L}$/u.test(before(ctx, 1)) ? ` number${/^\d/u.test(after(ctx, 1)) ? ' ' : ''}` : 'number ';
    // "ages 65+", "100+ people": plus.
    if (whole === '+') return ' plus';
    // The number after "×" brings its own space (a symbol stands before it).
    const gap = /[ \u00A0\u202F]$/u.test(before(ctx, 1)) ? '' : ' ';
    return `${gap}${/^[ \u00A0\u202F]?\d/u.test(after(ctx, 2)) ? 'by' : 'times'}`;
  },
};

const RANGE_WORD = ' to ';

/** A month and a day, and maybe its year, just before a dash ("February 1", "Jan. 5th", "September 5, 1638"). */
const MONTH_DAY_BEFORE = new RegExp(
  `(?:${MONTH})${SP}+\\d{1,2}(?:st|nd|rd|th)?(?:,?${SP}+\\d{4})?${SP}?$`,
  'u',
);

/** A year ending what comes before a dash, and a clock time after it ("2024 - 4:30pm"). */
const YEAR_END_BEFORE = /(?<![\d.,])(?:1[5-9]|20)\d{2}[ \u00A0]?$/u;
const CLOCK_TIME_AHEAD =
  /^\d{1,2}(?::[0-5]\d[ \u00A0]?(?:[ap]\.?m\.?|[AP]\.?M\.?)?|[ \u00A0]?(?:[ap]\.?m\.?|[AP]\.?M\.?))(?![\p{L}])/u;

const measureRangeRule: Rule = {
  name: 'range',
  // "5kg–10kg", "2kg – 3kg": a dash between two measures of one unit is "to".
  pattern: `(?=[ \u00A0–—-])(?<=\\d${SP}?\\p{L}{1,4})${SP}?[-–—]${SP}?(?=\\d+(?:\\.\\d+)?${SP}?\\p{L}{1,4}(?![\\p{L}\\p{N}]))`,
  rewrite(_groups, ctx) {
    const unitBefore = /\d[ \u00A0]?(\p{L}{1,4})[ \u00A0]*$/u.exec(before(ctx, 12))?.[1];
    const unitAfter = /^\d+(?:\.\d+)?[ \u00A0]?(\p{L}{1,4})/u.exec(after(ctx, 16))?.[1];
    return unitBefore && unitBefore === unitAfter && lookUpUnit(unitBefore, ctx) ? RANGE_WORD : undefined;
  },
};

/** A point of a match after a pair of numbers: "1-1 at half time" is a score. */
const SCORE_TIME_AFTER =
  /^[ \u00A0]*at[ \u00A0]+(?:half[- \u00A0]?time|the[ \u00A0]+(?:break|half)|full[- \u00A0]?time)/iu;
/** A tie before a pair of numbers: "tied the series 3-3", "drew 1-1" is a score. */
const TIED_BEFORE =
  /(?:^|[^\p{L}])(?:tied|ties|tie|tying|drew|draw|level(?:l?ed)?|knotted)(?:[ \u00A0]+(?:the|it|them|things|series|game|match|score)){0,3}[ \u00A0]+$/iu;

const rangeRule: Rule = {
  name: 'range',
  // 2-5, 2–5, 10 – 20, 5-7%: the dash between two numbers is "to"
  pattern: `(?=[ \u00A0\u202F–—-])(?<=\\d(?:[%‰s]|st|nd|rd|th)?|[½⅓⅔¼¾⅛⅜⅝⅞]|\\d${SP}?(?:[ap]\\.?m\\.?|[AP]\\.?M\\.?))${SP}?[-–—]${SP}?(?=[$€£¥'’]?\\d|(?:${MONTH})${SP}+\\d)`,
  rewrite(_groups, ctx) {
    if (inDashedCode(ctx)) return undefined;
    // "K2-72", "K2-18b": a survey's star, a capital and a digit then its number; the hyphen is
    // not said ("K two seventy two").
    if (/(?<![\p{L}\p{N}])\p{Lu}\d$/u.test(before(ctx, 3)) && /^\d{2,}/u.test(after(ctx, 4))) return ' ';
    // "8:10 AM - 10K Run/Walk Start": a race's distance after a time is what starts then.
    if (
      /^\d{1,3}[Kk](?![\p{L}\p{N}])/u.test(after(ctx, 8)) &&
      /(?:\d:[0-5]\d|[AaPp]\.?[Mm]\.?)[ \u00A0]*$/u.test(before(ctx, 10))
    )
      return undefined;
    // "May 14, 2024 - 4:30pm": a dash between a year and a clock time is a pause, not "to".
    if (YEAR_END_BEFORE.test(before(ctx, 8)) && CLOCK_TIME_AHEAD.test(after(ctx, 16))) return ', ';
    // "50-50", "1-1": the same number twice is not a range.
    // "1.1-1.4" (a confidence interval) is a range: decimals are compared whole.
    const a = /(\d+(?:\.\d+)?)[%‰s]?[ \u00A0\u202F]?$/u.exec(before(ctx, 12))?.[1];
    const b = /^[$€£¥'’]?(\d+(?:\.\d+)?)/u.exec(after(ctx, 12))?.[1];
    // A range to a date only from a date ("February 1-February 28"), not "No. 87 – March 12th".
    if (b === undefined && !MONTH_DAY_BEFORE.test(before(ctx, 24))) return undefined;
    // "Order No. 12-0529": three digits or more with a zero first, after a number without one,
    // are a code's ("pages 001-010" stays a range; "9:00-09:30" too, its "09" has two digits).
    if (b !== undefined && /^0\d{2}/u.test(b) && a !== undefined && !a.startsWith('0')) return undefined;
    // "Version 4.6.3 - 27 November 2018": a dash after a version is a pause, not "to".
    if (/\d\.\d+\.\d+[ \u00A0]*$/u.test(before(ctx, 16))) return undefined;
    // "between 10,000–12,000 pounds": between one and the other.
    if (/(?:^|[^\p{L}])between[ \u00A0]+[$€£]?[\d,.]+[ \u00A0]*$/iu.test(before(ctx, 32))) return ' and ';
    // "1 1/2 - 2 3/4 cups": a fraction's denominator is not the number the range starts from.
    const fromFraction = /\/\d+[ \u00A0\u202F]?$/u.test(before(ctx, 12));
    // "1-1 at half time", "tied the series 3-3": the same number twice is a score there.
    if (
      a !== undefined &&
      a === b &&
      (SCORE_TIME_AFTER.test(after(ctx, 24).replace(/^\d+/u, '')) ||
        TIED_BEFORE.test(before(ctx, 40).replace(/\d+[ \u00A0]?$/u, '')))
    )
      return RANGE_WORD;
    return a !== undefined && a === b && !fromFraction ? undefined : RANGE_WORD;
  },
};

// --- Roman numerals ---------------------------------------------------------------------

const ROMAN_COUNTED =
  'Chapter|CHAPTER|Part|PART|Book|BOOK|Volume|Vol\\.|Act|ACT|Scene|Section|Article|Appendix|Phase|Stage|Episode|Title|Round|Level|Class|Type|Grade|Group|Psalm|Canto|Unit|Track|Division|League|War|Bowl|Schedule|Annex|Amendment|Vatican|Apollo|Gemini|Rocky|Mark|Mk\\.|Mk|[Cc]ount';
/** A charge of an indictment, "count I", only before a bracket or a comma ("the head count I expected" stays). */
const COUNT_I = /[Cc]ount[ \u00A0\u202F]I[),;]$/u;
const LONE_I_AFTER =
  /(?:Chapter|CHAPTER|Part|PART|Book|BOOK|Volume|Vol\.|Act|ACT|Scene|Section|Article|Appendix|Phase|Stage|Episode|Title|War|Schedule|Annex|Amendment|Division)[ \u00A0\u202F]$/u;
const ROMAN_TITLES =
  'King|Queen|Pope|Emperor|Empress|Tsar|Czar|Tsarina|Kaiser|Pharaoh|Prince|Princess|Duke|Sultan|Shah';

/** Given names of monarchs and popes, after which a lone "I" is the first of the name ("William I"). */
const MONARCH_NAMES: ReadonlySet<string> = new Set(
  'William Henry Charles Edward George James Richard Elizabeth Mary Anne Victoria Stephen Matilda John Harold Edmund David Robert Malcolm Alexander Louis Napoleon Philip Francis Ferdinand Isabella Catherine Peter Paul Nicholas Frederick Leopold Otto Wilhelm Ludwig Franz Maximilian Rudolf Karl Gustav Christian Haakon Olav Harald Ivan Constantine Justinian Pius Leo Gregory Benedict Clement Innocent Urban Boniface Darius Xerxes Cyrus Ptolemy Ramesses Selim Suleiman Mehmed Murad Juan Carlos Felipe Alfonso Pedro Manuel Sancho'.split(
    ' ',
  ),
);

const romanHeadingRule: Rule = {
  name: 'roman',
  // "II. Public Hearing", "- IV. Discuss …": a Roman numeral heading a line (an agenda's, an
  // outline's) before a full stop and a word is the section's number, "Two."; "I. M. Pei" is not.
  pattern: `(?=[IVX])(?<=(?:^|\\n)[ \\t]*(?:[-–•][ \\t]+)?)([IVX]{1,5})\\.(?=[ \\t]+\\p{Lu}\\p{Ll})`,
  rewrite([whole, numeral]) {
    const n = numeral ? romanValue(numeral) : undefined;
    if (!whole || n === undefined) return undefined;
    const words = cardinalWords(String(n));
    return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
  },
};

const romanRule: Rule = {
  name: 'roman',
  // "Chapter IV" four, "World War II" two, "Super Bowl LV" fifty five; "Louis XIV" the
  // fourteenth, "Queen Elizabeth I" the first; "XXI century" twenty first. Never a lone "I".
  pattern: `(?=[MDCLXVI])(?<=(?:${ROMAN_COUNTED})${SP})(${ROMAN_NUMERAL})(?![\\p{L}\\p{N}])|(?=[MDCLXVI])(?<=(?:${ROMAN_TITLES})${SP}\\p{Lu}\\p{Ll}+${SP})(${ROMAN_NUMERAL})(?![\\p{L}\\p{N}])|(?=[IVX])(?<=\\p{Lu}\\p{Ll}+${SP})(X{0,3}(?:IX|IV|V?I{0,3}))(?![\\p{L}\\p{N}])|(?<![\\p{L}\\p{N}])(?=[MDCLXVI])(${ROMAN_NUMERAL})(?=${SP}(?:century|centuries|Century|millennium)(?![\\p{L}]))`,
  rewrite([whole, counted, titled, regnal, century], ctx) {
    if (!whole) return undefined;
    if (counted !== undefined) {
      // A lone "I" only where it cannot be the pronoun ("Chapter I", "World War I", "(count I)"; not "Mark I").
      if (
        counted === 'I' &&
        !LONE_I_AFTER.test(before(ctx, 16)) &&
        !COUNT_I.test(`${before(ctx, 8)}I${after(ctx, 1)}`)
      )
        return undefined;
      // "Mark D. Raffety": one letter, a full stop and a name is an initial; "Type C", "Class D",
      // "Schedule L": a lone C, D, L or M is a letter.
      if (counted.length === 1 && (/^\.[ \u00A0]\p{Lu}/u.test(after(ctx, 3)) || /^[CDLM]$/u.test(counted)))
        return undefined;
      const n = romanValue(counted);
      return n === undefined ? undefined : cardinalWords(String(n));
    }
    const ordinal = titled ?? century;
    if (ordinal !== undefined) {
      const n = romanValue(ordinal);
      if (n === undefined) return undefined;
      return titled !== undefined ? `the ${ordinalWords(String(n))}` : ordinalWords(String(n));
    }
    if (regnal === undefined) return undefined;
    // A name then a numeral of I, V and X: two letters at least, or "V" ("Henry V"), or "I" after a
    // monarch's name ("William I.", "William I at the castle"); "Malcolm X" and another lone "I" stay.
    const n = romanValue(regnal);
    const name = /(\p{Lu}\p{Ll}+)[ \u00A0\u202F]$/u.exec(before(ctx))?.[1] ?? '';
    // Only before punctuation, the end or a word a pronoun "I" never precedes ("Mary I love you" stays).
    const monarchsFirst =
      regnal === 'I' &&
      MONARCH_NAMES.has(name) &&
      /^(?:[ \u00A0]*(?:[.,;:)\]]|$)|[ \u00A0]+(?:of|at|in|on|and|who|whose|with|from|to|by)(?![\p{L}]))/u.test(
        after(ctx, 8),
      );
    if (n === undefined || (regnal.length < 2 && regnal !== 'V' && !monarchsFirst)) return undefined;
    if (new RegExp(`^(?:${ROMAN_COUNTED}|${ROMAN_TITLES})$`, 'u').test(name)) return undefined;
    return `the ${ordinalWords(String(n))}`;
  },
};

const codeRomanRule: Rule = {
  name: 'roman',
  // "DA IV" D A four, "GS II", "CPA III": a numeral of two letters or more (or V, X) after a code
  // in capitals is a grade, said as a cardinal; a word in capitals ("WAR II" in a headline) is not a
  // code, and "IV" before drip, fluids, line … is intravenous ("the ICU IV line").
  pattern: `(?=[IVX])(?<=(?<![\\p{L}\\p{N}])\\p{Lu}{2,4}${SP})(X{0,3}(?:IX|IV|V?I{0,3}))(?![\\p{L}\\p{N}]|${SP}\\p{Lu}{2})(?<!IV(?=${SP}(?:drips?|fluids?|lines?|bags?|therapy|antibiotics?|infusions?|poles?|access|medications?|drugs?)(?![\\p{L}])))`,
  rewrite([whole], ctx) {
    if (!whole || (whole.length < 2 && whole !== 'V' && whole !== 'X')) return undefined;
    const code = /(\p{Lu}+)[ \u00A0\u202F]$/u.exec(before(ctx, 8))?.[1] ?? '';
    if (ENGLISH_WORD_ACRONYMS.has(code) || !/\p{Ll}/u.test(before(ctx, 80))) return undefined;
    const n = romanValue(whole);
    return n === undefined ? undefined : cardinalWords(String(n));
  },
};

/** Words after a pair of numbers with a colon that make it a ratio ("3:2 aspect ratio", "a 2:1 margin", "16:9 screen"). */
const RATIO_AFTER = `${SP}+(?:aspect|ratios?|screens?|displays?|margins?|majority|odds|split|mix|blend|widescreen|format|favou?rite|underdog|shot)(?![\\p{L}])`;
/** A pair after "ratio (of)" or "odds (of)". */
const RATIO_BEFORE = `(?<=(?<![\\p{L}])(?:ratios?|odds)(?:${SP}+of)?${SP}+\\d{1,3}:\\d{1,3})`;
/** A pair no clock time fits ("3:2", "30:1", "2:75"), not after a capitalised word (a verse, "John 3:2"). */
const NO_TIME_FITS = `(?<=(?<!\\p{Lu}\\p{Ll}*${SP})(?:\\d{1,3}:\\d|(?:2[5-9]|[3-9]\\d|\\d{3}):\\d{1,3}|\\d{1,3}:(?:[6-9]\\d|\\d{3})))`;

/** A time in a table's row that no clock shows: hours, minutes and seconds, or 25 minutes and more. */
const NO_CLOCK_CELL = `(?:\\d{1,2}:[0-5]\\d:[0-5]\\d|(?:2[5-9]|[3-5]\\d):[0-5]\\d)${SP}?\\|`;

const tableDurationRule: Rule = {
  name: 'time',
  // "| KEN | 28:31 |", "| 20:27 | 18:55 | … | 1:21:50 |": in a table's row where some time is no
  // clock's, its minutes and seconds are lengths of time (a race's, an album's)
  pattern: `(?=\\d)(?<=\\|${SP}?)(?:(?=${NO_CLOCK_CELL}|[^\\n]*?\\|${SP}?${NO_CLOCK_CELL})|(?<=\\|${SP}?${NO_CLOCK_CELL}[^\\n]*))(\\d{1,2}):([0-5]\\d)(?=${SP}?\\|)`,
  rewrite: ([whole, minutes, seconds]) =>
    whole && minutes && seconds
      ? durationWords(
          [
            [minutes, 'minute'],
            [seconds, 'second'],
          ],
          ' ',
        )
      : undefined,
};

const ratioRule: Rule = {
  name: 'measure',
  // "a 3:2 aspect ratio" three to two, "16:9 screen", "a 2:1 margin", "odds of 5:1", "a 30:1
  // ratio": before or after a word of ratios, or where no clock time fits; "at 3:30" stays a time.
  pattern: `${NUM_BEFORE}(\\d{1,3}):(\\d{1,3})${NUM_AFTER}(?![\\p{L}]|${SP}?(?:[ap]\\.?m|[AP]\\.?M)(?![\\p{L}]))(?:(?=${RATIO_AFTER})|${RATIO_BEFORE}|${NO_TIME_FITS})`,
  rewrite([whole, a, b]) {
    return whole && a && b ? `${cardinalWords(a)} to ${cardinalWords(b)}` : undefined;
  },
};

// --- E-mail and web addresses -----------------------------------------------------------

const ADDRESS_SYMBOLS: Record<string, string> = {
  '.': ' dot ',
  '@': ' at ',
  '-': ' dash ',
  _: ' underscore ',
  '/': ' slash ',
  ':': ' colon ',
  '?': ' question mark ',
  '=': ' equals ',
  '&': ' and ',
  '#': ' hash ',
  '+': ' plus ',
  '~': ' tilde ',
  '%': ' percent ',
};

/** Two-letter domain endings said as a word; the others are spelt ("site.io" → "site dot I O", ".co.uk" → "co dot U K"). */
const TLDS_SAID = new Set(['co', 'me']);
/** A two-letter domain ending: the last label of the host. */
const TWO_LETTER_TLD = /\.([A-Za-z]{2})(?=$|[/?#:])/u;

/** Part of an address read as it is said: symbols named, digits one by one. */
function addressPartWords(part: string): string {
  return part
    .replace(/\d+/gu, (d) => ` ${digitWords(d)} `)
    .replace(/[.@\-_/:?=&#+~%]/gu, (c) => ADDRESS_SYMBOLS[c] ?? ' ');
}

/** A word of a user name: capitals before a small word ("GDP" of "GDPbyState") or a capitalised word ("IT" of "ITSupport"), a word, capitals. */
const USER_NAME_WORD =
  /\p{Lu}{2,}(?=(?:by|of|and|for|to|in|on|at|the)(?:\p{Lu}|$|[^\p{L}]))|\p{Lu}{2,}(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+/gu;

/**
 * The user name of an e-mail address in capitals or camel case, as it is said: capitals spelt,
 * the words of camel case apart ("REIS" → "R E I S", "GDPbyState" → "G D P by State"); a user
 * name in lower case is left.
 */
function userNameWords(user: string): string {
  if (!/\p{Lu}/u.test(user)) return user;
  return user.replace(USER_NAME_WORD, (w) => ` ${/^\p{Lu}{2,}$/u.test(w) ? spellAcronym(w) : w} `);
}

/** An address read part by part: symbols named, digits one by one, "www" and a two-letter domain ending spelt. */
function addressWords(address: string): string {
  const at = address.indexOf('@');
  if (at > 0)
    return `${addressPartWords(userNameWords(address.slice(0, at)))} at ${addressWords(address.slice(at + 1))}`
      .replace(/ {2,}/gu, ' ')
      .trim();
  const scheme = /^https?:\/\//iu.exec(address)?.[0] ?? '';
  const www = /^www\./iu.test(address.slice(scheme.length)) ? 4 : 0;
  // A final slash is not said ("moonlightmusicals.com/").
  const body = address.slice(scheme.length + www).replace(/\/$/u, '');
  const host = /^[^/?#]*/u.exec(body)?.[0] ?? '';
  // A path's words in capitals or camel case apart, as a user name's ("/MarquetteWSOC").
  const path = addressPartWords(userNameWords(body.slice(host.length)));
  const tld = TWO_LETTER_TLD.exec(host);
  const hostWords =
    // A host in capitals ("MillionHearts.HHS.GOV"): its ending said as a word, its labels in capitals spelt.
    /\.(?:[A-Z]{3,4})$/u.test(host) && !tld
      ? host
          .split('.')
          .map((label, i, all) =>
            i === all.length - 1
              ? label.toLowerCase()
              : /^\p{Lu}{2,}$/u.test(label)
                ? spellAcronym(label)
                : label,
          )
          .join(' dot ')
      : tld?.[1] !== undefined && !TLDS_SAID.has(tld[1].toLowerCase())
        ? `${addressPartWords(host.slice(0, tld.index))} dot ${spellAcronym(tld[1].toUpperCase())} ${addressPartWords(host.slice(tld.index + 3))}`
        : addressPartWords(host);
  return `${start(www)}${hostWords} ${path}`.replace(/ {2,}/gu, ' ').trim();
}

/**
 * The start of an address said: "www", not its scheme ("https://www.x.com" w w w dot x dot com),
 * as readers of web addresses in running text say them (held-out sets 3, 8 and 15; NeMo's tests
 * say the scheme).
 */
function start(www: number): string {
  return www ? 'w.w.w dot ' : '';
}

const TLD = 'com|org|net|edu|gov|io|co|uk|us|de|fr|vn|info|biz|app|dev|ai|ca|au|eu|me|tv';

const emailRule: Rule = {
  name: 'email',
  // john.doe@example.com → john dot doe at example dot com
  pattern: `(?=[\\p{L}\\p{N}_+-])(?<![\\p{L}\\p{N}_.+-])[\\p{L}\\p{N}_+-]+(?:\\.[\\p{L}\\p{N}_+-]+)*@[\\p{L}\\p{N}-]+(?:\\.[\\p{L}\\p{N}-]+)+`,
  rewrite([whole]) {
    return whole ? addressWords(whole) : undefined;
  },
};

const urlRule: Rule = {
  name: 'url',
  // https://www.example.com/path, www.example.com, example.com, Facebook.com/Page, MillionHearts.HHS.GOV
  pattern: `(?=[a-zA-Z0-9-])(?<![\\p{L}\\p{N}_@./-])(?:(?:https?://|www\\.)[^\\s<>"'()]*[^\\s<>"'().,;:!?]|[A-Za-z0-9-][a-z0-9-]*(?:\\.[a-z0-9-]+)*\\.(?:${TLD})(?:/[^\\s<>"'()]*[^\\s<>"'().,;:!?])?|[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*\\.(?:${TLD.toUpperCase()})(?:/[^\\s<>"'()]*[^\\s<>"'().,;:!?])?)(?![\\p{L}\\p{N}@])`,
  rewrite([whole]) {
    return whole ? addressWords(whole) : undefined;
  },
};

/**
 * The rules, most specific first: at one position the first that matches wins (see `../rules`).
 * Addresses before numbers (their digits are read one by one), telephone numbers and dates
 * before ranges, money and percent before plain numbers, units after the number they follow.
 */
export const ENGLISH_READING_RULES: Rule[] = [
  emailRule,
  urlRule,
  telephoneRule,
  digitGroupsRule,
  interstateRule,
  telephoneMarkRule,
  atSignRule,
  seasonRule,
  paceRule,
  creditSlashRule,
  perUnitPriceRangeRule,
  toRangeRule,
  isoDateRule,
  numericDateRule,
  monthRangeRule,
  monthRowRule,
  monthDaysSlashRule,
  monthDateRule,
  apartDaySuffixRule,
  dayListRule,
  citationMarkRule,
  pluralMarkRule,
  dayRangeMonthRule,
  dayMonthRule,
  dashedDayMonthRule,
  weekdayRangeRule,
  weekdayBeforeDateRule,
  weekdayInHoursRule,
  noonRangeRule,
  fiscalYearRule,
  lifeEventRule,
  prefixedYearRule,
  decadeRule,
  tableDurationRule,
  ratioRule,
  pointClockRule,
  clockTimeRule,
  lapTimeRule,
  durationRule,
  moneyBeforeRule,
  moneyAfterRule,
  percentRule,
  feetInchesRule,
  dimensionsRule,
  measureTimesRule,
  gustRule,
  trademarkRule,
  dotNetRule,
  temperatureWordRule,
  unitLabelRule,
  inchesRule,
  footInchMarkRule,
  fractionInchRule,
  numberUnitHyphenRule,
  inchAbbreviationRule,
  ordinalRule,
  compoundOrdinalRule,
  versionRule,
  shootingRule,
  overtimeRule,
  threePartRecordRule,
  recordRule,
  scoreRule,
  pairedNumberRule,
  caliberRule,
  phoneModelRule,
  productCodeRule,
  bloodPressureRule,
  statisticRule,
  resolutionRule,
  isbnRule,
  compactDateRule,
  equivalentMeasureRule,
  temperatureScaleRule,
  scaleRatioRule,
  drawnNumbersRule,
  armRule,
  mileagePairRule,
  runwayRule,
  fractionRule,
  romanHeadingRule,
  romanRule,
  codeRomanRule,
  houseNumbersRule,
  numberRule,
  signRule,
  measureRule,
  perRule,
  letterSlashLetterRule,
  wordSlashRule,
  spacedSlashRule,
  minutesPastRule,
  perUnitRule,
  rangeRule,
  measureRangeRule,
  tildeRule,
  usStateRule,
  datelineTitleRule,
  callSignBandRule,
  partyStateRule,
  englishCompassPairRule,
  englishPossessiveAcronymRule,
  englishCompassRule,
  englishInitialsRule,
  englishAcronymRule,
].map((rule) => withLead(rule, NUM_BEFORE));
