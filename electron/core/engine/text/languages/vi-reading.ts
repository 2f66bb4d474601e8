/**
 * The Vietnamese reading rules (`LanguageRules.readingRules`): numbers and what stands around
 * them written out in Vietnamese words, so every voice (eSpeak NG and the neural voices it
 * phonemises for) says them as a Vietnamese reader does. In priority order: e-mail and web
 * addresses, dates, phone numbers, clock times and durations, Roman numerals in context, money
 * before the amount, numbers with what follows them (money, percent, units, ranges, scores,
 * ordinals), "CN" in a date, and acronyms spelt with Vietnamese letter names.
 *
 * A reading that is not sure leaves the text as written, or reads the numbers alone and keeps
 * the separators ("số 12-3", "15/2024/NĐ-CP"); no rule changes a number's value.
 */

import { romanValue, ROMAN_NUMERAL } from '../roman-numerals';
import {
  piece,
  closesAQuote,
  QUANTITY_END,
  UNICODE_FRACTIONS,
  type OutPiece,
  type Rule,
  type RuleContext,
  type RuleName,
  type RuleReading,
} from '../rule-kit';
import { creditSlashRule } from './vi-abbreviations';
import { definedAcronym } from './vi-acronym-definitions';
import { englishWordShape, spellVi, viInitialName, VI_SYLLABLE as SYLLABLE } from './vi-letters';
import {
  parseViNumber,
  sayViNumber,
  viCardinal,
  viDecimalPart,
  viDigits,
  viMonth,
  viNumberWords,
  viOrdinal,
  type ViNumber,
} from './vi-numbers';
import {
  VI_AMOUNT_SCALES,
  VI_CODE_LETTER_UNITS,
  VI_CURRENCIES,
  VI_ELECTRIC_CONTEXT,
  VI_LETTER_UNITS,
  VI_SCALE_WORDS,
  VI_UNITS,
} from './vi-units';

// --- Pattern parts ------------------------------------------------------------------------

/** The start of a number: not inside a word, a number or a code ("A-1", "QL1A"). */
const START = '(?=\\d)(?<![\\p{L}\\p{N}_.,:/])(?<![\\p{L}\\p{N}][-–])';
/** The end of a number: not followed by a digit, or by punctuation that continues one. */
const END = '(?![\\p{N}]|[.,:/]\\p{N})';
/** A space inside a written expression: ASCII, no-break or narrow no-break (the characters themselves: a shorter pattern, see rules.ts MAX_PART_LENGTH). */
const SP = '[ \u00A0\u202F]';
/** A written number: "." or a no-break space grouping thousands, "," decimals; or grouped the English way. */
const NUMBER =
  '\\d{1,3}(?:[.\u00A0\u202F]\\d{3})+(?:,\\d+)?|\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:[.,]\\d+)?';
/** What may follow a number: a currency, percent, a unit (looked up by the rule), a scale ("15k"). */
const SUFFIX =
  '(?:độ[ \u00A0]?[CF]|°[CF]?|0C|[%‰](?:/\\p{Ll}{2,6})?|[$€£¥₫₩]|US\\$|[\\p{L}µμ]{1,5}[23²³]?(?:/[ \u00A0]?[\\p{L}µμ]{1,5}[23²³]?){0,2})(?![\\p{L}\\p{N}_])';

/** The lower-cased text just before a match, for the words that decide a reading. */
function before(ctx: RuleContext, length = 24): string {
  return ctx.input.slice(Math.max(0, ctx.index - length), ctx.index).toLocaleLowerCase('vi');
}

const wordsBefore = (words: string) => new RegExp(`(?:^|[^\\p{L}])(?:${words})[ \u00A0]*$`, 'u');

const ORDINAL_BEFORE = wordsBefore('thứ|hạng');
const MONTH_BEFORE = wordsBefore('tháng');
const QUARTER_BEFORE = wordsBefore('quý');
const WEEK_BEFORE = wordsBefore('tuần');
const SCORE_THEN = /^(?:sau|trước|ngay|tại|ở|và|trong|khi|nhờ|với|để|rồi|của)$/u;
const SCORE_WORDS =
  'tỷ số|tỉ số|tỷ số tới|tỉ số tới|thắng|thua|thất bại|hòa|hoà|cách biệt|dẫn|dẫn trước|gỡ hòa|nâng tỷ số|vươn lên|lật ngược|cân bằng|san bằng';
const SCORE_BEFORE = wordsBefore(SCORE_WORDS);
/** "tỷ số" names a score outright: the pair after it is one whatever word follows ("tỷ số 2-3 cũng do…"). */
const SCORE_NAMED_BEFORE = wordsBefore('tỷ số|tỉ số');
/** Words before a pair of numbers with a dash that make it a range, even a falling one ("niên đại 3.500-3.000 năm"). */
const FROM_BEFORE = wordsBefore('từ|khoảng|chừng|trong|niên đại|cách đây');
/** Words before a number that make it and what follows a code, not a quantity ("lớp 12A", "số 12-3"). */
const CODE_BEFORE = wordsBefore(
  'số|mã|lớp|phòng|khu|tòa|toà|nhà|dãy|tầng|căn|lô|ô|ngõ|ngách|hẻm|kiệt|tổ|tuyến|biển|kí hiệu|ký hiệu',
);
/** Words ending in "số" that name a quantity, not a code's number ("chỉ số 4,7", "hệ số 1,5"). */
const QUANTITY_SO_BEFORE = wordsBefore(
  'chỉ số|hệ số|tần số|cơ số|con số|điểm số|tổng số|hằng số|tỷ số|tỉ số',
);
const isCode = (said: string) => CODE_BEFORE.test(said) && !QUANTITY_SO_BEFORE.test(said);
/** The parts of the day a time or a date follows or precedes ("sáng 29-4", "17g chiều"). */
const PARTS_OF_DAY = 'sáng|trưa|chiều|tối|đêm|khuya';
const WEEKDAY = '(?:thứ[ \u00A0]+(?:[2-7]|hai|ba|tư|năm|sáu|bảy)|chủ nhật|cn|t[2-7])[ \u00A0]*,?';
/** Words after which "30/10" is a date. */
const DATE_BEFORE = new RegExp(
  `(?:(?:^|[^\\p{L}])(?:ngày|hôm|${PARTS_OF_DAY}|mùng|mồng|từ|đến|tới|(?:đến|tới)[ \u00A0]+hết|trước|sau|vào|hạn|lễ|dịp|đầu|cuối|giữa|quốc khánh|giải phóng|nghỉ|tết)|${WEEKDAY})[ \u00A0]*$`,
  'u',
);
/** A lunar date's mark after a day and a month ("12-8 âm lịch", "15/8 ÂL"). */
const LUNAR_AFTER = /^[ \u00A0]*(?:âm lịch|ÂL)(?![\p{L}])/u;
/**
 * A pair alone in parentheses, as news gives the date of "sáng nay (6/10)" or "(30-4)": a date
 * unless a word before it makes it a ratio or a score ("tỷ lệ (3/4)", "thắng (2-1)").
 */
function aloneInParentheses(said: string, ctx: RuleContext): boolean {
  return (
    said.endsWith('(') &&
    ctx.input.charAt(ctx.end) === ')' &&
    !NOT_A_DATE_BEFORE_PARENTHESES.test(said.slice(0, -1))
  );
}
const NOT_A_DATE_BEFORE_PARENTHESES = wordsBefore(
  'tỷ lệ|tỉ lệ|chiếm|đạt|điểm|phiếu|bằng|là|khoảng|tỷ số|tỉ số|thắng|thua|hòa|hoà|kết quả',
);

/** Words after "a/b" that make it a count out of a total ("9/10 điểm"). */
const COUNTED_AFTER =
  /^[ \u00A0]+(?:điểm|câu|người|phiếu|hộ|xã|phường|tỉnh|quận|huyện|trận|bàn|lần|thành viên|học sinh|sinh viên|thí sinh|trường|bệnh nhân|ca|mẫu|đơn vị|địa phương|doanh nghiệp|dự án|trẻ|đội|nước|quốc gia)(?![\p{L}])/u;
/** Words before a date or time part written with its zero ("ngày 05", "lúc 07"). */
const TIME_PART_BEFORE = wordsBefore('ngày|mùng|mồng|năm|lúc|giờ|phút|giây');
/**
 * "số" before a number ("Tuyến số 01"), or a bus route's word ("Tuyến 08" tuyến tám): its written
 * zero is not said.
 */
const NUMBER_WORD = '[Ss]ố|[Tt]uyến';
const NUMBER_WORD_BEFORE = new RegExp(`(?:^|[^\\p{L}])(?:${NUMBER_WORD})[ \u00A0]+$`, 'u');
/**
 * Words before a number whose written zero is not said: "số", "tuyến", a bound ("Đến 05", "Trên 05
 * đến 10").
 */
const ZERO_UNSAID_BEFORE = new RegExp(
  `(?:^|[^\\p{L}])(?:${NUMBER_WORD}|[Đđ]ến|[Tt]rên|[Dd]ưới|[Tt]ừ|[Tt]ới)[ \u00A0]+$`,
  'u',
);

/** Each digit run of a match read as a number, the rest kept as written: what an unsure reading does. */
function numbersOnly(whole: string): RuleReading {
  const pieces: OutPiece[] = [];
  for (const m of whole.matchAll(/\d+/g))
    pieces.push(piece(viCardinal(m[0]), m.index, m.index + m[0].length));
  return { out: keepGaps(whole, pieces), name: 'cardinal' };
}

/** Fills the parts of a match between pieces with the text as written, so nothing is dropped. */
function keepGaps(whole: string, pieces: OutPiece[]): OutPiece[] {
  const out: OutPiece[] = [];
  let at = 0;
  for (const p of pieces) {
    if (p.from > at) out.push(piece(whole.slice(at, p.from), at, p.from));
    out.push(p);
    at = p.to;
  }
  if (at < whole.length) out.push(piece(whole.slice(at), at, whole.length));
  return out;
}

/** Offsets of the groups of a match inside it, searching left to right. */
function spans(whole: string, parts: (string | undefined)[]): [number, number][] {
  const at: [number, number][] = [];
  let from = 0;
  for (const p of parts) {
    if (p === undefined) {
      at.push([from, from]);
      continue;
    }
    const i = whole.indexOf(p, from);
    at.push([i, i + p.length]);
    from = i + p.length;
  }
  return at;
}

const year = (y: string) => viCardinal(String(Number(y)));

// --- Dates --------------------------------------------------------------------------------

function validDay(day: number, month: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

/**
 * A date's pieces, in the order said: "mười lăm tháng một [năm …]", each tied to its part as
 * written. "ngày" is not added: a reader says it only where it is written ("Sáng 13/12").
 */
function datePieces(
  day: [string, [number, number]],
  month: [string, [number, number]],
  yearPart: [string, [number, number]] | undefined,
): OutPiece[] {
  const pieces = [
    piece(viCardinal(String(Number(day[0]))), ...day[1]),
    piece(` tháng ${viMonth(Number(month[0]))}`, ...month[1]),
  ];
  if (yearPart) pieces.push(piece(` năm ${year(yearPart[0])}`, ...yearPart[1]));
  return pieces;
}

/**
 * A whole date, with one separator throughout: year first ("2024-01-15", "2024/01/15") or day
 * first ("15/01/2024", "15-01-2024", "15.01.2024"); said day first either way.
 */
function wholeDateRule(yearFirst: boolean): Rule {
  return {
    name: 'date',
    pattern: yearFirst
      ? `${START}(\\d{4})([-/.])(\\d{1,2})[-/.](\\d{1,2})${END}`
      : // "17 /11/2020": a space slipped in before the first slash of a whole date; "Ngày cập nhật
        // :01/10/2025": a colon glued to it.
        `(?:${START}|(?<=${SP}:)(?=\\d))(\\d{1,2})(?:${SP}(?=/))?([-/.])(\\d{1,2})[-/.](\\d{4})${END}`,
    rewrite([whole, a, sep, mo, c], ctx) {
      if (!whole || !a || !sep || !mo || !c) return undefined;
      if (whole[whole.indexOf(sep, a.length) + 1 + mo.length] !== sep) return undefined;
      const [d, y] = yearFirst ? [c, a] : [a, c];
      if (!validDay(Number(d), Number(mo))) return undefined;
      const [aAt, , mAt, cAt] = spans(whole, [a, sep, mo, c]) as [number, number][];
      const [dAt, yAt] = (yearFirst ? [cAt, aAt] : [aAt, cAt]) as [number, number][];
      const pieces = datePieces(
        [d, dAt as [number, number]],
        [mo, mAt as [number, number]],
        [y, yAt as [number, number]],
      );
      // "25-03-1975" heading its line, "Từ 1-7-2024:": a hyphened date said as a date, "ngày" first.
      const [day] = pieces;
      // "ngày" goes with the day's piece, so its word maps to the day as written.
      if (day && !yearFirst && sep === '-' && hyphenDateWithDay(ctx))
        pieces[0] = piece(`ngày ${day.text}`, day.from, day.to);
      return pieces;
    },
  };
}

/** After "từ", "đến", "tới" a hyphened date is said with "ngày" ("Từ 1-7-2024: …"). */
const HYPHEN_DATE_LINK_BEFORE = wordsBefore('từ|đến|tới');
/** A hyphened date heading its line, alone or before a colon, a full stop, a comma or a dash ("25-03-1975: …"). */
function hyphenDateWithDay(ctx: RuleContext): boolean {
  // "từ 2-2 đến 3-3-2026": the end of a span of dates, said as its start was, without "ngày".
  if (/\d{1,2}-\d{1,2}[ \u00A0]+(?:đến|tới)[ \u00A0]*$/u.test(before(ctx, 16))) return false;
  if (HYPHEN_DATE_LINK_BEFORE.test(before(ctx, 8))) return true;
  const lineStart = /(?:^|\n)[ \t\u00A0]*$/u.test(ctx.input.slice(Math.max(0, ctx.index - 8), ctx.index));
  return lineStart && /^[ \u00A0]*(?:[:.,–-]|\n|$)/u.test(ctx.input.slice(ctx.end, ctx.end + 4));
}

const dayFirstDateRule = wholeDateRule(false);
/** A day-first date with one separator throughout (no back-references: the rules share one regex). */
const WHOLE_DATE = ['/', '-', '\\.'].map((sep) => `\\d{1,2}${sep}\\d{1,2}${sep}\\d{4}`).join('|');

const wholeDateRangeRule: Rule = {
  name: 'date',
  // "(10/10/1954-10/10/2024)", "01.01.2024 – 31.12.2024": two whole dates, "đến" between.
  pattern: `${START}(${WHOLE_DATE})${SP}?[-–]${SP}?(${WHOLE_DATE})${END}`,
  rewrite([whole, first, second], ctx) {
    if (!whole || !first || !second) return undefined;
    const date = (text: string) => {
      const [, d, sep, mo, y] = /^(\d{1,2})([-/.])(\d{1,2})[-/.](\d{4})$/u.exec(text) ?? [];
      const out = dayFirstDateRule.rewrite([text, d, sep, mo, y], ctx);
      return Array.isArray(out) ? out : undefined;
    };
    const a = date(first);
    const b = date(second);
    // "32/10/2024-1/11/2024": not two dates, left as written.
    if (!a || !b) return undefined;
    const at = whole.length - second.length;
    return [...a, piece(' đến ', first.length, at), ...b.map((p) => piece(p.text, p.from + at, p.to + at))];
  },
};

const dayRangeRule: Rule = {
  name: 'date',
  // 15-20/10, 15 – 20/10/2024: days of one month.
  pattern: `${START}(\\d{1,2})${SP}?[-–]${SP}?(\\d{1,2})/(\\d{1,2})(?:/(\\d{4}))?${END}`,
  rewrite([whole, d1, d2, mo, y]) {
    if (!whole || !d1 || !d2 || !mo) return undefined;
    if (!validDay(Number(d1), Number(mo)) || !validDay(Number(d2), Number(mo)) || Number(d1) >= Number(d2))
      return undefined;
    const [d1At, d2At, mAt, yAt] = spans(whole, [d1, d2, mo, y]) as [number, number][];
    const pieces = [
      piece(viCardinal(String(Number(d1))), ...(d1At as [number, number])),
      piece(' đến ', (d1At as [number, number])[1], (d2At as [number, number])[0]),
      piece(viCardinal(String(Number(d2))), ...(d2At as [number, number])),
      piece(` tháng ${viMonth(Number(mo))}`, (d2At as [number, number])[1], (mAt as [number, number])[1]),
    ];
    if (y) pieces.push(piece(` năm ${year(y)}`, (mAt as [number, number])[1], (yAt as [number, number])[1]));
    return pieces;
  },
};

/**
 * Words after which "25.5" is a day and a month ("Ngày 25.5", "sáng 3.9", "lễ 30.4 và 1.5"), as
 * some papers write dates; the last of days listed after "ngày" ("các ngày 8, 9.10": the month
 * written once, after the last).
 */
const DOT_DATE_BEFORE = `(?<=(?:^|[^\\p{L}])(?:[Nn]gày(?:${SP}+\\d{1,2},){1,4}|[Nn]gày|[Hh]ôm|[Ss]áng|[Tt]rưa|[Cc]hiều|[Tt]ối|[Đđ]êm|[Kk]huya|[Mm]ùng|[Mm]ồng|[Hh]ôm${SP}+(?:nay|qua)|[Nn]gày${SP}+mai|[Tt]hứ${SP}+(?:[2-7]|[Hh]ai|[Bb]a|[Tt]ư|[Nn]ăm|[Ss]áu|[Bb]ảy)|[Cc]hủ${SP}+[Nn]hật|CN|[Ll]ễ(?:${SP}+\\d{1,2}\\.\\d{1,2}${SP}+(?:và|hoặc))?),?${SP}+)`;

/** A unit or a counted noun after a dotted pair ("2.5 kg", "5.3 inch", "1.5 lần"): a decimal, not a date. */
const UNIT_AHEAD = `(?!${SP}*(?:${[
  ...VI_UNITS.keys(),
  'lần',
  'điểm',
  'tuổi',
  'triệu',
  'tỷ',
  'tỉ',
  'nghìn',
  'ngàn',
  'lít',
  'mét',
  'tấn',
  'inch',
  '%',
]
  .sort((a, b) => b.length - a.length)
  .map((k) => k.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
  .join('|')})(?![\\p{L}]))`;

/**
 * "từ" before a dotted pair, or a day range, that a comma, a semicolon or a parenthesis ends:
 * a date ("Khởi chiếu từ 28.5, phim…", "từ 9-11.10, thời tiết…", "Từ 25.1 (20 tháng chạp)").
 * Before a word, or after a verb of change, it may be a decimal ("từ 2.5 đến 3.1 điểm", "tăng từ
 * 2.5,"), and stays one.
 */
const FROM_DOT_DATE = `(?<=(?:^|[^\\p{L}])[Tt]ừ${SP}+)(?<!(?:tăng|giảm|lên|xuống|nâng|hạ)${SP}+từ${SP}+)(?=(?:\\d{1,2}${SP}?[-–]${SP}?)?\\d{1,2}\\.\\d{1,2}${SP}*[,;(])`;

const dotDayRangeRule: Rule = {
  name: 'date',
  // "Từ ngày 30 - 31.5", "ngày 2-4.6", "từ 9-11.10,": days of one month, the month written after a dot.
  pattern: `(?=\\d)(?:${DOT_DATE_BEFORE}|${FROM_DOT_DATE})${START}(\\d{1,2})${SP}?[-–]${SP}?(\\d{1,2})\\.(\\d{1,2})${END}${UNIT_AHEAD}`,
  rewrite([whole, d1, d2, mo], ctx) {
    if (!whole || !d1 || !d2 || !mo) return undefined;
    return dayRangeRule.rewrite([whole.replace(/\.(?=\d{1,2}$)/u, '/'), d1, d2, mo], ctx);
  },
};

/**
 * A day word before a dotted pair in parentheses ("Hôm qua (2.9)", "sáng nay (6.10)", "8h (6.10)",
 * "thứ ba tuần sau (22.1)", "tuần tới (9.2)", "kỳ nghỉ lễ (30.4)").
 */
const DOT_DATE_IN_PARENTHESES = `(?<=(?:(?:^|[^\\p{L}])(?:[Nn]ay|[Qq]ua|[Mm]ai|[Ss]ớm|[Ll]ễ|[Tt]uần${SP}+(?:sau|tới|này)|${PARTS_OF_DAY.split(
  '|',
)
  .map((w) => `[${w.charAt(0).toUpperCase()}${w.charAt(0)}]${w.slice(1)}`)
  .join('|')})|\\d[hg])${SP}*\\()`;

const dotDateRule: Rule = {
  name: 'date',
  // "hôm nay 5.3 inch", "ngày 2.5 kg": a decimal before its unit is left to the quantity rule.
  pattern: `(?=\\d)(?:${DOT_DATE_BEFORE}|${DOT_DATE_IN_PARENTHESES}(?=\\d{1,2}\\.\\d{1,2}\\))|${FROM_DOT_DATE})${START}(\\d{1,2})\\.(\\d{1,2})${END}${UNIT_AHEAD}`,
  rewrite([whole, d, mo]) {
    if (!whole || !d || !mo) return undefined;
    // Not a day and a month: the number as written ("ngày 2.15" is not a date).
    if (!validDay(Number(d), Number(mo))) return sayViNumber(whole);
    return datePieces([d, [0, d.length]], [mo, [d.length + 1, whole.length]], undefined);
  },
};

const monthDotYearRule: Rule = {
  name: 'date',
  // "tháng 6.2024": a month and its year written with a dot, as some papers write them.
  pattern: `(?=\\d)(?<=(?:^|[^\\p{L}])(?:[Tt]háng|THÁNG)${SP}+)${START}(\\d{1,2})\\.(\\d{4})${END}`,
  rewrite([whole, mo, y]) {
    if (!whole || !mo || !y) return undefined;
    if (Number(mo) < 1 || Number(mo) > 12) return sayViNumber(whole);
    return [piece(viMonth(Number(mo)), 0, mo.length), piece(` năm ${year(y)}`, mo.length, whole.length)];
  },
};

const crossMonthRule: Rule = {
  name: 'date',
  // 28/06-04/07/2025, 28/6 – 4/7: days of two months; the year, when written, said once at the end.
  pattern: `${START}(\\d{1,2})/(\\d{1,2})${SP}?[-–]${SP}?(\\d{1,2})/(\\d{1,2})(?:/(\\d{4}))?${END}`,
  rewrite([whole, d1, m1, d2, m2, y], ctx) {
    if (!whole || !d1 || !m1 || !d2 || !m2) return undefined;
    const firstEnd = d1.length + 1 + m1.length;
    const said = before(ctx);
    const sure =
      y !== undefined ||
      [d1, m1, d2, m2].some((p) => /^0\d/.test(p)) ||
      DATE_BEFORE.test(said) ||
      WEEK_BEFORE.test(said) ||
      // "(30/4-4/5)": a few days over a month's end, not two fractions.
      (Number(m2) === (Number(m1) % 12) + 1 && Number(d2) < Number(d1));
    if (!sure || !validDay(Number(d1), Number(m1)) || !validDay(Number(d2), Number(m2))) {
      // Not two dates: the first "a/b" is read alone, the rest by the rules after it.
      const first = slashRule.rewrite([whole.slice(0, firstEnd), d1, m1], {
        ...ctx,
        end: ctx.index + firstEnd,
      });
      if (first === undefined) return undefined;
      return typeof first === 'object' && !Array.isArray(first)
        ? { ...first, end: firstEnd }
        : { out: first, end: firstEnd };
    }
    const [d1At, , d2At, m2At, yAt] = spans(whole, [d1, m1, d2, m2, y]) as [number, number][];
    // "lễ 30/4-1/5": the two holidays named together, not the days from one to the other.
    const holidays = Number(d1) === 30 && Number(m1) === 4 && Number(d2) === 1 && Number(m2) === 5;
    const pieces = [
      ...datePieces([d1, d1At as [number, number]], [m1, [firstEnd - m1.length, firstEnd]], undefined),
      piece(holidays && !FROM_BEFORE.test(said) ? ', ' : ' đến ', firstEnd, (d2At as [number, number])[0]),
      ...datePieces(
        [d2, d2At as [number, number]],
        [m2, [(d2At as [number, number])[1], (m2At as [number, number])[1]]],
        y ? [y, [(m2At as [number, number])[1], (yAt as [number, number])[1]]] : undefined,
      ),
    ];
    return pieces;
  },
};

/** A blood pressure: "mmHg" after it, or "huyết áp" a few words before ("huyết áp ổn định (130/85)"). */
const PRESSURE = `(?=\\d{2,3}/\\d{2,3}${SP}?mmHg(?!\\p{L}))|(?<=[Hh]uyết${SP}+áp[^.;!?\\n\\d]{0,30})`;

const bloodPressureRule: Rule = {
  name: 'measure',
  // "huyết áp 190/100 mmHg", "(130/85 mmHg)": the upper and lower pressures with "trên" between
  // (not a fraction's "phần"), the unit said once at the end.
  pattern: `${START}(?:${PRESSURE})(\\d{2,3})/(\\d{2,3})(?:(${SP}?)mmHg(?!\\p{L}))?${END}`,
  rewrite([whole, upper, lower, gap], ctx) {
    if (!whole || !upper || !lower) return undefined;
    const lowerAt = upper.length + 1;
    const pieces = [
      piece(viCardinal(upper), 0, upper.length),
      piece(' trên ', upper.length, lowerAt),
      piece(viCardinal(lower), lowerAt, lowerAt + lower.length),
    ];
    if (gap !== undefined)
      pieces.push(
        piece(
          ` ${ctx.options.units?.get('mmHg')?.one ?? VI_UNITS.get('mmHg') ?? 'mmHg'}`,
          lowerAt + lower.length,
          whole.length,
        ),
      );
    return pieces;
  },
};

const decimalOutOfRule: Rule = {
  name: 'fraction',
  // "86,75/100", "8,5/10 điểm": a mark with decimals out of a round total, "trên" (no date or
  // fraction has a decimal comma).
  pattern: `${START}(\\d{1,3},\\d{1,2})/(10|20|30|40|50|100)${END}`,
  rewrite([whole, mark, total]) {
    const value = mark ? parseViNumber(mark) : undefined;
    return whole && total && value ? `${viNumberWords(value)} trên ${viCardinal(total)}` : undefined;
  },
};

const slashRule: Rule = {
  name: 'date',
  // 30/10 (a date or a fraction, by context), 12/2024 (a month), 3/4 (a fraction).
  pattern: `${START}(\\d{1,4})/(\\d{1,4})${END}`,
  rewrite([whole, a, b], ctx) {
    if (!whole || !a || !b) return undefined;
    const x = Number(a);
    const y = Number(b);
    const bAt = a.length + 1;
    const said = before(ctx);
    const next = ctx.input.slice(ctx.end, ctx.end + 2);
    // "số 15/2024/NĐ-CP": a document's number, read as its numbers.
    if (isCode(said) || /^\/\p{L}/u.test(next)) return numbersOnly(whole);
    // "tuần 43/2022": a week of the year.
    if (b.length === 4 && a.length <= 2 && WEEK_BEFORE.test(said) && x >= 1 && x <= 53)
      return {
        out: [piece(viCardinal(String(x)), 0, a.length), piece(` năm ${year(b)}`, a.length, whole.length)],
        name: 'date',
      };
    if (b.length === 4 && a.length <= 2 && b !== '1000') {
      const inQuarter = QUARTER_BEFORE.test(said) && x >= 1 && x <= 4;
      if (!inQuarter && (x < 1 || x > 12)) return numbersOnly(whole);
      const head = MONTH_BEFORE.test(said) || inQuarter ? '' : 'tháng ';
      return [
        piece(`${head}${inQuarter ? viCardinal(String(x)) : viMonth(x)}`, 0, a.length),
        piece(` năm ${year(b)}`, a.length, whole.length),
      ];
    }
    // "9/10 điểm", "15/20 câu", "8/10 học sinh": a count out of a total, read "trên" (a half, a
    // third or a quarter of them stays a fraction: "1/2 số người", "1/3 học sinh").
    if (COUNTED_AFTER.test(ctx.input.slice(ctx.end, ctx.end + 14)) && !/^0/.test(b) && y >= 5)
      return outOf(a, b);
    if (a.length > 2 || b.length > 2)
      return a.length <= 3 && (b.length <= 3 || b === '1000') && !/^0/.test(b)
        ? ratio(a, b, ctx)
        : numbersOnly(whole);
    const isDate = validDay(x, y);
    if (
      isDate &&
      (DATE_BEFORE.test(said) ||
        dateJustBefore(ctx) ||
        aloneInParentheses(said, ctx) ||
        LUNAR_AFTER.test(ctx.input.slice(ctx.end, ctx.end + 10)))
    ) {
      return datePieces([a, [0, a.length]], [b, [bAt, whole.length]], undefined);
    }
    // "24/7": all day, every day.
    if (x === 24 && y === 7 && a.length === 2)
      return {
        out: [piece(viCardinal(a), 0, 2), piece(` trên ${viCardinal(b)}`, 2, whole.length)],
        name: 'cardinal',
      };
    const leadingZero = /^0/.test(a) || /^0/.test(b);
    if (!leadingZero && x < y && y <= 10) return fraction(a, b);
    if (isDate) return datePieces([a, [0, a.length]], [b, [bAt, whole.length]], undefined);
    return leadingZero ? numbersOnly(whole) : ratio(a, b, ctx);
  },
};

/**
 * A date just before, linked by "và", "hoặc" or a comma ("các ngày 31/8 và 1/9", "ngày 2/9, 3/9"):
 * the second "a/b" is a date too. The first counts as a date when it cannot be a fraction (its day
 * is not below its month, or its month is past 10) or stands after a date word.
 */
const LINKED_DATE_BEFORE =
  /(\d{1,2})\/(\d{1,2})(?:\/\d{4})?[ \u00A0]*(?:,|[ \u00A0](?:và|hoặc|hay|đến|tới))[ \u00A0]*$/u;
function dateJustBefore(ctx: RuleContext): boolean {
  return linkedDateEndingAt(ctx.input, ctx.index, 4);
}
/** Whether a date linked to what follows ends at `index`, looking back over at most `depth` dates of a list. */
function linkedDateEndingAt(input: string, index: number, depth: number): boolean {
  const head = input.slice(Math.max(0, index - 48), index);
  const m = LINKED_DATE_BEFORE.exec(head);
  if (!m?.[1] || !m[2]) return false;
  const d = Number(m[1]);
  const mo = Number(m[2]);
  if (!validDay(d, mo)) return false;
  if (d >= mo || mo > 10 || DATE_BEFORE.test(head.slice(0, m.index).toLocaleLowerCase('vi'))) return true;
  return depth > 1 && linkedDateEndingAt(input, index - head.length + m.index, depth - 1);
}

/** Words after "a/b" that make it a part of a whole, read "phần" ("1/4 cả nước", "2/3 dân số"). */
const PART_AFTER =
  /^[ \u00A0]+(?:cả|toàn|dân số|diện tích|số|tổng|lượng|khối lượng|thời gian|giá)(?![\p{L}])/u;

/** "12/22 quận": a count out of a total, read "trên". */
function outOf(a: string, b: string): RuleReading {
  return {
    out: [
      piece(viCardinal(a), 0, a.length),
      piece(` trên ${viCardinal(b)}`, a.length, a.length + 1 + b.length),
    ],
    name: 'fraction',
  };
}

/**
 * "a/b" that is not a date, read as a reader says it: a true fraction ("phần") when the
 * denominator is at most 10 or a power of ten ("3/4", "1/10", "3/100"), when the numerator is the
 * larger ("45/13"), or before a whole ("1/4 cả nước", "2/3 dân số"); otherwise a count out of a
 * total ("12/22", "132/200" → "trên").
 */
function ratio(a: string, b: string, ctx: RuleContext): RuleReading {
  const x = Number(a);
  const y = Number(b);
  const part = y <= 10 || /^10+$/.test(b) || x > y || PART_AFTER.test(ctx.input.slice(ctx.end, ctx.end + 14));
  return part ? fraction(a, b) : outOf(a, b);
}

/** The denominator of a fraction said: "phần tư" for a quarter, as said, else its number. */
const denominatorWords = (b: string) => (Number(b) === 4 ? 'tư' : viCardinal(b));

/** "3/4" → ba phần tư. */
function fraction(a: string, b: string): RuleReading {
  const denominator = denominatorWords(b);
  return {
    out: [
      piece(viCardinal(a), 0, a.length),
      piece(` phần ${denominator}`, a.length, a.length + 1 + b.length),
    ],
    name: 'fraction',
  };
}

const unicodeFractionRule: Rule = {
  name: 'fraction',
  // "½ quả", "1½ chén": a fraction written as one character ("một phần hai"; after a whole number "và").
  pattern: `(?=[\\d${Object.keys(UNICODE_FRACTIONS).join('')}])(?<![\\p{L}\\p{N}_.,:/])(?:(\\d{1,3})${SP}?)?([${Object.keys(UNICODE_FRACTIONS).join('')}])`,
  rewrite([whole, wholeNumber, sign]) {
    const [n, d] = (sign && UNICODE_FRACTIONS[sign]) || [];
    if (!whole || !n || !d) return undefined;
    const words = `${viCardinal(n)} phần ${denominatorWords(d)}`;
    return wholeNumber ? `${viCardinal(wholeNumber)} và ${words}` : words;
  },
};

/** "24/24h": all day long, read "hai mươi tư trên hai mươi tư giờ". */
const allDayRule: Rule = {
  name: 'cardinal',
  pattern: `${START}24/24h(?![\\p{L}\\p{N}_])`,
  rewrite: () => [piece('hai mươi tư', 0, 2), piece(' trên hai mươi tư giờ', 2, 6)],
};

/** "Ngã 4 Bốn Xã", "gần ngã 4": a crossroads of four ways is "ngã tư" (as "thứ 4" is "thứ tư"). */
const crossroadsRule: Rule = {
  name: 'cardinal',
  pattern: `${START}(?<=(?:^|[^\\p{L}])(?:[Nn]gã|NGÃ)${SP}+)4(?![\\p{L}\\p{N}_]|[.,]\\d)`,
  rewrite: () => 'tư',
};

/** "-3/4": a negative fraction, âm ba phần tư. */
const negativeFractionRule: Rule = {
  name: 'fraction',
  pattern: `(?=[-−]\\d)(?<![\\p{L}\\p{N}_.,:/)\\]-])[-−](\\d{1,3})/([1-9]\\d{0,2})${END}`,
  rewrite([whole, a, b]) {
    if (!whole || !a || !b) return undefined;
    const { out } = fraction(a, b);
    return [
      piece('âm ', 0, 1),
      ...(out as OutPiece[]).map((p) => ({ ...p, from: p.from + 1, to: p.to + 1 })),
    ];
  },
};

/** "Km 27", "km 1+200", "km số 4": a road's kilometre marker, the unit before the number. */
const kilometreMarkerRule: Rule = {
  name: 'measure',
  pattern: `(?=[Kk])(?<![\\p{L}\\p{N}_])[Kk]m(?:${SP}?|${SP}+số${SP}+)(\\d{1,4})(?:\\+(\\d{1,3}))?(?![\\p{L}\\p{N}_]|[.,]\\p{N})`,
  rewrite([whole, km, m], ctx) {
    if (!whole || !km) return undefined;
    // "5 km 27": the unit of a number before it.
    if (/\d[ \u00A0]*$/u.test(ctx.input.slice(Math.max(0, ctx.index - 4), ctx.index))) return undefined;
    const kmAt = whole.indexOf(km, 2);
    const so = /số/u.test(whole) ? 'số ' : '';
    const pieces = [piece(`ki lô mét ${so}${viCardinal(km)}`, 0, kmAt + km.length)];
    if (m) pieces.push(piece(` cộng ${viCardinal(m)}`, kmAt + km.length, whole.length));
    return pieces;
  },
};

// --- Phone numbers ------------------------------------------------------------------------

const phoneRule: Rule = {
  name: 'telephone',
  // 0912 345 678, 0912.345.678, 093-655-5449, +84 912 345 678, (028) 3823 4567, 1900 1234, 0912345678,
  // (0292) 3832663, +84 (0) 962 960 689 (the trunk's zero in brackets said too)
  pattern: `(?=[+(\\d])(?<![\\p{L}\\p{N}_.,+/-])(?:(?:\\+\\d{2,3}[ .\u00A0-]?(?:\\(0\\)${SP}?)?|\\(0\\d{1,3}\\)${SP}?|0)\\d{1,4}(?:[ .\u00A0-]\\d{2,4}){1,3}|\\(0\\d{2,3}\\)${SP}?\\d{7,8}|0\\d{9,10}|1[89]00[ .\u00A0]?\\d{3,4}(?:[ .]\\d{3})?)(?![\\p{N}]|[.,-]\\p{N})`,
  rewrite([whole], ctx) {
    if (!whole) return undefined;
    const digits = whole.replace(/\D/g, '');
    const international = whole.startsWith('+');
    if (digits.length < (international ? 9 : 8) || digits.length > 13) return undefined;
    if (/^1[89]00/.test(whole) && /năm[ \u00A0]*$/u.test(before(ctx))) return undefined;
    const pieces: OutPiece[] = [];
    const groups = /^0\d{9,10}$/.test(whole)
      ? [
          [0, 4],
          [4, 7],
          [7, whole.length],
        ]
      : [...whole.matchAll(/\+?\d+/g)].map((m) => [m.index, m.index + m[0].length]);
    for (const [from, to] of groups as [number, number][]) {
      const text = whole.slice(from, to);
      const spoken = `${text.startsWith('+') ? 'cộng ' : ''}${viDigits(text)}`;
      // Each group stands for its digits as written (the first also for a "(" before it).
      pieces.push(pieces.length ? piece(`, ${spoken}`, from, to) : piece(spoken, 0, to));
    }
    return pieces;
  },
};

// --- Clock times and durations ------------------------------------------------------------

/** An hour written with "g" (southern news style), 0–24. */
const G_HOUR = '(?:[01]?\\d|2[0-4])g';
/** Words of a time of day after a "g" hour ("9g sáng", "17g ngày 5-3", "19g hôm nay"). */
const DAY_PART = `(?:${PARTS_OF_DAY}|hôm|ngày${SP}+(?:\\d|mai|hôm))(?!\\p{L})`;
/** Words before a "g" hour that make it one ("lúc 17g", "sáng 9g"). */
const G_BEFORE = '(?:[Ll]úc|[Ss]áng|[Tt]rưa|[Cc]hiều|[Tt]ối|[Đđ]êm|[Kk]huya)';
/** Not followed by a word other than these: "từ 7g đến 11g các ngày", not "từ 10g đến 20g đường". */
const G_THEN = `(?!${SP}+(?!(?:${PARTS_OF_DAY}|ngày|hôm|hằng|hàng|mỗi|các|tại|ở|trong|cùng|và)(?!\\p{L}))\\p{Ll})`;
/**
 * Where a bare "17g" is a time, not grams ("75g glucose", "500g thịt"): before a time of day
 * ("9g sáng"), after "lúc" or a time of day ("lúc 17g"), in a range of two ("16g-20g30"), or in
 * "từ 7g đến 11g" not followed by a thing's name, or after từ / đến / trước / vào where the
 * sentence or clause ends ("từ 17g.").
 */
const G_TIME = [
  `(?=${SP}?[-–]${SP}?${G_HOUR}|${SP}+${DAY_PART})`,
  `(?<=(?:^|[^\\p{L}])${G_BEFORE}${SP}+\\d{1,2}g)`,
  `(?<=(?:^|[^\\p{L}])(?:[Tt]ừ|[Đđ]ến|[Tt]ới|[Tt]rước|[Vv]ào)${SP}+\\d{1,2}g)(?=${SP}*(?:[.,;:)!?]|$))`,
  `(?<=(?<![\\p{L}\\p{N}])\\d{1,2}g(?:\\d{2})?${SP}?[-–]${SP}?\\d{1,2}g)`,
  `(?<=(?:^|[^\\p{L}])[Tt]ừ${SP}+\\d{1,2}g)(?=${SP}+(?:đến|tới)${SP}+${G_HOUR}(?:\\d{2})?(?![\\p{L}\\p{N}])${G_THEN})`,
  `(?<=(?:^|[^\\p{L}])[Tt]ừ${SP}+\\d{1,2}g(?:\\d{2})?${SP}+(?:đến|tới)${SP}+\\d{1,2}g)${G_THEN}`,
].join('|');
/**
 * 14h30, 14h30', 8h, 2h30p, 14g30, 17g where a time is meant (`G_TIME`; else "50g" is grams); a
 * timetable's "6h 30" with a space, where a range goes on to another time ("6h 30 – 7h00").
 */
const HOUR = `(?:\\d{1,2}h${SP}[0-5]\\d(?=${SP}?[-–]${SP}?\\d{1,2}[hg:])|\\d{1,2}h|${G_HOUR}(?=\\d{2})|${G_HOUR}(?:${G_TIME}))(?:\\d{2}(?:['′]|ph?(?!\\p{L}))?)?(?![\\p{L}\\p{N}_])`;
const HOUR_PARTS = /^(\d{1,2})[hg](?:[ \u00A0]?(\d{2})(['′]|ph?)?)?$/u;
/** 9:15, 15:45, 7:00, 1:30:15 */
/** A clock time, maybe with seconds and "AM"/"PM" after it ("10:04 AM", "9:30PM"). */
const CLOCK = `(?:[01]?\\d|2[0-4]):[0-5]\\d(?::[0-5]\\d)?${END}(?:${SP}?(?:[AaPp][Mm])(?![\\p{L}\\p{N}_]))?`;
const CLOCK_PARTS = /^(\d{1,2}):(\d{2})(?::(\d{2}))?(?:[ \u00A0\u202F]?([AaPp])[Mm])?$/u;

/**
 * The part of the day of a 12-hour clock's hour: "10:04 AM" sáng, "3 PM" chiều, "9:30 PM" tối;
 * a 24-hour clock's hour with PM as its 12-hour one ("16:00 PM" chiều).
 */
function partOfDay(hour: number, pm: boolean): string {
  if (!pm) return hour === 12 ? 'đêm' : 'sáng';
  if (hour === 12) return 'trưa';
  const h = hour > 12 ? hour - 12 : hour;
  if (h <= 5) return 'chiều';
  return h <= 10 ? 'tối' : 'đêm';
}

const say = (digits: string) => viCardinal(String(Number(digits)));

/** "14h30" → mười bốn giờ ba mươi phút (as news readers say it; also 14h30', 2h30p); undefined past 59 minutes. */
function hourPieces(text: string, at: number): OutPiece[] | undefined {
  const [, h = '', min] = HOUR_PARTS.exec(text) ?? [];
  if (!h || (min !== undefined && Number(min) > 59)) return undefined;
  const hEnd = at + h.length + 1;
  const pieces = [piece(`${say(h)} giờ`, at, hEnd)];
  if (min !== undefined && Number(min) > 0) pieces.push(piece(` ${say(min)} phút`, hEnd, at + text.length));
  else if (hEnd < at + text.length) pieces.push(piece('', hEnd, at + text.length));
  return pieces;
}

/** "9:15" → chín giờ mười lăm phút; "7:00" → bảy giờ. */
function clockPieces(text: string, at: number): OutPiece[] | undefined {
  const [, h = '', min = '', sec, half] = CLOCK_PARTS.exec(text) ?? [];
  if (!h || !min) return undefined;
  const hEnd = at + h.length;
  const mEnd = hEnd + 1 + min.length;
  const sEnd = sec ? mEnd + 1 + sec.length : mEnd;
  // "08:16:00": no seconds said; "07:00" no minutes.
  const seconds = sec !== undefined && Number(sec) > 0;
  const pieces = [piece(`${say(h)} giờ`, at, hEnd)];
  pieces.push(piece(Number(min) > 0 || seconds ? ` ${say(min)} phút` : '', hEnd, mEnd));
  if (sec) pieces.push(piece(seconds ? ` ${say(sec)} giây` : '', mEnd, sEnd));
  if (half) pieces.push(piece(` ${partOfDay(Number(h), /[Pp]/.test(half))}`, sEnd, at + text.length));
  return pieces;
}

/** A rule for one way of writing a time, and a range of two ("7h-9h", "9:00 – 11:30"). */
function timeRule(one: string, pieces: (text: string, at: number) => OutPiece[] | undefined): Rule {
  return {
    name: 'time',
    // "7h30 phút", "11h00 phút": the minutes' word written after the time is said once, and not at
    // all after a whole hour ("mười một giờ", never "giờ phút").
    pattern: `${START}(${one})(?:${SP}?[-–]${SP}?(${one}))?(${SP}phút(?!\\p{L}))?`,
    rewrite([whole, first, second, minuteWord]) {
      if (!whole || !first) return undefined;
      const from = pieces(first, 0);
      if (!from) return undefined;
      const timeEnd = whole.length - (minuteWord?.length ?? 0);
      const secondAt = second ? whole.indexOf(second, first.length) : -1;
      const to = second ? pieces(second, secondAt) : undefined;
      const last = to ?? from;
      const said = minuteWord ? last.map((p) => ({ ...p, text: p.text.replace(/ phút$/u, '') })) : last;
      const word = minuteWord
        ? [piece(last.some((p) => p.text.endsWith(' phút')) ? minuteWord : '', timeEnd, whole.length)]
        : [];
      if (!to) return [...said, ...word];
      return [...from, piece(' đến ', first.length, secondAt), ...said, ...word];
    },
  };
}

const paceRule: Rule = {
  name: 'duration',
  // "2:59/km", "5:30/dặm": a runner's pace, minutes and seconds a unit ("hai phút năm mươi chín
  // giây trên ki lô mét"), never a clock time.
  pattern: `${START}(\\d{1,2}):([0-5]\\d)/(km|mi|dặm)(?![\\p{L}\\p{N}])`,
  rewrite([whole, minutes, seconds, unit], ctx) {
    if (!whole || !minutes || !seconds || !unit) return undefined;
    const per = perUnitWords(unit, ctx);
    if (!per) return undefined;
    return `${say(minutes)} phút${Number(seconds) > 0 ? ` ${say(seconds)} giây` : ''} trên ${per}`;
  },
};

const PART_OF_DAY_AHEAD = `(?=${SP}+(?:${PARTS_OF_DAY})(?!\\p{L}))`;

const hourListRule: Rule = {
  name: 'time',
  // "từ 3,4h sáng", "5,6 giờ chiều": two hours one after the other, as a reader says "ba, bốn giờ".
  pattern: `${START}(\\d{1,2}),${SP}?(\\d{1,2})(?:(h)${PART_OF_DAY_AHEAD}|(?=${SP}giờ${PART_OF_DAY_AHEAD}))`,
  rewrite([whole, a, b, h]) {
    if (!whole || !a || !b) return undefined;
    const bEnd = whole.length - (h ? 1 : 0);
    // "2,5 giờ chiều": not two hours in a row, a decimal.
    if (Number(b) !== Number(a) + 1 || Number(b) > 24)
      return [
        piece(sayViNumber(whole.slice(0, bEnd)) ?? whole, 0, bEnd),
        ...(h ? [piece(' giờ', bEnd, whole.length)] : []),
      ];
    return [
      piece(viCardinal(String(Number(a))), 0, a.length),
      piece(`, ${viCardinal(String(Number(b)))}`, a.length, bEnd),
      ...(h ? [piece(' giờ', bEnd, whole.length)] : []),
    ];
  },
};

/** Time zones as Vietnamese news says them. */
const TIME_ZONES: Readonly<Record<string, string>> = { GMT: 'giê em tê', UTC: 'u tê xê' };

const timeZoneRule: Rule = {
  name: 'time',
  // "(GMT+7)", "1 giờ GMT", "UTC-5", "07:30[GMT+7]": the zone by its letters, the offset "cộng" or
  // "trừ" its hours ("+5:30" its hours and minutes); a bracket written against a time gets a space.
  pattern: `(\\[)?(?<![\\p{L}\\p{N}_])(GMT|UTC)(?:([+−-])(\\d{1,2})(?::([0-5]\\d))?)?(?![\\p{L}\\p{N}_])`,
  rewrite([whole, bracket, zone, sign, hours, minutes], ctx) {
    if (!whole || !zone) return undefined;
    const glued = bracket && /\p{N}$/u.test(ctx.input.slice(Math.max(0, ctx.index - 1), ctx.index));
    const offset =
      sign && hours
        ? ` ${sign === '+' ? 'cộng' : 'trừ'} ${viCardinal(String(Number(hours)))}${
            minutes ? ` giờ ${viCardinal(String(Number(minutes)))} phút` : ''
          }`
        : '';
    return `${glued ? ' [' : (bracket ?? '')}${TIME_ZONES[zone] ?? zone}${offset}`;
  },
};

const hourRule = timeRule(HOUR, hourPieces);
const clockRule = timeRule(CLOCK, clockPieces);

// --- Roman numerals -----------------------------------------------------------------------

const ROMAN_CONTEXT = [
  // a grade of a disease or a burn ("tăng huyết áp độ II", "bỏng độ III")
  'độ',
  'thế kỷ',
  'thế kỉ',
  'chương',
  'phần',
  'đoạn',
  'khoản',
  'điều',
  'phụ lục',
  'khóa',
  'khoá',
  'đại hội',
  'quý',
  'thứ',
  'tập',
  'hồi',
  'mục',
  'kỳ',
  'kì',
  'bài',
  'quyển',
  'cuốn',
  'cấp',
  'nhóm',
  'loại',
  'hạng',
  'vùng',
  'khu vực',
  'chapter',
  'part',
];
/** The words in their three cases: "thế kỷ", "Thế kỷ"/"Thế Kỷ", "THẾ KỶ". */
/**
 * A Roman numeral heading a line as a section's number: a full stop, a dash or a colon, then a
 * capital; or a full stop against a Vietnamese word with a mark ("I.Hoàn cảnh lịch sử", not
 * "V.League").
 */
const GLUED_HEADING_WORD = '\\p{Lu}\\p{Ll}*[\\u00E0-\\u1EF9]';
const ROMAN_HEADING = `[IVX]{1,6}(?:(?:\\.|${SP}?[-–:])${SP}+\\p{Lu}|\\.${GLUED_HEADING_WORD})`;
const ROMAN_HEADING_AT = new RegExp(`^${ROMAN_HEADING}`, 'u');
const ROMAN_CONTEXT_WORDS = ROMAN_CONTEXT.flatMap((w) => [
  w,
  w.charAt(0).toLocaleUpperCase('vi') + w.slice(1),
  w.replace(/(^|\s)\p{L}/gu, (c) => c.toLocaleUpperCase('vi')),
  w.toLocaleUpperCase('vi'),
]);

const ROMAN_CONTEXT_BEFORE = wordsBefore(ROMAN_CONTEXT.join('|'));

/** Words after which a numeral in lower case is one ("thế kỉ xix", "phần ix"), up to 39 and of i, v, x only. */
const LOWER_ROMAN_CONTEXT = ['thế kỷ', 'thế kỉ', 'phần', 'chương'];
const LOWER_ROMAN_CONTEXT_WORDS = LOWER_ROMAN_CONTEXT.flatMap((w) => [
  w,
  w.charAt(0).toLocaleUpperCase('vi') + w.slice(1),
  w.replace(/(^|\s)\p{L}/gu, (c) => c.toLocaleUpperCase('vi')),
]);
/** "năm MCMXCIX": after "năm" only numerals of four letters or more (a year, not "năm X"). */
const YEAR_WORDS = ['năm', 'Năm', 'NĂM'];

const romanRule: Rule = {
  name: 'roman',
  // "thế kỷ XXI", "Chương IV", "lần thứ IV", "thế kỷ IX-X"; a regnal number after a name ("Louis XIV").
  // A name's numeral is in capitals: "Hành vi", "Thư vi" are words.
  pattern: `(?=[IVXLCDMivx])(?:(?<=(?:^|\\n)[ \\t\u00A0]*(?:[-–•][ \\t\u00A0]+)?)(?=${ROMAN_HEADING})|(?<=(?:^|[^\\p{L}])(?:${[...new Set(ROMAN_CONTEXT_WORDS)].join('|')})${SP}+)|(?<=(?:^|[^\\p{L}])\\p{Lu}\\p{Ll}+${SP}+)(?=[IVXLCDM])|(?<=(?:^|[^\\p{L}])[IVXLCDM]{1,6}(?:,|${SP}+(?:và|hoặc))${SP}+)(?=[IVXLCDM])|(?<=(?:^|[^\\p{L}])(?:${YEAR_WORDS.join('|')})${SP}+)(?=[IVXLCDM]{4})|(?<=(?:^|[^\\p{L}])(?:${[...new Set(LOWER_ROMAN_CONTEXT_WORDS)].join('|')})${SP}+)(?=[ivx]+(?![\\p{L}\\p{N}_])))(${ROMAN_NUMERAL}|[ivx]{1,6})(?:[/-](\\d{4})|${SP}?[-–]${SP}?(${ROMAN_NUMERAL})(?:/(\\d{4}))?)?(?:\\.(?=${GLUED_HEADING_WORD})|(?![\\p{L}\\p{N}_]|['’]\\p{L}|\\.[\\p{L}\\p{N}]|-\\p{Lu}\\p{Ll}))`,
  rewrite([whole, numeral, yearText, last, lastYear], ctx) {
    if (!whole || !numeral) return undefined;
    // "phụ lục C", "nhóm D", "hạng M": a lone L, C, D or M is a letter, said by its name.
    if (/^[LCDM]$/.test(numeral)) return yearText ? undefined : { out: spellVi(numeral), name: 'acronym' };
    const lower = /^[ivx]+$/.test(numeral);
    const value = romanValue(numeral.toUpperCase());
    if (value === undefined || (lower && value > 39)) return undefined;
    // "năm MCMXCIX": a year.
    if (/^[IVXLCDM]{4,}$/.test(numeral) && /(?:^|[^\p{L}])năm[ \u00A0]*$/u.test(before(ctx, 8)))
      return yearText ? undefined : viCardinal(String(value));
    const said = before(ctx, 12);
    // "IV. Tổ chức", "I - Nhân viên": a section's number heading its line, the number.
    if (!yearText && !last && ROMAN_HEADING_AT.test(ctx.input.slice(ctx.index, ctx.index + 16))) {
      // "I.Hoàn cảnh": the full stop against the word read as a stop, a space after it.
      if (whole.endsWith('.')) return `${viCardinal(String(value))}. `;
      return { out: [piece(viCardinal(String(value)), 0, numeral.length)], end: numeral.length };
    }
    // "thế kỷ II, III", "thế kỷ XV và XVI": a numeral listed after one in context.
    const before40 = before(ctx, 40);
    const listed = /(?:^|[^\p{L}])[IVXLCDM]{1,6}(?:,|[ \u00A0]+(?:và|hoặc))[ \u00A0]+$/u.exec(before40);
    const inContext =
      ROMAN_CONTEXT_BEFORE.test(said) ||
      (listed !== null && ROMAN_CONTEXT_BEFORE.test(before40.slice(0, listed.index + 1)));
    // After a name only numerals of two letters or more, up to 39: "Elizabeth II", not "Áo XL" or a lone "I".
    if (!inContext && (whole.length < 2 || value > 39)) return undefined;
    const spoken = ORDINAL_BEFORE.test(said) ? viOrdinal(value) : viCardinal(String(value));
    // "thế kỷ IX-X", "thế kỷ XIX - XX": a span of centuries (or chapters), "đến" between.
    if (last) {
      const lastValue = romanValue(last);
      if (!inContext || lastValue === undefined || lastValue <= value)
        return { out: spoken, end: numeral.length };
      // "quý III – IV/2024": the span's year after it.
      const lastAt = whole.length - last.length - (lastYear ? lastYear.length + 1 : 0);
      return [
        piece(spoken, 0, numeral.length),
        piece(' đến ', numeral.length, lastAt),
        piece(viCardinal(String(lastValue)), lastAt, lastAt + last.length),
        ...(lastYear ? [piece(` năm ${year(lastYear)}`, lastAt + last.length, whole.length)] : []),
      ];
    }
    // "quý III/2024", "quý IV-2023": the year after it.
    if (!yearText) return spoken;
    if (!inContext) return undefined;
    return [piece(spoken, 0, numeral.length), piece(` năm ${year(yearText)}`, numeral.length, whole.length)];
  },
};

// --- Money, percent, measures, ranges and plain numbers ---------------------------------

const CURRENCY_BEFORE = '(US\\$|[$€£¥₩]|USD|EUR|GBP|JPY|INR)';
const SCALE_WORDS = '(triệu|tỷ|tỉ|nghìn|ngàn|k)';

const moneyBeforeRule: Rule = {
  name: 'money',
  // $5, US$5, €20, USD 50, INR 10,000, $3 triệu: the currency is said after the amount.
  pattern: `(?=[$€£¥₩UEGJI])(?<![\\p{L}\\p{N}_])${CURRENCY_BEFORE}${SP}?(${NUMBER})(?:${SP}?${SCALE_WORDS}(?![\\p{L}\\p{N}_]))?${END}`,
  rewrite([whole, symbol, amount, scale]) {
    if (!whole || !symbol || !amount) return undefined;
    // "INR 10,000", "$1,500": a currency written first comes with English notation, its commas
    // groups of thousands.
    const words = sayViNumber(/^\d{1,3}(?:,\d{3})+$/u.test(amount) ? amount.replace(/,/gu, '') : amount);
    const currency = VI_CURRENCIES.get(symbol);
    if (!words || !currency) return undefined;
    const scaleWord = scale ? ` ${VI_AMOUNT_SCALES.get(scale) ?? scale}` : '';
    return `${words}${scaleWord} ${currency}`;
  },
};

/** The unit after "/" in a rate, as one of it: the user's units, the table, or a word as written ("đêm"). */
function perUnitWords(per: string, ctx: RuleContext): string | undefined {
  return (
    ctx.options.units?.get(per)?.one ?? VI_UNITS.get(per) ?? (/^\p{Ll}{2,}$/u.test(per) ? per : undefined)
  );
}

/** How a unit is read: the user's units first, then the table; a rate ("người/km2", "đồng/người/lượt") is read with "trên". */
function unitWords(symbol: string, value: ViNumber, ctx: RuleContext, attached = false): string | undefined {
  const own = ctx.options.units?.get(symbol);
  if (own) return value.int === '1' && value.frac === undefined ? own.one : own.many;
  const known = VI_UNITS.get(symbol);
  if (known) return known;
  // "80 km/ giờ": a space after the slash too.
  const [head, ...pers] = symbol.split(/\/[ \u00A0]?/u);
  if (head && pers.length > 0) {
    // A rate: "km/h", "người/km2", "đồng/lít", "đồng/phòng/đêm" (a word after "/" is read as written).
    const perWords = pers.map((per) => perUnitWords(per, ctx));
    if (perWords.some((words) => words === undefined)) return undefined;
    // "840k/đêm", "10tr/ tủ": an amount's scale written against it is a price per unit.
    const headWords =
      ctx.options.units?.get(head)?.many ??
      VI_UNITS.get(head) ??
      VI_CURRENCIES.get(head) ??
      (attached ? VI_AMOUNT_SCALES.get(head) : undefined) ??
      head;
    return `${headWords} trên ${perWords.join(' trên ')}`;
  }
  return undefined;
}

/** What a suffix says after the number, or undefined when it is not a currency, percent or unit. */
function suffixWords(
  suffix: string,
  value: ViNumber,
  attached: boolean,
  ctx: RuleContext,
): string | undefined {
  if (suffix === '%') return 'phần trăm';
  if (suffix === '‰') return 'phần nghìn';
  // "12%/năm": a rate, read with "trên".
  if (/^[%‰]\//u.test(suffix))
    return `${suffix.startsWith('%') ? 'phần trăm' : 'phần nghìn'} trên ${suffix.slice(2)}`;
  const scale = VI_AMOUNT_SCALES.get(suffix);
  if (scale && attached) return scale;
  // "500 nghìn-2 triệu": a scale word, said as written, so a range of amounts is read as one.
  if (VI_SCALE_WORDS.has(suffix)) return suffix;
  const currency = VI_CURRENCIES.get(suffix);
  if (currency) return currency;
  const symbol = suffix.replace(/^độ[ \u00A0]?/u, 'độ ');
  // "quốc lộ 1A", "14A": a code's letter, amperes only near electric words ("sạc 2A").
  if (VI_CODE_LETTER_UNITS.has(symbol) && !ctx.options.units?.has(symbol) && !electricNear(ctx))
    return undefined;
  // "5 A" may be a class or a row: one-letter units are read only when written against the number.
  if (
    VI_LETTER_UNITS.has(symbol) &&
    !attached &&
    !ctx.options.units?.has(symbol) &&
    !(/^[AVW]$/u.test(symbol) && electricNear(ctx))
  )
    return undefined;
  return unitWords(symbol, value, ctx, attached);
}

/** Whether electric words stand near the match (`VI_ELECTRIC_CONTEXT`), so "5A" is amperes. */
function electricNear(ctx: RuleContext): boolean {
  return VI_ELECTRIC_CONTEXT.test(ctx.input.slice(Math.max(0, ctx.index - 40), ctx.end + 24));
}

/**
 * A noun after a number written with a zero ("từ 01 năm đến 05 năm", "03 người", "02 kỹ sư"): a
 * count, its zero not said (legal and administrative texts write counts so). After a code's word
 * ("phòng 03", "mã 007", `CODE_BEFORE`) the zero is part of the code and is said; after "số" alone
 * ("Tuyến số 01") it is not.
 */
const COUNT_NOUN_AFTER = /^[ \u00A0]+\p{Ll}/u;
/** The first end of a range of counts ("từ 07 – 15 năm"): a dash, a number, then the noun. */
const COUNT_RANGE_AFTER = /^[ \u00A0]*[-–][ \u00A0]*\d{1,3}[ \u00A0]+\p{Ll}/u;

/** The number itself, by what stands around it: "thứ 4" → tư, "tháng 4" → tư, "05 năm" → năm, else a cardinal. */
function plainNumber(
  written: string,
  value: ViNumber,
  ctx: RuleContext,
  after: string,
  unitRead = false,
): string {
  const said = before(ctx);
  if (value.frac === undefined && !value.negative && written.length <= 2) {
    const n = Number(value.int);
    if (ORDINAL_BEFORE.test(said)) return viOrdinal(n);
    if (MONTH_BEFORE.test(said) && n >= 1 && n <= 12) return viMonth(n);
    // "00 giờ 5 phút": midnight's hour, "không giờ".
    if (written === '00' && /^[ \u00A0]+giờ(?!\p{L})/u.test(after)) return viCardinal('0');
    // "ngày 05", "lúc 07": a date or time part written with its zero; "05 năm", "01 Lit sữa": a
    // count (of a unit too); "số 01", "Đến 05".
    if (
      /^0[1-9]$/.test(written) &&
      (unitRead ||
        TIME_PART_BEFORE.test(said) ||
        ZERO_UNSAID_BEFORE.test(said) ||
        COUNT_NOUN_AFTER.test(after) ||
        COUNT_RANGE_AFTER.test(after))
    )
      return viCardinal(String(n));
  }
  return viNumberWords(value);
}

interface Quantity {
  text: string;
  value: ViNumber;
  at: [number, number];
  suffix?: { text: string; at: [number, number]; attached: boolean };
}

function quantity(
  whole: string,
  numberText: string,
  suffix: string | undefined,
  from: number,
): Quantity | undefined {
  const value = parseViNumber(numberText);
  if (!value) return undefined;
  const at: [number, number] = [from, from + numberText.length];
  if (suffix === undefined) return { text: numberText, value, at };
  const sAt = whole.indexOf(suffix, at[1]);
  return {
    text: numberText,
    value,
    at,
    suffix: { text: suffix, at: [sAt, sAt + suffix.length], attached: sAt === at[1] },
  };
}

/** Words after a decimal that make it a quantity ("tăng 2.5 lần"). */
const DECIMAL_NOUN_AFTER =
  /^(?:[ \u00A0]+(?:và|hoặc|đến|tới|-|–)[ \u00A0]+\d{1,3}\.\d{1,2})?[ \u00A0]+(?:lần|điểm|tuổi|triệu|tỷ|tỉ|nghìn|ngàn|lít|mét|gam|tấn|tạ|cân|độ|giờ|tiếng|phút|giây|ngày|tuần|tháng|năm|inch|héc ta|mẫu|sào|lượng|chỉ|phần trăm|đồng|đô la|USD|richter|trở lên|trở xuống)(?![\p{L}])/u;
/**
 * Words before a number that is a measure, not a version or a list's number ("độ lớn 2.8" of an
 * earthquake, "IELTS 5.5", "điểm 6.5"): a point in it is the decimal comma, "phẩy".
 */
const DECIMAL_BEFORE = /(?:độ lớn|cường độ|điểm|IELTS|GPA|pH)[ \u00A0]*$/u;
/** Words before a version's number ("iOS 17.1 trở lên", "Android 8.0"): its point stays "chấm". */
const VERSION_BEFORE = /(?:^|[^\p{L}])(?:iOS|iPadOS|Android|Windows|macOS|phiên bản|version|v)[ \u00A0]*$/iu;

/**
 * Nouns of whole things counted one by one ("3,528 người", "1,200 hộ"): before one, a comma and
 * exactly three digits can only group thousands (no one counts 3.528 people), so the number is
 * read as a whole; before any other word a comma stays the decimal comma ("3,528 km").
 */
const WHOLE_THINGS_AFTER =
  /^[ \u00A0]+(?:người|hộ|học sinh|sinh viên|thí sinh|bệnh nhân|ca|con|chiếc|căn|ngôi|nhà|xe|cây|trường|lượt|cán bộ|công nhân|lao động|doanh nghiệp|hành khách|du khách|khách|vụ|trẻ|em|gia đình|hồ sơ|phiếu|cái|thành viên|đảng viên|hội viên|vận động viên|cử tri|tàu|máy|cơ sở|dự án|việc làm|suất|cuốn|quyển|tấm|đơn|thửa|lô|phòng|giường|chuyến|tour|bài|câu)(?![\p{L}])/u;

/**
 * The number as it is read: "3,528 người" a whole (a comma grouping thousands before a counted
 * noun); "20.746 độ vĩ Bắc" decimal degrees; "5.3 inch", "1.5 lít", "2.5 lần", "độ lớn 2.8", "8.0
 * trở lên" a decimal point before a unit, a count, "trở lên", or after a measure's word, the
 * decimal comma written the English way, said "phẩy" ("4.0", "iOS 17.1" alone keep "chấm").
 */
function valueAsRead(q: Quantity, unitRead: boolean, ctx: RuleContext, after: string): ViNumber {
  if (/^\d{1,3},\d{3}$/u.test(q.text) && WHOLE_THINGS_AFTER.test(after))
    return { int: q.text.replace(',', ''), negative: false };
  if (/^\d{1,3}\.\d{3}$/u.test(q.text) && /^[ \u00A0]+độ[ \u00A0]+(?:vĩ|kinh)(?!\p{L})/u.test(after)) {
    const [int = '', frac] = q.text.split('.');
    return { int, frac, negative: false };
  }
  if (!q.value.point) return q.value;
  const start = ctx.index + q.at[0];
  const said = ctx.input.slice(Math.max(0, start - 12), start);
  if (VERSION_BEFORE.test(said)) return q.value;
  const end = ctx.index + q.at[1];
  return unitRead || DECIMAL_NOUN_AFTER.test(ctx.input.slice(end, end + 32)) || DECIMAL_BEFORE.test(said)
    ? { ...q.value, point: false }
    : q.value;
}

/** Pieces for one number and its suffix; the suffix is left to the rules after when it is not read. */
function quantityPieces(
  q: Quantity,
  ctx: RuleContext,
  codeBefore: boolean,
  decimalComma = false,
): { pieces: OutPiece[]; unitRead: boolean; letterRead: boolean } {
  // "nhà 60m2", "tầng 120m2": after a word that numbers a code, a unit of two letters or more
  // makes the number a measure ("sáu mươi mét vuông"); a code's letter stays one ("nhà 5A").
  const code = codeBefore && !(q.suffix && q.suffix.text.length >= 2 && VI_UNITS.has(q.suffix.text));
  const suffix = q.suffix && !code ? suffixWords(q.suffix.text, q.value, q.suffix.attached, ctx) : undefined;
  const after = ctx.input.slice(ctx.index + q.at[1], ctx.index + q.at[1] + 16);
  // "30,500", "200,000" alone or before a currency: a price table written the English way (a
  // decimal is not written with three digits ending in two zeros); "429,600 mét" stays a decimal.
  const englishThousands =
    !code && (!q.suffix || VI_CURRENCIES.has(q.suffix.text)) && /^\d{2,3},\d00$/u.test(q.text);
  const value = englishThousands
    ? { int: q.text.replace(',', ''), negative: false }
    : valueAsRead(q, suffix !== undefined || decimalComma, ctx, after);
  // A code's number keeps its decimals ("số 4,7"): no reading drops a part of a number.
  // "Tuyến số 01": a number after "số" alone is said without its written zero ("mã 01" keeps it).
  const number =
    code && !(/^0[1-9]$/u.test(q.text) && NUMBER_WORD_BEFORE.test(before(ctx)))
      ? viNumberWords(value)
      : plainNumber(q.text, value, ctx, after, suffix !== undefined);
  const pieces = [piece(number, ...q.at)];
  // A unit written against its number ("50.000đ") stands for the whole: a word timing of "đồng" shows "50.000đ".
  // One written apart ("1,5 triệu", "5 km") stands for itself, the space between for the space.
  if (suffix && q.suffix?.attached) pieces.push(piece(` ${suffix}`, q.at[0], q.suffix.at[1]));
  else if (suffix && q.suffix)
    pieces.push(piece(' ', q.at[1], q.suffix.at[0]), piece(suffix, q.suffix.at[0], q.suffix.at[1]));
  // "1A", "14B": a code's single capital, spelt with its Vietnamese name.
  const letterRead = !suffix && !!q.suffix?.attached && /^[A-ZĐ]$/u.test(q.suffix.text);
  if (letterRead && q.suffix) pieces.push(piece(` ${spellVi(q.suffix.text)}`, q.at[0], q.suffix.at[1]));
  return { pieces, unitRead: suffix !== undefined, letterRead };
}

/** Numeric value of a parsed number and its scale word ("2 triệu"), for comparing the ends of a range. */
function valueOf(q: Quantity): number {
  const n = q.value;
  const v = Number(`${n.int}.${n.frac ?? '0'}`) * (VI_SCALE_WORDS.get(q.suffix?.text ?? '') ?? 1);
  return n.negative ? -v : v;
}

/** Whether a number's suffix is read (a unit, currency, percent), not a word left to the other rules ("2-5 người"). */
function readsSuffix(q: Quantity, ctx: RuleContext): boolean {
  return !!q.suffix && suffixWords(q.suffix.text, q.value, q.suffix.attached, ctx) !== undefined;
}

/**
 * Words after which "29-4" is a day and a month, as Vietnamese news writes dates ("sáng 29-4",
 * "hôm nay 1-6", "dịp lễ 30-4"), and the next date of a list or a span after one ("lễ 30-4 và
 * 1-5", "từ ngày 21-9 đến 10-10").
 */
const DASH_DATE_BEFORE = new RegExp(
  `(?:(?:^|[^\\p{L}])(?:ngày|hôm|nay|mùng|mồng|lễ|${PARTS_OF_DAY})(?:[ \u00A0]+\\d{1,2}-\\d{1,2}[ \u00A0]+(?:và|hoặc|đến|tới))?|${WEEKDAY})[ \u00A0]*$`,
  'u',
);
/** A holiday's name before its day ("Ngày Chiến thắng 30-4", "ngày Quốc khánh 2-9"): a date, never a score. */
const HOLIDAY_BEFORE =
  /(?:^|[^\p{L}])(?:ngày|lễ)[ \u00A0]+(?:chiến thắng|giải phóng(?: miền nam)?|quốc khánh|thống nhất|quốc tế lao động)[ \u00A0]*$/u;
/** Words that may also start a range ("từ 2-5 lần"): a date only where no counted word follows. */
const DASH_DATE_LINK_BEFORE = wordsBefore('từ|đến|tới');
/** What may follow a date after "từ" / "đến": the end, punctuation or a word that is not a counted thing. */
const AFTER_LINKED_DATE =
  /^(?:[ \u00A0]*(?:$|[^\p{L}\p{N} \u00A0])|[ \u00A0]+(?:đến|tới|và|hoặc|năm|này|vừa|qua|tại|ở|lúc|hằng|hàng|sẽ|đã)(?![\p{L}]))/u;

/** Whether "a-b" (a valid day and month) is a date by what stands around it; never before "tháng" or "/" ("ngày 2-3 tháng 5"). */
function dashDate(said: string, after: string, ascending: boolean, ctx: RuleContext): boolean {
  if (/^[ \u00A0]*(?:tháng|\/|giờ|tiếng|phút|độ)/u.test(after)) return false;
  if (DASH_DATE_BEFORE.test(said) || HOLIDAY_BEFORE.test(said) || LUNAR_AFTER.test(after)) return true;
  // "(10-9)": directly inside parentheses.
  if (/\($/u.test(said) && after.startsWith(')')) return !SCORE_BEFORE.test(said.slice(0, -1));
  // After "từ" / "đến" a pair that may be a range ("người từ 1-10") is a date only near a date word.
  return (
    DASH_DATE_LINK_BEFORE.test(said) &&
    AFTER_LINKED_DATE.test(after) &&
    (!ascending || DATE_NEAR.test(before(ctx, 40)))
  );
}
/** Date words, or a date just before, that make a "từ … đến 2-5" a date ("từ ngày 30-4 đến 2-5", "từ 30-4 đến 2-5"). */
const DATE_NEAR =
  /(?:^|[^\p{L}])(?:ngày|hôm|tháng)(?![\p{L}])|\d{1,2}[-/]\d{1,2}[ \u00A0]+(?:đến|tới)[ \u00A0]*$/u;

const quantityRule: Rule = {
  name: 'cardinal',
  pattern: `(?:(?=[-−]\\d)(?<![\\p{L}\\p{N}_.,:/)\\]-])[-−]|${START})(${NUMBER})${END}(?:${SP}?(${SUFFIX}))?(?:${SP}?([-–—])${SP}?(${NUMBER})${END}(?:${SP}?(${SUFFIX}))?)?`,
  rewrite(groups, ctx) {
    const [whole, n1, s1, dash, n2, s2] = groups;
    if (!whole || !n1) return undefined;
    const negative = whole.startsWith('-') || whole.startsWith('−');
    const left = quantity(whole, `${negative ? '-' : ''}${n1}`, s1, 0);
    if (!left) return undefined;
    const said = before(ctx);
    const code = isCode(said);
    const first = quantityPieces(left, ctx, code);
    const single = (): RuleReading =>
      apart(
        first.pieces,
        ctx,
        (first.unitRead && s1 ? suffixClass(s1) : undefined) ??
          (left.value.frac !== undefined ? 'decimal' : numberClass(said)),
      );
    if (!dash || !n2) return single();
    const dashAt = whole.indexOf(dash, left.suffix?.at[1] ?? left.at[1]);
    // A suffix not read ("2 ngày-3") ends the reading before it.
    if (left.suffix && !first.unitRead && !first.letterRead) return single();
    const right = quantity(whole, n2, s2, whole.indexOf(n2, dashAt + 1));
    if (!right) return single();
    const after = ctx.input.slice(ctx.index + right.at[1], ctx.index + right.at[1] + 12);
    const bare = !left.suffix && (!right.suffix || !readsSuffix(right, ctx));
    // "tháng 4-2023": a month and its year.
    if (
      bare &&
      MONTH_BEFORE.test(said) &&
      n1.length <= 2 &&
      Number(n1) >= 1 &&
      Number(n1) <= 12 &&
      /^\d{4}$/.test(n2)
    )
      return apart(
        [...first.pieces, piece(` năm ${year(n2)}`, first.pieces.at(-1)?.to ?? dashAt, right.at[1])],
        ctx,
        'date',
      );
    if (
      bare &&
      n1.length <= 2 &&
      n2.length <= 2 &&
      validDay(Number(n1), Number(n2)) &&
      (!SCORE_BEFORE.test(said) || HOLIDAY_BEFORE.test(said)) &&
      dashDate(said, after, Number(n1) < Number(n2), ctx)
    )
      return apart(datePieces([n1, left.at], [n2, right.at], undefined), ctx, 'date');
    const second = quantityPieces(right, ctx, code);
    // "dẫn 2-0 sau hiệp 1": a score may be followed by a linking word, not by a counted noun
    // ("thắng 2-3 người"); after "tỷ số", by any word but a unit.
    const score =
      SCORE_BEFORE.test(said) &&
      !left.suffix &&
      (!right.suffix ||
        SCORE_THEN.test(right.suffix.text) ||
        (SCORE_NAMED_BEFORE.test(said) && !second.unitRead));
    const letters = first.letterRead || second.letterRead;
    // "55 - 55%": equal ends with a unit read are a range too (a forecast's bounds).
    // "500 mg - 1 g": ends in units of their own, a span from one measure to a larger one.
    const ascending =
      valueOf(left) < valueOf(right) ||
      (valueOf(left) === valueOf(right) && second.unitRead && dash !== '—') ||
      (first.unitRead && second.unitRead && left.suffix?.text !== right.suffix?.text);
    const range = !code && !score && !letters && (FROM_BEFORE.test(said) || ascending);
    // "5.6-6.9 mmol/L", "tối ưu 5.2 - 6.2": a range of two decimals written with points is one of
    // measures, each point the decimal comma ("năm phẩy sáu đến sáu phẩy chín"; a lone "4.0" keeps
    // "chấm"; a version's "iOS 14.1" keeps it too).
    // "4,5-6.0": one end with the decimal comma, the other with a point, is the same range.
    const decimals =
      range &&
      left.value.frac !== undefined &&
      right.value.frac !== undefined &&
      (left.value.point === true || right.value.point === true) &&
      !VERSION_BEFORE.test(said);
    const [from, to] = decimals
      ? [quantityPieces(left, ctx, code, true), quantityPieces(right, ctx, code, true)]
      : [first, second];
    // A range's first end without a suffix shares the second's ("5-7%" năm đến bảy phần trăm);
    // an unsure pair keeps its dash ("số 12-3").
    const link = score ? ' ' : range ? ' đến ' : ` ${dash} `;
    const pieces = [...from.pieces, piece(link, from.pieces.at(-1)?.to ?? dashAt, right.at[0]), ...to.pieces];
    return apart(pieces, ctx, score ? 'score' : range ? 'range' : 'cardinal');
  },
};

/**
 * A reading that stops where the text goes on with a letter or digit ("lớp 12A", "4x4") gets a
 * space there, so the words read are not glued to what follows.
 */
function apart(pieces: OutPiece[], ctx: RuleContext, name: RuleName): RuleReading {
  const end = pieces.at(-1)?.to ?? 0;
  const next = ctx.input.charAt(ctx.index + end);
  const out = /[\p{L}\p{N}]/u.test(next) ? [...pieces, piece(' ', end, end)] : pieces;
  return { out, name, end };
}

/** The class of a number read with what follows it; undefined for a scale word ("1,5 triệu": the number's). */
function suffixClass(suffix: string): RuleName | undefined {
  if (/^[%‰]/u.test(suffix)) return 'percent';
  const head = suffix.split('/')[0] as string;
  if (VI_CURRENCIES.has(head) || VI_AMOUNT_SCALES.has(suffix)) return 'money';
  if (VI_SCALE_WORDS.has(suffix)) return undefined;
  return 'measure';
}

function numberClass(said: string): RuleName {
  if (ORDINAL_BEFORE.test(said)) return 'ordinal';
  return MONTH_BEFORE.test(said) ? 'date' : 'cardinal';
}

// --- Weekdays, acronyms, e-mail and web addresses ---------------------------------------

const sundayRule: Rule = {
  name: 'date',
  // "CN" is chủ nhật only in a date: "CN, 15/1", "thứ 7 và CN".
  pattern: `(?=C)(?<![\\p{L}\\p{N}_])CN(?![\\p{L}\\p{N}_])`,
  rewrite(_groups, ctx) {
    const next = ctx.input.slice(ctx.end, ctx.end + 10);
    const dateAfter = /^[ \u00A0]*[,(]?[ \u00A0]*(?:ngày[ \u00A0]+)?\d{1,2}\/\d{1,2}/u.test(next);
    const weekdayBefore =
      /thứ[ \u00A0]+(?:[2-7]|hai|ba|tư|năm|sáu|bảy)[ \u00A0]*(?:,|và|-|–|hoặc)[ \u00A0]*$/u.test(before(ctx));
    return dateAfter || weekdayBefore ? 'chủ nhật' : undefined;
  },
};

/** Upper-case letters of Vietnamese words beyond A–Z ("HÀ NỘI"): a line in capitals, not acronyms. */
const VIETNAMESE_CAPITAL = /[ÀÁẢÃẠĂẰẮẲẴẶÂẦẤẨẪẬÈÉẺẼẸÊỀẾỂỄỆÌÍỈĨỊÒÓỎÕỌÔỒỐỔỖỘƠỜỚỞỠỢÙÚỦŨỤƯỪỨỬỮỰỲÝỶỸỴ]/u;

/** Whether a word is one Vietnamese syllable, its tone and vowel marks aside ("ẢNH", "NGUỒN", "THEO"). */
function isVietnameseSyllable(word: string): boolean {
  const bare = word.normalize('NFD').replace(/\p{M}/gu, '').replace(/[Đđ]/gu, 'd');
  return SYLLABLE.test(bare);
}
/** A word in capitals handed to eSpeak as a word, capitalised (eSpeak spells a word in capitals). */
const asWord = (word: string) => word.charAt(0) + word.slice(1).toLocaleLowerCase('vi');
/** Words without marks that head a line or a credit in capitals ("THEO VnExpress", "TIN: …"). */
const CAPITAL_LABELS: ReadonlySet<string> = new Set(['THEO', 'TIN', 'XEM', 'BAN', 'CHIA', 'NGUON', 'ANH']);
/** English words of one vowel that Vietnamese shops and notices write in capitals ("TEST NHANH", "HOT"). */
const CAPITAL_ENGLISH_WORDS: ReadonlySet<string> = new Set(['TEST', 'HOT', 'NEW', 'BEST', 'SHOP', 'TOP']);
const lineStart = (ctx: RuleContext) =>
  /(?:^|\n)[ \t\u00A0]*$/u.test(ctx.input.slice(Math.max(0, ctx.index - 8), ctx.index));

const capitalWordRule: Rule = {
  name: 'acronym',
  // "ẢNH:", "NGUỒN:", "TIN LIÊN QUAN", "HÀ NỘI -": a Vietnamese word in capitals (it has a letter
  // only Vietnamese writes) is read as the word, capitalised; one that is no Vietnamese syllable
  // is left as written.
  pattern: `(?=\\p{Lu})(?<![\\p{L}\\p{N}_])(?=\\p{Lu}{0,6}${VIETNAMESE_CAPITAL.source})\\p{Lu}{2,7}(?![\\p{L}\\p{N}_])`,
  rewrite: ([whole]) => (whole && isVietnameseSyllable(whole) ? asWord(whole) : undefined),
};

/** Famous people written with an initial glued to the surname ("D.Trump"): the first name, as a reader says it. */
const FIRST_NAMES: ReadonlyMap<string, string> = new Map([
  ['D.Trump', 'Donald'],
  ['J.Biden', 'Joe'],
  ['B.Obama', 'Barack'],
  ['V.Putin', 'Vladimir'],
  ['E.Macron', 'Emmanuel'],
  ['K.Harris', 'Kamala'],
  ['E.Musk', 'Elon'],
  ['A.Merkel', 'Angela'],
  ['B.Johnson', 'Boris'],
  ['C.Ronaldo', 'Cristiano'],
  ['L.Messi', 'Lionel'],
]);

const gluedInitialRule: Rule = {
  name: 'acronym',
  // "D.Trump" Donald Trump (a famous one, `FIRST_NAMES`); "Ảnh: T.Huy", "X.Smith": an initial
  // written against a name, said by its letter name, the full stop silent.
  // A famous one may be spaced ("D. Trump").
  pattern: `(?=[A-ZĐ])(?<![\\p{L}\\p{N}_.&])[A-ZĐ]\\.(?=\\p{Lu}\\p{Ll}+(?![\\p{L}\\p{N}_.])|${SP}(?:${[...FIRST_NAMES.keys()].map((k) => k.slice(2)).join('|')})(?![\\p{L}\\p{N}_]))`,
  rewrite([whole], ctx) {
    if (!whole) return undefined;
    const [gap = '', surname = ''] =
      /^([ \u00A0]?)(\p{Lu}\p{Ll}+)/u.exec(ctx.input.slice(ctx.end, ctx.end + 24))?.slice(1) ?? [];
    return `${FIRST_NAMES.get(whole + surname) ?? spellVi(whole)}${gap ? '' : ' '}`;
  },
};

const acronymRule: Rule = {
  name: 'acronym',
  // An acronym the dictionary does not know, spelt with Vietnamese letter names: "VTV" vê tê vê,
  // "VTV1" vê tê vê một (a channel's or a model's digit written against it).
  pattern: '(?=[A-ZĐ])(?<![\\p{L}\\p{N}_])[A-ZĐ]{2,5}\\d?(?![\\p{L}\\p{N}_]|[.,]\\p{N})',
  rewrite([whole], ctx) {
    if (!whole) return undefined;
    // "giao thông nông thôn (GTNT)", and "GTNT" after it: the words the text defined it as.
    const defined = definedAcronym(whole, ctx);
    if (defined) return { out: defined, name: 'abbreviation' };
    // In a line written in capitals ("TIN NÓNG HÀ NỘI") the words are words.
    const around = ctx.input.slice(Math.max(0, ctx.index - 16), ctx.end + 16);
    // and so are capitals next to a Vietnamese word in capitals ("… Văn Đài TIN LIÊN QUAN").
    const run =
      (/[\p{Lu} \u00A0]*$/u.exec(ctx.input.slice(Math.max(0, ctx.index - 16), ctx.index))?.[0] ?? '') +
      (/^[\p{Lu} \u00A0]*/u.exec(ctx.input.slice(ctx.end, ctx.end + 16))?.[0] ?? '');
    if (VIETNAMESE_CAPITAL.test(around.replace(/\p{Ll}.*$/su, '')) || VIETNAMESE_CAPITAL.test(run))
      return isVietnameseSyllable(whole) ? asWord(whole) : undefined;
    // "THEO VnExpress", "TIN:": a label word in capitals heading a line or before a colon.
    if (
      CAPITAL_LABELS.has(whole) &&
      (lineStart(ctx) || /^[ \u00A0]*:/u.test(ctx.input.slice(ctx.end, ctx.end + 3)))
    )
      return asWord(whole);
    // "TEAM BUILDING": an English word in capitals is a word, never spelt.
    if ((whole.length >= 4 && englishWordShape(whole)) || CAPITAL_ENGLISH_WORDS.has(whole))
      return asWord(whole);
    // "TEST NHANH", "TIN NHANH": a long Vietnamese syllable in a run of capital words is the word.
    if (whole.length >= 4 && isVietnameseSyllable(whole) && /\p{Lu}{2}/u.test(run.replace(whole, '')))
      return asWord(whole);
    return spellVi(whole);
  },
};

/** Consonant capitals: a lone one is a letter ("khu B", "vitamin D"); a lone vowel or Y may be a word ("Y tế", "Ô tô"). */
const LONE_LETTER = '[B-DĐF-HJ-NP-TV-XZ]';

const loneLetterRule: Rule = {
  name: 'acronym',
  // "hội trường A", "phương án C", "ông Trần Quốc T. (SN 1985)": a capital standing alone is said by
  // its Vietnamese name. An initial's full stop is dropped where the sentence goes on: before "(",
  // ",", ";" or a lower-case word, or before a name after a name ("Nguyễn H. Nam"); a full stop
  // after "khu B." ends the sentence and stays.
  pattern: `(?=${LONE_LETTER})(?<![\\p{L}\\p{N}_&.'’/+-])${LONE_LETTER}(?:\\.(?=${SP}*(?:[(,;]|\\p{Ll}))|(?<=\\p{Lu}\\p{Ll}+${SP}+.)\\.(?=${SP}+\\p{Lu}\\p{Ll}))?(?![\\p{L}\\p{N}_&'’+#]|[-.][\\p{L}\\p{N}])`,
  rewrite: ([whole]) => (whole ? [piece(spellVi(whole.charAt(0)), 0, whole.length)] : undefined),
};

/** A vowel capital or a consonant cluster that begins a given name, as an initial with its full stop. */
const NAME_INITIAL = '(?:[AEIOUYĂÂÊÔƠƯ]|Qu|Th|Ph|Ch|Ng|Tr|Gi|Kh|Nh)\\.';

const nameInitialRule: Rule = {
  name: 'acronym',
  // "Trần Nhật A. (SN 2006)", "Trần Đình Qu.", "Lê Văn Th.": after two name syllables, a vowel or
  // a cluster with a full stop is the given name's initial ("a", "quờ", "thờ"; consonants alone are
  // `loneLetterRule`'s). Its full stop is dropped where the sentence goes on, as there.
  pattern: `(?=${NAME_INITIAL})(?<=\\p{Lu}\\p{Ll}+${SP}+\\p{Lu}\\p{Ll}+${SP}+)${NAME_INITIAL}(?![\\p{L}\\p{N}_]|${SP}*\\d)`,
  rewrite([whole], ctx) {
    if (!whole) return undefined;
    const goesOn = /^(?:[ \u00A0]*(?:[(,;]|\p{Ll})|[ \u00A0]+\p{Lu}\p{Ll})/u.test(
      ctx.input.slice(ctx.end, ctx.end + 4),
    );
    const name = viInitialName(whole.slice(0, -1));
    return [piece(name, 0, whole.length - 1), piece(goesOn ? '' : '.', whole.length - 1, whole.length)];
  },
};

const initialsRule: Rule = {
  name: 'acronym',
  // "anh N.V.A. (45 tuổi)", "bà L.T.H": a person's initials, each letter by its name; the last full
  // stop is dropped where the sentence goes on (before "(", ",", ";" or a lower-case word).
  pattern: `(?=[A-ZĐ])(?<![\\p{L}\\p{N}_.&])[A-ZĐ](?:\\.[A-ZĐ]){1,4}(?:\\.(?=${SP}*(?:[(,;]|\\p{Ll})))?(?![\\p{L}\\p{N}_&]|\\.[\\p{L}\\p{N}])`,
  rewrite: ([whole]) => (whole ? spellVi(whole) : undefined),
};

const productCodeRule: Rule = {
  name: 'acronym',
  // "S8", "U22" (also "U.23"), "A54", "F0", "G7", "H5N1", "VTV10", "S21+": the letters by name, the number in words (up to
  // three digits; a longer one, or one with a leading zero, digit by digit); after a word and a hyphen too
  // ("Cortex-A15").
  pattern: `(?=[A-ZĐ])(?:(?<![\\p{L}\\p{N}_&.'’/+-])|(?<=\\p{Ll}-))([A-ZĐ]{1,3}|U\\.(?=\\d{2}))(\\d{1,4})(?:([A-Z])(\\d{1,2}))?(\\+)?(?![\\p{L}\\p{N}_&'’+#]|[-.,:/][\\p{L}\\p{N}])`,
  rewrite([whole, letters, digits, letter2, digits2, plus]) {
    if (!whole || !letters || !digits) return undefined;
    const number = (d: string) => (d.length > 3 ? viDigits(d) : viCardinal(d));
    const words = [spellVi(letters), number(digits)];
    if (letter2 && digits2) words.push(spellVi(letter2), number(digits2));
    // "Galaxy S21+": the model's plus is said.
    if (plus) words.push('cộng');
    return words.join(' ');
  },
};

const stormNameRule: Rule = {
  name: 'acronym',
  // "bão YAGI", "siêu bão HAIYAN", "áp thấp nhiệt đới NORU", "bão số 3 (YAGI)": a storm's name in
  // capitals is a word, read as one ("Yagi"); spelt only when it cannot be said (no vowel, or four
  // consonants in a row).
  pattern: `(?=[A-Z])(?<=(?:^|[^\\p{L}])(?:[Bb]ão|BÃO|[Áá]p thấp(?: nhiệt đới)?)${SP}+(?:số${SP}+\\d{1,2}${SP}*[(,]?${SP}*(?:tên quốc tế${SP}+|có tên${SP}+)?)?)(?=[A-Z])[A-Z]{3,12}(?![\\p{L}\\p{N}_])`,
  rewrite([whole]) {
    if (!whole) return undefined;
    if (!/[AEIOUY]/.test(whole) || /[^AEIOUY]{4}/.test(whole)) return spellVi(whole);
    return whole.charAt(0) + whole.slice(1).toLowerCase();
  },
};

/** Parts of addresses read as words; any other part is spelt, or read as written when it is a long word. */
const ADDRESS_WORDS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    gmail: 'gờ meo',
    yahoo: 'da hu',
    hotmail: 'hót meo',
    outlook: 'ao lúc',
    mail: 'meo',
    email: 'i meo',
    com: 'com',
    // ".vn" is "chấm vê en" as Vietnamese radio and television say it (the letter names' short forms).
    vn: 'vê en',
    net: 'nét',
    org: 'o rờ gờ',
    edu: 'e đu',
    gov: 'gờ o vê',
    info: 'in phô',
    www: 'vê kép vê kép vê kép',
    http: 'hát tê tê pê',
    https: 'hát tê tê pê ét',
    html: 'hát tê mờ lờ',
    news: 'niu',
    online: 'on lai',
    tv: 'ti vi',
    ai: 'a i',
  }),
);

const ADDRESS_MARKS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    '.': 'chấm',
    '@': 'a còng',
    _: 'gạch dưới',
    '-': 'gạch ngang',
    '/': 'xuyệt',
    ':': 'hai chấm',
    '?': 'hỏi chấm',
    '=': 'bằng',
    '&': 'và',
    '#': 'thăng',
    '+': 'cộng',
    '%': 'phần trăm',
  }),
);

/**
 * An address part by part: known words as words, numbers as numbers (in an e-mail's user name,
 * "an123", digit by digit, as it is spelt out to be typed), short parts spelt, marks named.
 */
function sayAddress(address: string): string {
  const at = address.indexOf('@');
  const words: string[] = [];
  for (const m of address.matchAll(/[\p{L}]+|\d+|[^\p{L}\d]/gu)) {
    const part = m[0];
    const known = ADDRESS_WORDS.get(part.toLowerCase());
    if (known) words.push(known);
    else if (/^\d+$/.test(part))
      words.push(part.length > 4 || m.index < at ? viDigits(part) : viCardinal(part));
    else if (/^\p{L}+$/u.test(part))
      words.push(SYLLABLE.test(part) || (part.length >= 5 && /[aeiouy]/i.test(part)) ? part : spellVi(part));
    else {
      const mark = ADDRESS_MARKS.get(part);
      if (mark) words.push(mark);
    }
  }
  // "://" is not said.
  return words.join(' ').replace(/ hai chấm xuyệt xuyệt/g, '');
}

/** A rule that reads an address part by part (`sayAddress`). */
function addressRule(name: 'email' | 'url', pattern: string): Rule {
  return { name, pattern, rewrite: ([whole]) => (whole ? sayAddress(whole) : undefined) };
}

const emailRule = addressRule(
  'email',
  '(?=[A-Za-z0-9])(?<![\\p{L}\\p{N}_.+-])[A-Za-z0-9](?:[A-Za-z0-9._+-]{0,62}[A-Za-z0-9])?@[A-Za-z0-9-]{1,63}(?:\\.[A-Za-z0-9-]{1,63}){1,4}(?![\\p{L}\\p{N}_])',
);

// https://vnexpress.net/abc, www.baochinhphu.vn, tuoitre.vn: up to a space, less trailing punctuation.
const urlRule = addressRule(
  'url',
  '(?=[a-z0-9])(?<![\\p{L}\\p{N}_.@/-])(?:(?:https?://|www\\.)[^\\s<>"]{0,300}[^\\s<>".,;:!?)\\]]|[a-z0-9-]{1,63}(?:\\.[a-z0-9-]{1,63}){0,3}\\.(?:vn|com|net|org|edu|gov|info|io|ai|tv|biz|asia|app|dev)(?:/[^\\s<>"]{0,300}[^\\s<>".,;:!?)\\]])?(?![\\p{L}\\p{N}_]))',
);

const versionRule: Rule = {
  name: 'version',
  // 2.1.3, 192.168.1.1: parts read with "chấm"; "1.500.000" (groups of three) stays a number.
  pattern: `${START}(?!\\d{1,3}(?:\\.\\d{3})+(?!\\.?\\d))\\d{1,4}(?:\\.\\d{1,4}){2,3}${END}`,
  rewrite([whole]) {
    if (!whole) return undefined;
    return whole
      .split('.')
      .map((part) => viCardinal(part))
      .join(' chấm ');
  },
};

/** "3tr2", "1tr5/tháng": millions and the next digit of them, as said ("ba triệu hai"), and what they are per. */
const shortMillionsRule: Rule = {
  name: 'money',
  // "2tr5": two million five (hundred thousand); "1tr300k": the thousands written out, "một triệu ba
  // trăm nghìn".
  pattern: `${START}(\\d{1,3})tr(?:(\\d{1,3})[kK]|(\\d))(?:\\/${SP}?(\\p{Ll}{1,8}))?(?![\\p{L}\\p{N}_]|[.,]\\d)`,
  rewrite([whole, millions, thousands, next, per], ctx) {
    if (!whole || !millions || !(next || thousands)) return undefined;
    const perWords = per ? perUnitWords(per, ctx) : undefined;
    if (per && !perWords) return undefined;
    const rest = thousands ? `${viCardinal(String(Number(thousands)))} nghìn` : viCardinal(next ?? '');
    return `${viCardinal(millions)} triệu ${rest}${perWords ? ` trên ${perWords}` : ''}`;
  },
};

const scaleRateRule: Rule = {
  name: 'money',
  // "80,5 triệu đồng/lượng", "25 nghìn đồng/kg", "90 USD/thùng": a price per unit after an amount
  // and its scale word, read with "trên" (the unit looked up as after a number).
  pattern: `(?=[đUVEe])(?<=\\d${SP}?(?:nghìn|ngàn|triệu|tỷ|tỉ|k|tr)${SP}*)(đồng|đ|USD|VNĐ|VND|Euro|EUR|euro)/([\\p{L}µμ]{1,6}[23²³]?)(?![\\p{L}\\p{N}_])`,
  rewrite([whole, currency, per], ctx) {
    if (!whole || !currency || !per) return undefined;
    const money = VI_CURRENCIES.get(currency) ?? currency.toLowerCase();
    const perWords = perUnitWords(per, ctx);
    return perWords ? `${money} trên ${perWords}` : undefined;
  },
};

/** Words an emergency or service number follows: "Trung tâm Cấp cứu 115", "gọi 113", "tổng đài 116". */
const SERVICE_WORDS = [
  'cấp cứu',
  'gọi',
  'gọi ngay',
  'gọi đến',
  'gọi tới',
  'gọi điện',
  'gọi điện đến',
  'gọi điện tới',
  'tổng đài',
  'đường dây nóng',
  'số',
  'số điện thoại',
  'liên hệ',
].map((w) => w.replace(/^\p{Ll}/u, (c) => `[${c}${c.toLocaleUpperCase('vi')}]`).replace(/ /g, `${SP}+`));
/** …or a hospital's name, the number its last word: "Bệnh viện Gia An 115", "BV Nhân dân 115". */
const SERVICE_BEFORE = `(?<=(?:^|[^\\p{L}])(?:(?:${SERVICE_WORDS.join('|')})|(?:[Bb]ệnh${SP}+viện|BV)(?:${SP}+(?:\\p{Lu}\\p{Ll}*|dân)){0,4}),?${SP}+)`;
/** After "số", a place's name or a street word: the number is a house's ("số 115 Trần Phú"). */
const ADDRESS_AFTER = /^[ \u00A0]+(?:\p{Lu}|(?:đường|phố|ngõ|hẻm|ngách|kiệt|tổ|thôn|ấp|khu)(?!\p{L}))/u;

const serviceNumberRule: Rule = {
  name: 'telephone',
  // "Trung tâm Cấp cứu 115", "gọi 113", "đường dây nóng 111", "Bệnh viện Gia An 115": the emergency
  // and service numbers 111 to 116, said digit by digit after such a word or a hospital's name;
  // elsewhere a number ("115 người"), and a house's after "số" ("số 115 Trần Phú").
  pattern: `(?=11[1-6]${END})${SERVICE_BEFORE}11[1-6]`,
  rewrite([whole], ctx) {
    if (!whole) return undefined;
    const house =
      /số[ \u00A0]+$/u.test(before(ctx, 8)) && ADDRESS_AFTER.test(ctx.input.slice(ctx.end, ctx.end + 8));
    return house ? { out: viCardinal(whole), name: 'cardinal' } : viDigits(whole);
  },
};

const plateRule: Rule = {
  name: 'telephone',
  // A vehicle's plate: "51B-123.45", "59X1-123.45", "30A 12345": the province's number, the series
  // letters by name, then the digits one by one.
  pattern: `${START}(\\d{2})([A-ZĐ]{1,2})(\\d?)[- ](\\d{3}\\.\\d{2}|\\d{4,5})(?![\\p{L}\\p{N}_]|[.,]\\p{N})`,
  rewrite([whole, province, series, seriesDigit, rest]) {
    if (!whole || !province || !series || !rest) return undefined;
    const head = [viCardinal(province), spellVi(series), seriesDigit ? viDigits(seriesDigit) : '']
      .filter(Boolean)
      .join(' ');
    return `${head}, ${viDigits(rest)}`;
  },
};

/** Video resolutions: "1080p", "720p", "4320p" (progressive, "pê"), "1080i" (interlaced, "i"). */
const resolutionRule: Rule = {
  name: 'measure',
  pattern: `${START}(144|240|360|480|540|576|720|1080|1440|2160|4320)([pi])(?![\\p{L}\\p{N}_])`,
  rewrite: ([whole, lines, scan]) =>
    whole && lines && scan
      ? [
          piece(viCardinal(lines), 0, lines.length),
          piece(scan === 'p' ? ' pê' : ' i', lines.length, whole.length),
        ]
      : undefined,
};

/** A size joined to its unit by a hyphen, the English way: "4.9-inch", "6,1-inch", "55-inch". */
const hyphenedSizeRule: Rule = {
  name: 'measure',
  // The hyphen is silent; a point before the unit is the decimal comma written the English way.
  pattern: `${START}(\\d{1,3}(?:[.,]\\d{1,2})?)-(inch|in)(?![\\p{L}\\p{N}_])`,
  rewrite([whole, size, unit], ctx) {
    const value = size ? parseViNumber(size) : undefined;
    if (!whole || !size || !unit || !value) return undefined;
    const unitText = unitWords(unit, value, ctx);
    if (!unitText) return undefined;
    return [
      piece(viNumberWords({ ...value, point: false }), 0, size.length),
      piece(` ${unitText}`, size.length, whole.length),
    ];
  },
};

const inchMarkRule: Rule = {
  name: 'measure',
  // "[10”]", "13.3” ~ 17.3”": a screen's size with an inch mark, "inh" (a point before it is the
  // decimal comma written the English way); a mark that closes a quote ("“Top 10”") is a quote.
  pattern: `${START}(\\d{1,3}(?:[.,]\\d{1,2})?)[”″](?![\\p{L}\\p{N}])`,
  rewrite([whole, size], ctx) {
    const value = size ? parseViNumber(size) : undefined;
    if (!whole || !size || !value) return undefined;
    if (closesAQuote(ctx, whole.slice(-1)))
      return { out: viNumberWords(value), end: size.length, name: 'cardinal' };
    return [
      piece(viNumberWords({ ...value, point: false }), 0, size.length),
      piece(' inh', size.length, whole.length),
    ];
  },
};

/** Words just before a person's height ("cao 1m3", "trẻ em dưới 1m3"): "1m2", "1m3" there are not square or cubic metres. */
const HEIGHT_BEFORE = `(?<=(?:^|[^\\p{L}])(?:cao|trẻ em|trẻ|bé|học sinh)[^\\p{L}\\p{N}][^\\p{N}.;\\n]{0,12}1m)`;

const heightRule: Rule = {
  name: 'measure',
  // "cao 1m65", "1m7": metres and centimetres of a height, "một mét sáu mươi lăm" ("5m2", "5m3"
  // are square and cubic metres, but "trẻ em dưới 1m3" a height); "16m50" (the penalty area), "12m40":
  // two-digit metres with two digits after.
  pattern: `${START}(\\d|[1-9]\\d(?=m\\d{2}))m(\\d{2}|[014-9]|${HEIGHT_BEFORE}[23])(?![\\p{L}\\p{N}_]|[.,]\\p{N})`,
  rewrite: ([whole, m, cm]) => (whole && m && cm ? `${viCardinal(m)} mét ${viCardinal(cm)}` : undefined),
};

const dimensionsRule: Rule = {
  name: 'measure',
  // "20x30cm", "20x30x40 cm", "2x2m", "1,5x2m": the sides of a size with "x" written against them,
  // "nhân" between, the unit said once at the end (an unknown word after it is left as written).
  pattern: `${START}(\\d+(?:[.,]\\d+)?(?:[x×]\\d+(?:[.,]\\d+)?){1,3})(?![\\p{N}]|[.,]\\p{N})(?:${SP}?([\\p{L}µμ]{1,5}[23²³]?|%))?(?![\\p{L}\\p{N}_])`,
  rewrite([whole, sides, unit], ctx) {
    if (!whole || !sides) return undefined;
    const parts = [...sides.matchAll(/[^x×]+/gu)];
    const last = parseViNumber((parts.at(-1) as RegExpMatchArray)[0]);
    const unitText = unit === '%' ? 'phần trăm' : unit && last ? unitWords(unit, last, ctx) : undefined;
    const pieces: OutPiece[] = [];
    for (const m of parts) {
      const value = parseViNumber(m[0]);
      if (!value) return undefined;
      // "1.5x2m", "5×18.2": a point in a size or a product is the decimal comma written the English way.
      const words = viNumberWords({ ...value, point: false });
      if (m.index > 0) pieces.push(piece(' nhân ', m.index - 1, m.index));
      pieces.push(piece(words, m.index, m.index + m[0].length));
    }
    if (unitText && unit) pieces.push(piece(` ${unitText}`, sides.length, whole.length));
    return apart(pieces, ctx, 'measure');
  },
};

const endMarkRule: Rule = {
  name: 'symbol',
  // "… 76,2 tuổi./.": the closing mark of an official or press text, not said (eSpeak read its
  // slash); its full stop stays.
  pattern: `\\./\\.(?=[ \\t\u00A0]*(?:\\n|$))`,
  rewrite: () => '.',
};

/** Where the word after a choice's slash ends: not in an address or a code ("thoi-su", "a/b.c"). */
const CHOICE_END = '(?![\\p{L}\\p{N}/.@_-])';
const choiceSlashRule: Rule = {
  name: 'symbol',
  // "nạc/gân", "học sinh/sinh viên", "và/hoặc", "đặc biệt/Thương gia", "Cân nặng/ chiều cao": a
  // slash between two words (not in capitals) is a choice, "hoặc" ("và/hoặc": "và hoặc"); not in a
  // rate ("km/h", "đồng/tháng", "8 người/phòng": the rules before) nor in an address
  // ("vnexpress.net/thoi-su"); two capitalised words are names ("Nguyễn Hùng/Dân trí", a credit's
  // sources: the rules after).
  pattern: `/(?:(?<=(?:^|[^\\p{L}\\p{N}./:@_-])\\p{Ll}{2,}/)(?=[ \u00A0]?\\p{L}\\p{Ll}+${CHOICE_END})|(?<=(?:^|[^\\p{L}\\p{N}./:@_-])\\p{Lu}\\p{Ll}+/)(?=[ \u00A0]?\\p{Ll}{2,}${CHOICE_END}))`,
  rewrite(_groups, ctx) {
    const left = /\p{Ll}+$/u.exec(before(ctx, 12))?.[0] ?? '';
    const right =
      /^[ \u00A0]?(\p{L}+)/u.exec(
        ctx.input.slice(ctx.index + 1, ctx.index + 14).toLocaleLowerCase('vi'),
      )?.[1] ?? '';
    const unit = (w: string) => VI_UNITS.has(w) || ctx.options.units?.has(w) || PER_NOUN_WORD.test(w);
    if (
      unit(left) ||
      unit(right) ||
      /\d[ \u00A0]*\p{Ll}+$/u.test(ctx.input.slice(Math.max(0, ctx.index - 16), ctx.index))
    )
      return undefined;
    return left === 'và' && right === 'hoặc' ? ' ' : ' hoặc ';
  },
};

const nameThenAcronymRule: Rule = {
  name: 'acronym',
  // "MiniEV", "SmartTV": a capitalised word with an acronym glued after it, the word as written and
  // the acronym spelt ("Mini e vê"); eSpeak read the whole as one English word.
  pattern: `(\\p{Lu}\\p{Ll}{2,})(\\p{Lu}{2,4})(?![\\p{L}\\p{N}_])`,
  rewrite([whole, word, acronym], ctx) {
    if (!whole || !word || !acronym || /[\p{L}\p{N}_]/u.test(ctx.input[ctx.index - 1] ?? ''))
      return undefined;
    return [piece(word, 0, word.length), piece(` ${spellVi(acronym)}`, word.length, whole.length)];
  },
};

const listRule: Rule = {
  name: 'cardinal',
  // "các khối 2,3,4,5", "lớp 10,11,12": three or more small numbers with commas and no spaces are
  // a list, not a decimal ("2,3" alone stays a decimal); so are years one after another ("các năm
  // 2023, 2024,2025": no decimal has a year's four digits after its comma).
  pattern: `${START}(?:\\d{1,2}(?:,\\d{1,2}){2,}|(?:19|20)\\d\\d,(?:19|20)\\d\\d)${END}`,
  rewrite([whole]) {
    if (!whole) return undefined;
    const [a, b] = whole.split(',').map(Number);
    if (whole.length === 9 && Math.abs(b! - a!) > 10) return undefined;
    const pieces: OutPiece[] = [];
    let at = 0;
    for (const item of whole.split(',')) {
      if (at > 0) pieces.push(piece(', ', at - 1, at));
      pieces.push(piece(viCardinal(String(Number(item))), at, at + item.length));
      at += item.length + 1;
    }
    return pieces;
  },
};

/**
 * Time and count nouns a rate is given per ("8.000 bệnh nhân/ngày", "5 lượt/tuần", a cage's "20-25
 * con/ô"); gold's tael and its tenth ("70 triệu đồng/ lượng", "5,8 triệu đồng/chỉ").
 */
const PER_NOUN =
  '(?:ngày|đêm|tuần|tháng|quý|năm|giờ|phút|giây|người|lượt|ca|hộ|xe|chuyến|trận|lần|phim|rạp|suất|vé|khách|trường|lớp|phiên|buổi|kỳ|đợt|phòng|căn|chiếc|con|bao|gói|hộp|thùng|ô|lượng|chỉ)';

const PER_NOUN_WORD = new RegExp(`^${PER_NOUN}$`, 'u');

/** Units a price or a grade is given per, written after a word or an acronym ("đồng/độ TSC/kg", "Nhân dân tệ/tấn"). */
const PRICE_UNIT = '(?:kg|tấn|tạ|lít|ha|m2|m²|m3|m³)(?![\\p{L}\\p{N}_])';

const perPriceUnitRule: Rule = {
  name: 'measure',
  // "422 đồng/độ TSC/kg", "14.915 Nhân dân tệ/tấn", "23.221 đồng/USD": a price per a unit (or a
  // currency) after a word (not an address: no dot or digit in the word) is "trên" the unit; so
  // is the "/" after "đồng" before a grade in capitals ("đồng/TSC/kg"). A table's heading "đ/kg"
  // is "đồng trên ki lô gam".
  pattern: `/(?<=(?:^|[\\s(])\\p{L}+/|/\\p{Lu}{2,}/)(?:(${PRICE_UNIT}|(?<=đồng/)(?:USD|EUR|JPY|CNY|GBP|KRW)(?![\\p{L}\\p{N}_]))|(?<=đồng/)(?=\\p{Lu}{2,}/${PRICE_UNIT}))|(?<=(?:^|[\\s(]))(đ|VNĐ|VND)/(${PRICE_UNIT})`,
  rewrite([whole, unit, currency, perUnit], ctx) {
    if (whole === undefined) return undefined;
    const unitName = (u: string) =>
      ctx.options.units?.get(u)?.one ?? VI_UNITS.get(u) ?? VI_CURRENCIES.get(u) ?? u;
    if (currency && perUnit) return `${VI_CURRENCIES.get(currency) ?? currency} trên ${unitName(perUnit)}`;
    return unit ? ` trên ${unitName(unit)}` : ' trên ';
  },
};

const perNounRule: Rule = {
  name: 'measure',
  // "8.000 bệnh nhân/ngày", "6 muỗng cà phê/ngày", "4 liều/24 giờ", "90 mg/kg/24 giờ", "triệu
  // đồng/người/tháng", "112,2 bé trai/100 bé gái": a count of a noun (up to four words, a rate's
  // "/" among them), then "/" and a time or count noun or another count of a noun, "trên"; so is
  // a measure written against its unit ("1 kg rễ tươi/200m3": "trên hai trăm mét khối").
  pattern: `/(?<=\\d${SP}*(?:\\p{Ll}+(?:${SP}|/)){0,3}\\p{Ll}+${SP}?/)(?:(?=${SP}?${PER_NOUN}(?![\\p{L}\\p{N}_]))|(\\d+(?:,\\d+)?)(?=${SP}+(\\p{Ll}+))|(\\d+(?:[.,]\\d+)?)(m2|m3|m²|m³|km2|kg|ml|km|ha)(?![\\p{L}\\p{N}_]))`,
  rewrite([whole, n, next, measure, unit], ctx) {
    if (!whole) return undefined;
    if (measure && unit) {
      const value = parseViNumber(measure);
      const unitName = VI_UNITS.get(unit);
      if (!value || !unitName) return undefined;
      return [
        piece(' trên ', 0, 1),
        piece(viNumberWords({ ...value, point: false }), 1, 1 + measure.length),
        piece(` ${unitName}`, 1 + measure.length, whole.length),
      ];
    }
    if (!n) return ' trên ';
    // A second amount with its unit ("5 kg/100 g") is the amount rule's (before this one).
    if (next && (VI_UNITS.has(next) || ctx.options.units?.has(next))) return undefined;
    return perCount(n);
  },
};

const moneyPerRule: Rule = {
  name: 'measure',
  // "hàng trăm triệu đồng/m2", "vài triệu đồng/tháng": a price per a unit or a time with no
  // number just before, "trên".
  pattern: `/(?<=(?:^|[^\\p{L}])đồng/)([\\p{L}\\d²³]{1,6})(?![\\p{L}\\p{N}_])`,
  rewrite([whole, per], ctx) {
    if (!whole || !per) return undefined;
    // "10.000 đồng/CP": a share's price, "trên cổ phiếu".
    const words =
      ctx.options.units?.get(per)?.one ??
      VI_UNITS.get(per) ??
      (PER_NOUN_WORD.test(per) ? per : per === 'CP' ? 'cổ phiếu' : undefined);
    return words ? ` trên ${words}` : undefined;
  },
};

/** "/24" of "4 liều/24 giờ": "trên" and the count, the noun after it left to the other rules. */
function perCount(n: string): RuleReading | undefined {
  const number = sayViNumber(n);
  if (!number) return undefined;
  return { out: [piece(' trên ', 0, 1), piece(number, 1, 1 + n.length)], name: 'measure', end: 1 + n.length };
}

const perAmountRule: Rule = {
  name: 'measure',
  // "210.000ha/1,6 triệu hécta", "83,2%/50%": an amount with its unit, "/" and the amount it is
  // out of, read "trên" and the second amount as the quantity rule reads it.
  pattern: `/(?<=\\d(?:[%‰]|${SP}?\\p{Ll}{1,5}[23²³]?)/)(?=\\d)(${NUMBER})${END}(?:${SP}?(${SUFFIX}))?`,
  rewrite([whole, n, s], ctx) {
    if (!whole || !n) return undefined;
    const unit = /(?:[%‰]|\p{Ll}{1,5}[23²³]?)$/u.exec(
      ctx.input.slice(Math.max(0, ctx.index - 6), ctx.index),
    )?.[0];
    // "72.733 vé/3.926 suất chiếu": a count of a noun out of a count of another, "trên" too.
    // So is an informal price out of a count ("giá 15k/20 cốc": "mười lăm nghìn trên hai mươi cốc").
    const counted =
      /\d(?:[ \u00A0]+\p{Ll}+|[kK]|tr)\/$/u.test(
        ctx.input.slice(Math.max(0, ctx.index - 8), ctx.index + 1),
      ) && /^[ \u00A0]+\p{Ll}/u.test(ctx.input.slice(ctx.index + 1 + n.length, ctx.index + n.length + 4));
    if (!unit || !(counted || /^[%‰]$/u.test(unit) || VI_UNITS.has(unit) || ctx.options.units?.has(unit)))
      return undefined;
    const rest = quantityRule.rewrite([whole.slice(1), n, s], { ...ctx, index: ctx.index + 1 });
    // "4 liều/24 giờ": a count out of a time the amount rule leaves, "trên" and the count.
    if (rest === undefined || typeof rest === 'string') return counted ? perCount(n) : undefined;
    const reading = Array.isArray(rest) ? { out: rest } : rest;
    if (typeof reading.out === 'string') return undefined;
    const shifted = reading.out.map((p) => piece(p.text, p.from + 1, p.to + 1));
    return {
      out: [piece(' trên ', 0, 1), ...shifted],
      name: 'measure',
      end: reading.end === undefined ? undefined : reading.end + 1,
    };
  },
};

const groupedRatioRule: Rule = {
  name: 'fraction',
  // "45.799/36.875 tỷ đồng", "8.793/6.500 đảng viên": an amount out of a target, both grouped in
  // thousands, read "trên".
  pattern: `${START}(\\d{1,3}(?:\\.\\d{3})+)/(\\d{1,3}(?:\\.\\d{3})+)${END}`,
  rewrite([whole, a, b], ctx) {
    // "số 1.234/5.678": a document's number, left as written.
    if (!whole || !a || !b || isCode(before(ctx))) return undefined;
    const left = sayViNumber(a);
    const right = sayViNumber(b);
    if (!left || !right) return undefined;
    return [piece(left, 0, a.length), piece(` trên ${right}`, a.length, whole.length)];
  },
};

const timesRule: Rule = {
  name: 'measure',
  // "1.440 x 2.560 pixel", "20 x 30 cm", "3 × 4": a size or a product, "nhân"; so is an "x"
  // between a measure and the next side's name ("dài 60cm x rộng 30cm x cao 80cm").
  // "Hộp 5 Vỉ x 10 Viên": counts of packs.
  pattern: `[x×](?<=\\d${SP}*(?:\\p{L}{1,4}${SP}*)?${SP}[x×])(?=${SP}+(?:\\d|(?:dài|rộng|cao|sâu|dày)(?![\\p{L}])))|×(?<=\\d×)(?=\\d)`,
  rewrite: ([whole]) => (whole === '×' ? ' nhân ' : 'nhân'),
};

/** Time and count nouns, and units, after which a spaced dash and a number make a range ("từ 06 tháng - 03 năm", "1 mét - 1,3 mét"). */
const RANGE_NOUN =
  '(?:năm|tháng|ngày|tuần|giờ|phút|giây|người|lần|tuổi|triệu|tỷ|tỉ|nghìn|ngàn|mét|m|cm|km|kg|lít)';

const nounRangeRule: Rule = {
  name: 'range',
  // "từ 06 tháng - 03 năm", "2 năm – 5 năm": a spaced dash between two counts, "đến".
  pattern: `[-–](?<=\\d${SP}+${RANGE_NOUN}${SP}+[-–])(?=${SP}+\\d)`,
  rewrite: () => 'đến',
};

const SIGN_WORDS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    '≥': 'lớn hơn hoặc bằng',
    '≤': 'nhỏ hơn hoặc bằng',
    '≠': 'khác',
    '±': 'cộng trừ',
    '≈': 'xấp xỉ',
    '~': 'khoảng',
    '=': 'bằng',
    '+': 'cộng',
  }),
);

const aircraftRule: Rule = {
  name: 'cardinal',
  // "chiếc Boeing 747": an airliner's model digit by digit, "bảy bốn bảy".
  pattern: `(?=\\d{3}(?!\\d))(?<=(?:^|[^\\p{L}])Boeing${SP})\\d{3}(?![\\p{L}\\p{N}_]|[.,-]\\d)`,
  rewrite: ([whole]) => (whole ? viDigits(whole) : undefined),
};

/**
 * The names a document's code is cited with, where they differ from the letters' usual names
 * (vi-letters.ts): "NĐ-CP" en đê xê pê, "BGTVT" bê giê tê vê tê, "BYT" bê i tê.
 */
const CODE_LETTER_NAMES: Readonly<Record<string, string>> = { G: 'giê', M: 'em', N: 'en', Y: 'i' };

/** A code's part as a reader spells it: the letters by name, a number after them in words ("QH13" quy hát mười ba). */
function spellCodePart(part: string): string {
  return (part.match(/\d+|\D/gu) ?? [])
    .map((run) =>
      /^\d/u.test(run)
        ? run.length > 3
          ? viDigits(run)
          : viCardinal(run)
        : (CODE_LETTER_NAMES[run] ?? spellVi(run)),
    )
    .join(' ');
}

/** A code's part in a document's number: capitals, a small letter among them ("TTr" tờ trình). */
const DOCUMENT_CODE = '[A-ZĐ]+(?:[a-zđ][A-ZĐ]*)?';
/** Kinds of document before a number and a year alone ("Thông tư số 10/2019", "Nghị định 15/2020"). */
const DOCUMENT_BEFORE = `(?:^|[^\\p{L}])(?:[Tt]hông tư|[Nn]ghị định|[Qq]uyết định|[Nn]ghị quyết|[Ll]uật|[Cc]hỉ thị|[Cc]ông văn|[Vv]ăn bản|[Tt]ờ trình|[Kk]ế hoạch|[Pp]háp lệnh)(?:${SP}+số)?${SP}+`;

const documentNumberRule: Rule = {
  name: 'abbreviation',
  // "Luật số 10/2012/QH13", "Nghị định 161/2018/NĐ-CP", "Thông tư 13/2007-TT-BYT", "văn bản số
  // 1277/BGDĐT-QLCL", "Tờ trình số 1818/TTr-VP": a legal document's number, its year and its
  // issuer's code; each "/" is "trên", the code spelt letter by letter (its hyphens unsaid), as the
  // document is cited aloud; "Thông tư số 10/2019", its number and year.
  pattern: `(?=\\d)(?<![\\p{L}\\p{N}_./-])(\\d{1,5})/(?:(?:(\\d{4})([/-]))?(${DOCUMENT_CODE}\\d*(?:-${DOCUMENT_CODE}\\d*)*)|(?<=${DOCUMENT_BEFORE}\\d{1,5}/)((?:19|20)\\d{2}))(?![\\p{L}\\p{N}_]|[/-]\\p{L}|[.,]\\d)`,
  rewrite([whole, number, year, separator, code, yearOnly]) {
    // "Thông tư số 10/2019": a document named with its number and year only.
    if (whole && number && yearOnly)
      return `${viCardinal(String(Number(number)))} trên ${viCardinal(yearOnly)}`;
    if (!whole || !number || !code) return undefined;
    // Without a year the code names its issuer and office ("BGDĐT-QLCL"): one part is a unit or a currency.
    if (!year && !code.includes('-')) return undefined;
    const spelt = code.split('-').map(spellCodePart).join(' ');
    const yearWords = year ? ` trên ${viCardinal(year)}${separator === '/' ? ' trên' : ''}` : ' trên';
    // "số 07/2021/QĐ-UBND": the number's leading zero is not said.
    return `${viCardinal(String(Number(number)))}${yearWords} ${spelt}`;
  },
};

const monthListRule: Rule = {
  name: 'date',
  // "tháng 2,3 năm 2019": two months, "tháng hai, ba"; no month has a decimal.
  pattern: `(?=\\d)(?<=(?:^|[^\\p{L}])[Tt]háng${SP})(\\d{1,2}),(\\d{1,2})(?![\\p{N}]|[.,]\\d)`,
  rewrite([whole, a, b]) {
    if (!whole || !a || !b || Number(a) < 1 || Number(b) > 12 || Number(b) <= Number(a)) return undefined;
    return [piece(viMonth(Number(a)), 0, a.length), piece(`, ${viMonth(Number(b))}`, a.length, whole.length)];
  },
};

/** The units of a measure given twice (`equivalentMeasureRule`), by what they measure. */
const EQUIVALENT_UNITS: Readonly<Record<string, 'mass' | 'length' | 'data'>> = {
  kg: 'mass',
  g: 'mass',
  lb: 'mass',
  lbs: 'mass',
  oz: 'mass',
  cm: 'length',
  mm: 'length',
  m: 'length',
  in: 'length',
  ft: 'length',
  MB: 'data',
  GB: 'data',
  TB: 'data',
};
const EQUIVALENT_UNIT = Object.keys(EQUIVALENT_UNITS).join('|');

const equivalentMeasureRule: Rule = {
  name: 'measure',
  // "10kg/22lb", "45in/115cm": a measure then the same in other units, "hoặc"; the first is read
  // by the measure rule, the slash and the second here ("mười ki lô gam hoặc hai mươi hai pao").
  // "32GB/64GB/128GB": the same unit, a choice of sizes, "hoặc" as well.
  pattern: `/(?<=\\d${SP}?(?:${EQUIVALENT_UNIT})/)(\\d+(?:[.,]\\d+)?)(${EQUIVALENT_UNIT})(?![\\p{L}\\p{N}])`,
  rewrite([whole, amount, symbol], ctx) {
    if (!whole || !amount || !symbol) return undefined;
    const first = /\p{L}+$/u.exec(ctx.input.slice(Math.max(0, ctx.index - 4), ctx.index))?.[0];
    if (!first || EQUIVALENT_UNITS[first] !== EQUIVALENT_UNITS[symbol]) return undefined;
    const value = parseViNumber(amount);
    const unit = value && unitWords(symbol, value, ctx);
    return value && unit ? ` hoặc ${viNumberWords(value)} ${unit}` : undefined;
  },
};

const slashScoreRule: Rule = {
  name: 'score',
  // "vượt dẫn 20/18", "cân bằng 20/20", "thắng 23/21": a score written with a slash after a word of
  // the game, each side said ("hai mươi mười tám"), never a date or a fraction.
  pattern: `(?=\\d{1,2}/\\d)(?<=(?:^|[^\\p{L}])(?:${SCORE_WORDS})${SP}+)(\\d{1,2})/(\\d{1,2})(?![\\p{N}/]|[.,]\\d)`,
  rewrite: ([whole, a, b]) =>
    whole && a && b
      ? [piece(viCardinal(a), 0, a.length), piece(` ${viCardinal(b)}`, a.length, whole.length)]
      : undefined,
};

const weekdayRangeRule: Rule = {
  name: 'range',
  // "(thứ 2-thứ 6)": a dash between two weekdays, "đến".
  pattern: `[-–](?<=[Tt]hứ${SP}?[2-7]${SP}?[-–])(?=${SP}?(?:[Tt]hứ${SP}?[2-7]|[Cc]hủ nhật))`,
  rewrite: () => ' đến ',
};

const videoResolutionRule: Rule = {
  name: 'acronym',
  // "TV 8K", "màn hình 4K", "quay video 8K", "8K UHD": a picture's resolution, "tám ca"; elsewhere
  // "8K" is eight thousand (informal prices, "8K đồng").
  pattern: `(?=[2-8]K)(?:(?<=(?:^|[^\\p{L}])(?:TV|tivi|ti vi|màn hình|video|camera|QLED|OLED|LED|phân giải|dòng|chuẩn|quay)${SP}+)[2-8]K(?![\\p{L}\\p{N}_])|(?<![\\p{L}\\p{N}_])[2-8]K(?=${SP}+(?:UHD|HDR|OLED|QLED|TV)(?![\\p{L}])))`,
  rewrite: ([whole]) => (whole ? `${viCardinal(whole.charAt(0))} ca` : undefined),
};

/**
 * Units a table's column names in parentheses, with no number ("Calo (kcal)", "Lĩnh lãi cuối kỳ
 * (%/năm)", "Diện tích (ha)"): symbols of two letters or more that are no word or code ("(in)",
 * "(TB)" trung bình are left), longest first.
 */
const HEADING_UNIT = [...VI_UNITS.keys()]
  .filter((u) => u.length >= 2 && !/^(?:in|ph|lit|Lit|gr|nits?|feet|inch|gram|ounce|cc|[A-Z]{2})$/u.test(u))
  .sort((a, b) => b.length - a.length)
  .map((u) => u.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
  .join('|');

const headingUnitRule: Rule = {
  name: 'measure',
  // "Calo (kcal)" "Calo (ki lô ca lo)", "(%/năm)" "(phần trăm trên năm)": a column's unit said as
  // after a number (eSpeak said "kcal" as one English word, and nothing for "%/").
  pattern: `\\((${HEADING_UNIT}|%)(?:/(${PER_NOUN}|${HEADING_UNIT}))?\\)`,
  rewrite([whole, unit, per], ctx) {
    if (!whole || !unit) return undefined;
    const words = (u: string) => (u === '%' ? 'phần trăm' : (perUnitWords(u, ctx) ?? u));
    return `(${words(unit)}${per ? ` trên ${words(per)}` : ''})`;
  },
};

/**
 * Unit symbols no word is written like, mixing cases or gluing a scale to a unit ("đo bằng GHz",
 * "dung lượng tính bằng mAh"): read as units with no number before them too.
 */
const LONE_UNIT = 'GHz|MHz|kHz|kWh|MWh|mAh|kcal|Kcal|Mbps|Gbps|kbps|Kbps|mmHg|mmol';

const loneUnitRule: Rule = {
  name: 'measure',
  // "Tốc độ CPU được đo bằng GHz (gigahertz)": "di ga héc" (eSpeak said the letters as one
  // English word).
  pattern: `(?=[GMkKm])(?<![\\p{L}\\p{N}_.\\-/])(?:${LONE_UNIT})(?![\\p{L}\\p{N}_])`,
  rewrite: ([whole], ctx) => (whole ? (perUnitWords(whole, ctx) ?? whole) : undefined),
};

const unitAfterEachRule: Rule = {
  name: 'measure',
  // "mỗi kWh điện", "mỗi kg": a unit after "mỗi" is said with no number before it.
  pattern: `(?=[kMGmµc])(?<=(?:^|[^\\p{L}])mỗi${SP}+)[kMGmµc]?(?:Wh|Wp|W|m[23²³]?|g|l)(?![\\p{L}\\p{N}])`,
  rewrite: ([whole], ctx) =>
    whole ? (ctx.options.units?.get(whole)?.one ?? VI_UNITS.get(whole)) : undefined,
};

const pointsPercentRule: Rule = {
  name: 'percent',
  // "tăng 1,2 điểm %": percentage points.
  pattern: `(?=%)(?<=(?:^|[^\\p{L}])điểm${SP}?)%`,
  rewrite: () => 'phần trăm',
};

const signRule: Rule = {
  name: 'symbol',
  // "≥ 11,1 mmol/l", "5 ± 0,2", "~500 người", "g = 10", "hay +1,40%": a sign before a number said as a word; a tilde
  // after a number, or a unit written after one, is a range ("5~10 kg", "90VAC~240VAC": "đến").
  pattern: `[≥≤≠±≈~](?=${SP}*[-−]?\\d)|(?<=${SP})=(?=${SP}+[-−]?\\d)|=(?<=\\d=)(?=${SP}*[-−]?\\d)|(?<=(?:^|[ \u00A0(]))\\+(?=\\d)`,
  rewrite([whole], ctx) {
    const range = whole === '~' && QUANTITY_END.test(before(ctx, 8));
    // "khoảng ~5 kg": the word is written already.
    if (whole === '~' && /(?:^|[^\p{L}])(?:khoảng|chừng|xấp xỉ)[ \u00A0]*$/iu.test(before(ctx, 12)))
      return ' ';
    const word = range ? 'đến' : whole ? SIGN_WORDS.get(whole) : undefined;
    if (!word) return undefined;
    const gap = (c: string) => (/[\p{L}\p{N}]/u.test(c) ? ' ' : '');
    return `${gap(ctx.input.charAt(ctx.index - 1))}${word}${gap(ctx.input.charAt(ctx.end))}`;
  },
};

// --- Periods, coordinates and signs after a number ----------------------------------------

const quarterYearRule: Rule = {
  name: 'date',
  // "quý 4-2023", "quý 2/2024", "Q3/2024": a quarter then its year; the dash or slash is "năm", not "đến".
  pattern: `(?=[1-4Q])(?:(?<=(?:^|[^\\p{L}])[Qq](?:uý|UÝ)${SP}+)|(?<![\\p{L}\\p{N}_.])Q(?=[1-4][-–/]))([1-4])${SP}?[-–/]${SP}?((?:19|20)\\d{2})${END}`,
  rewrite([whole, q, y]) {
    if (!whole || !q || !y) return undefined;
    const at = whole.indexOf(q);
    return [
      ...(at > 0 ? [piece('quý ', 0, at)] : []),
      piece(viCardinal(q), at, at + q.length),
      piece(` năm ${year(y)}`, at + q.length, whole.length),
    ];
  },
};

/** Words before two years joined by a dash or a slash that make them a span ("niên vụ 2013/2014"). */
const SEASON_WORDS =
  '[Nn]iên${SP}+(?:vụ|khóa|khoá|học)|[Nn]ăm${SP}+(?:học|tài${SP}+chính)|[Mm]ùa${SP}+(?:giải|vụ|bóng|thi${SP}+đấu)|[Gg]iai${SP}+đoạn|[Nn]hiệm${SP}+(?:kỳ|kì)|[Kk]hóa|[Kk]hoá|[Vv]ụ${SP}+(?:mùa|đông${SP}+xuân|hè${SP}+thu)';

const yearSpanRule: Rule = {
  name: 'range',
  // "niên vụ 2013/2014", "năm học 2023-2024", "mùa giải 2023/24", "giai đoạn 2021 - 2025": from
  // one year to the next, "đến" (not a date, not "trên").
  pattern: `(?=[12])(?<=(?:^|[^\\p{L}])(?:${SEASON_WORDS.replace(/\$\{SP\}/g, SP)})${SP}+)((?:19|20)\\d{2})(${SP}?[-–/]${SP}?)((?:19|20)?\\d{2})${END}`,
  rewrite([whole, a, sep, b]) {
    if (!whole || !a || !sep || !b) return undefined;
    const last = b.length === 2 ? viCardinal(String(Number(b))) : year(b);
    if (Number(b.length === 2 ? a.slice(0, 2) + b : b) <= Number(a)) return numbersOnly(whole);
    return [piece(year(a), 0, a.length), piece(` đến ${last}`, a.length, whole.length)];
  },
};

/** A coordinate's hemisphere: north and south of the equator, east and west of the meridian. */
const HEMISPHERES: Readonly<Record<string, [string, string]>> = {
  N: ['vĩ', 'Bắc'],
  S: ['vĩ', 'Nam'],
  E: ['kinh', 'Đông'],
  W: ['kinh', 'Tây'],
};
/** "vĩ tuyến", "kinh tuyến" earlier in the clause: the degrees are said without "vĩ"/"kinh" again. */
const MERIDIAN_BEFORE = /(?:vĩ|kinh)[ \u00A0]+tuyến[^.;!?\n]{0,40}$/u;

const coordinateRule: Rule = {
  name: 'measure',
  // "16,3°N; 124,6°E", "vĩ tuyến 15°N", "kinh tuyến 117°E": degrees of latitude or longitude.
  // The second of a pair written "10,5°N-115,2°E" follows its dash.
  pattern: `(?=\\d)(?:${START}|(?<=°[NS][-–]))(${NUMBER})${SP}?°${SP}?([NSEW])(?![\\p{L}\\p{N}_])`,
  rewrite([whole, amount, side], ctx) {
    const words = amount ? sayViNumber(amount) : undefined;
    const hemisphere = side ? HEMISPHERES[side] : undefined;
    if (!whole || !amount || !words || !hemisphere) return undefined;
    const [axis, direction] = hemisphere;
    const named = MERIDIAN_BEFORE.test(before(ctx, 60)) ? direction : `${axis} ${direction}`;
    return [piece(words, 0, amount.length), piece(` độ ${named}`, amount.length, whole.length)];
  },
};

const ageRatingRule: Rule = {
  name: 'cardinal',
  // "phim 18+", "nhãn 16+", "(T18+)" is not: an age rating, the plus said "cộng".
  pattern: `${START}(1[0-8]|[3-9])\\+(?![\\p{L}\\p{N}_+])`,
  rewrite: ([whole, age]) =>
    whole && age
      ? [piece(viCardinal(age), 0, age.length), piece(' cộng', age.length, whole.length)]
      : undefined,
};

// --- Tours -------------------------------------------------------------------------------

const tourDaysRule: Rule = {
  name: 'duration',
  // "Tour Đà Nẵng 4N3Đ", "(6N5Đ)": a tour's days and nights, "bốn ngày ba đêm".
  pattern: `${START}(\\d{1,2})N(\\d{1,2})Đ(?![\\p{L}\\p{N}_])`,
  rewrite([whole, days, nights]) {
    if (!whole || !days || !nights) return undefined;
    const nAt = days.length;
    return [piece(`${say(days)} ngày`, 0, nAt + 1), piece(` ${say(nights)} đêm`, nAt + 1, whole.length)];
  },
};

const starsRule: Rule = {
  name: 'measure',
  // "khách sạn 5*", "Tiêu chuẩn: 4*.": a hotel's stars, "năm sao" (not "5*3", a product).
  pattern: `${START}([1-7])\\*(?![\\p{L}\\p{N}_*]|${SP}*\\d)`,
  rewrite: ([whole, n]) =>
    whole && n ? [piece(viCardinal(n), 0, 1), piece(' sao', 1, whole.length)] : undefined,
};

const monthRangeRule: Rule = {
  name: 'range',
  // "Khởi hành: Tháng 5 - Tháng 9/2024": a dash between two months is "đến".
  pattern: `(?=[-–])(?<=[Tt]háng${SP}+\\d{1,2}${SP}*)[-–](?=${SP}*[Tt]háng${SP}+\\d)`,
  rewrite: (_, ctx) => (/\s/u.test(ctx.input.charAt(ctx.index - 1)) ? 'đến' : ' đến '),
};

const longDigitsRule: Rule = {
  name: 'cardinal',
  // "Số đăng ký | 400100004000": ten digits and more, with no separator, are an identifier, read
  // digit by digit (nobody says "bốn trăm tỷ…" of a registration number)
  pattern: `${START}(\\d{10,})${END}`,
  rewrite: ([whole]) => (whole ? viDigits(whole) : undefined),
};

const arrowRule: Rule = {
  name: 'symbol',
  // "Thanh Hóa → Yên Tử": from a place to the next, "đến"; between road codes ("CT01 → CT04 →
  // QL10") a pause
  pattern: `${SP}?→${SP}?`,
  rewrite: (_, ctx) =>
    /^\p{Lu}{1,3}\d/u.test(ctx.input.slice(ctx.end, ctx.end + 4)) &&
    /\p{Lu}{1,3}\d+[ \u00A0]?$/u.test(ctx.input.slice(Math.max(0, ctx.index - 8), ctx.index))
      ? ', '
      : ' đến ',
};

const npkRule: Rule = {
  name: 'cardinal',
  // "phân NPK 16:16:8 hoặc 20:15:15": a fertiliser's shares of nitrogen, phosphorus and potassium,
  // three numbers (never a clock time)
  pattern: `${START}(?<=NPK[^.\\n]{0,24})(\\d{1,2}):(\\d{1,2}):(\\d{1,2})${END}`,
  rewrite: ([whole, n, p, k]) =>
    whole && n && p && k ? `${viCardinal(n)} ${viCardinal(p)} ${viCardinal(k)}` : undefined,
};

const lineMarkRule: Rule = {
  name: 'symbol',
  // "+ Chuyến đầu tiên xuất bến: …", "+ Về sinh thái: …": a plus opening a line before a word is a
  // list's mark, unsaid (eSpeak said "dấu cộng"); so are the marks a word processor's symbol font
  // leaves as letters ("ü Bạt che …" a check mark, "Ø" an arrow, "§" a square).
  pattern: `(?=[+üØ§])(?<=(?:^|\\n)[ \\t\u00A0]*)[+üØ§][ \\t\u00A0]+(?=\\p{L})`,
  rewrite: () => '',
};

const plusWordRule: Rule = {
  name: 'symbol',
  // "Phương tiện: Ô tô + 04 chặng tàu", "vé + ăn trưa", "PCB40 + 31 thùng": a plus between words, "cộng".
  pattern: `(?=\\+)(?<=[\\p{L}\\p{N}]${SP})\\+(?=${SP}[\\p{L}\\p{N}])`,
  rewrite: () => 'cộng',
};

// --- Sport -------------------------------------------------------------------------------

const hundredthsRule: Rule = {
  name: 'duration',
  // "31 giây 03", "3 phút 48 giây 06": a race time's hundredths keep their zero, "giây không ba".
  pattern: `(?=0)(?<=\\d${SP}+giây${SP}+)0\\d(?![\\p{L}\\p{N}_]|[.,]\\d)`,
  rewrite: ([whole]) => (whole ? viDecimalPart(whole) : undefined),
};

const raceTimeRule: Rule = {
  name: 'duration',
  // "15:18.87", "1:02,35": minutes, seconds and hundredths of a race time, said the way the press
  // writes them out ("mười lăm phút mười tám giây tám mươi bảy"); a clock time has no hundredths.
  pattern: `${START}(\\d{1,2}):([0-5]\\d)[.,](\\d{2})(?![\\p{L}\\p{N}_]|[.,:]\\d)`,
  rewrite: ([whole, minutes, seconds, hundredths]) =>
    whole && minutes && seconds && hundredths
      ? `${viCardinal(String(Number(minutes)))} phút ${viCardinal(String(Number(seconds)))} giây ${viDecimalPart(hundredths)}`
      : undefined,
};

/** A medal's colour, or a medal written with it ("HCV"). */
const MEDAL = '(?:vàng|bạc|đồng|HC[VBĐ])';

const medalSlashRule: Rule = {
  name: 'abbreviation',
  // "HC vàng/bạc/đồng", "HCV/HCB/HCĐ": medals listed with slashes, said as a list.
  pattern: `(?=/)(?<=${MEDAL})/(?=${MEDAL}(?!\\p{L}))`,
  rewrite: () => ', ',
};

/** A quote opened before on the line and not closed: a mark after a number closes it. */
const QUOTE_OPEN_BEFORE = /(?:^|[\s(“"])['‘][^'’\n]*$/u;

const minuteMarkRule: Rule = {
  name: 'time',
  // "85'.", "(22’)", "90'+ 1:": a match's minute, as live reports mark it; "phút" is said first.
  pattern: `${START}(\\d{1,3})['’′](?:${SP}*\\+${SP}*(\\d{1,2}))?(?![\\p{L}\\p{N}'’′"”])`,
  rewrite([whole, minute, added], ctx) {
    if (!whole || !minute) return undefined;
    // "'Moana 2'", "‘Moana 2’": the quote a title opened closes after the number, read alone (so is
    // a number past a match's length).
    if (
      Number(minute) > 130 ||
      QUOTE_OPEN_BEFORE.test(ctx.input.slice(Math.max(0, ctx.index - 60), ctx.index))
    )
      return { out: viCardinal(minute), end: minute.length, name: 'cardinal' };
    const head = /phút[ \u00A0]*$/u.test(before(ctx)) ? '' : 'phút ';
    const minuteEnd = minute.length + 1;
    const pieces = [piece(`${head}${viCardinal(String(Number(minute)))}`, 0, minuteEnd)];
    if (added) pieces.push(piece(` cộng ${viCardinal(added)}`, minuteEnd, whole.length));
    return pieces;
  },
};

const numberListRule: Rule = {
  name: 'decimal',
  // "24,25 - 25,25 - 26 điểm": three numbers or more between dashes are a list, not a range.
  pattern: `${START}(?:${NUMBER})(?:${SP}+[-–]${SP}+(?:${NUMBER})){2,}${END}`,
  rewrite([whole]) {
    if (!whole) return undefined;
    const pieces: OutPiece[] = [];
    const numberAt = new RegExp(`${NUMBER}`, 'gu');
    let last = 0;
    for (const m of whole.matchAll(numberAt)) {
      const said = sayViNumber(m[0]);
      if (said === undefined) return undefined;
      if (m.index > 0) pieces.push(piece(', ', last, m.index));
      pieces.push(piece(said, m.index, m.index + m[0].length));
      last = m.index + m[0].length;
    }
    return pieces;
  },
};

const capitalHourRule: Rule = {
  name: 'time',
  // "NẾU CHỈ CÓ 24H": an hour count in a line of capitals, "giờ" (elsewhere "H" after a number is a letter).
  pattern: `${START}(\\d{1,2})H(?![\\p{L}\\p{N}_])(?<=\\p{Lu}{2}${SP}+\\d{1,2}H)`,
  rewrite([whole, hours]) {
    if (!whole || !hours) return undefined;
    return [
      piece(viCardinal(String(Number(hours))), 0, hours.length),
      piece(' giờ', hours.length, whole.length),
    ];
  },
};

const codeNumberRule: Rule = {
  name: 'cardinal',
  // "lúa IR 50404", "OM 5451", "ISO 9001": a code's number of four or five digits after its
  // letters, said digit by digit (a year, or an amount after a currency, stays a number).
  pattern: `${START}(?<=(?:^|[^\\p{L}\\p{N}_])(?!USD|VND|VNĐ|EUR|GBP|JPY|CNY)[A-Z]{2,3}${SP})(?!(?:19|20)\\d{2}(?!\\d))\\d{4,5}(?![\\p{L}\\p{N}_]|[.,]\\d)`,
  rewrite: ([whole]) => (whole ? viDigits(whole) : undefined),
};

const eraRule: Rule = {
  name: 'abbreviation',
  // "năm 257 BC", "68 AD": an era after a year, as Vietnamese says it.
  pattern: `(?=[AB])(?<=\\d${SP}?)(?:BC|AD)(?![\\p{L}\\p{N}_])`,
  rewrite: ([whole]) => (whole === 'BC' ? 'trước Công nguyên' : 'sau Công nguyên'),
};

const eraRangeRule: Rule = {
  name: 'range',
  // "(207 TCN - 906)", "257 BC – 68 AD": a dash from a year before the common era to another
  // year is "đến" (eSpeak said nothing for it, or "trừ").
  pattern: `(?=${SP}?[-–])(?<=\\d${SP}?(?:TCN|BC))${SP}?[-–]${SP}?(?=\\d)`,
  rewrite: () => ' đến ',
};

const gluedTimesRule: Rule = {
  name: 'measure',
  // "zoom lên 5x đến 6x", "quang học 3x": a glued "x" after zoom, tốc độ, gấp … is lần (elsewhere
  // "8x, 9x" are generations, left to the rules after).
  pattern: `${START}(\\d{1,3})x(?![\\p{L}\\p{N}_])(?<=(?:[Zz]oom|[Tt]hu${SP}phóng|[Pp]hóng${SP}(?:to|đại)|[Qq]uang${SP}học|[Tt]ốc${SP}độ|[Nn]hanh|[Gg]ấp)[^.;!?\\n]{0,30})`,
  rewrite: ([whole, n]) =>
    whole && n ? [piece(viCardinal(n), 0, n.length), piece(' lần', n.length, whole.length)] : undefined,
};

const dotDateThisRule: Rule = {
  name: 'date',
  // "từ 28.3 này": a day and a month with a point, "này" after them ("từ 3.5 tới 4.5" stays numbers).
  pattern: `${START}(?<=(?:^|[^\\p{L}])(?:[Tt]ừ|[Đđ]ến|[Tt]ới)${SP}+)(0?[1-9]|[12]\\d|3[01])\\.(0?[1-9]|1[0-2])(?=${SP}+này(?!\\p{L}))`,
  rewrite([whole, d, mo]) {
    if (!whole || !d || !mo || !validDay(Number(d), Number(mo))) return undefined;
    return datePieces([d, [0, d.length]], [mo, [d.length + 1, whole.length]], undefined);
  },
};

const caronRule: Rule = {
  name: 'symbol',
  // "nǎm", "Nǎm": an "a" with a caron, which old fonts' pages put for "ă", is read "ă".
  pattern: '[ǎǍ]',
  rewrite: ([whole]) => (whole === 'Ǎ' ? 'Ă' : 'ă'),
};

/** Units that are also letters or words of running text, not read after a scale word. */
const SCALE_UNIT_NOT = /^(?:[\p{L}µμ]|in|ph|ms|nit|cc)$/u;

const scaleUnitRule: Rule = {
  name: 'measure',
  // "1,684 triệu ha", "680 nghìn ha", "hàng nghìn ha": a unit's symbol after an amount's scale word
  // is read as after the number ("triệu héc ta").
  pattern: `(?=[\\p{L}µμ])(?<=(?:\\d|(?:^|[^\\p{L}])(?:hàng|vài|mấy))${SP}+(?:triệu|nghìn|ngàn|vạn|tỷ|tỉ)${SP}+)([\\p{L}µμ]{1,5}[23²³]?)(?![\\p{L}\\p{N}_])`,
  rewrite([whole], ctx) {
    if (!whole || SCALE_UNIT_NOT.test(whole) || VI_CURRENCIES.has(whole)) return undefined;
    return ctx.options.units?.get(whole)?.one ?? VI_UNITS.get(whole);
  },
};

/** Time nouns: between two of them a slash is a choice ("ngày/tuần"), not a rate. */
const TIME_NOUN = /^(?:ngày|đêm|tuần|tháng|quý|năm|giờ|phút|giây)$/u;

const perWordRule: Rule = {
  name: 'measure',
  // "(hộ/tháng)", "Giá/người/lượt 30.000đ", "(chuyên gia/ca)": a word, "/" and a time or count
  // noun ending the phrase (before a bracket, a mark, a number or another "/") is a rate, "trên";
  // "ngày/tuần" (two times) and "dân/căn cước" (a word goes on) are left to the choice rule.
  pattern: `/(?<=(?:^|[^\\p{L}\\p{N}./:@_-]|\\p{L}/)(\\p{L}+)/)(?=${PER_NOUN}(?:/|[)\\],;:.!?]|${SP}+\\d|${SP}*$))`,
  rewrite([whole, left]) {
    if (!whole || !left || TIME_NOUN.test(left.toLocaleLowerCase('vi'))) return undefined;
    return ' trên ';
  },
};

/** Letters of a legal point ("điểm d khoản 4"), as the law is read: "dê" apart from "đê", "giê". */
const POINT_LETTERS: Readonly<Record<string, string>> = { d: 'dê', g: 'giê' };

const legalPointRule: Rule = {
  name: 'acronym',
  // "điểm c, điểm g, điểm h, điểm k khoản 2": a legal point's letter, said by its name.
  pattern: `(?=[b-df-hk-np-tv-zđ])(?<=(?:^|[^\\p{L}])(?:[Đđ]iểm|ĐIỂM)${SP}+)[b-df-hk-np-tv-zđ](?![\\p{L}\\p{N}_])`,
  rewrite: ([whole]) => (whole ? (POINT_LETTERS[whole] ?? spellVi(whole)) : undefined),
};

const ratioRule: Rule = {
  name: 'fraction',
  // "tỷ lệ 10:1", "tỉ lệ 1:500": a ratio, "mười trên một".
  pattern: `${START}(?<=(?:^|[^\\p{L}])(?:[Tt]ỷ|[Tt]ỉ|TỶ|TỈ)${SP}+(?:lệ|LỆ)${SP}+)(\\d{1,4}):(\\d{1,7}|\\d{1,3}(?:\\.\\d{3})+)${END}`,
  rewrite([whole, a, b]) {
    const right = b ? sayViNumber(b) : undefined;
    if (!whole || !a || !b || !right) return undefined;
    return [piece(viCardinal(a), 0, a.length), piece(` trên ${right}`, a.length, whole.length)];
  },
};

const tableCellsRule: Rule = {
  name: 'money',
  // "90.000 90.500", "30.000đ 10.000đ 5.000đ": a table's amounts one after the other, a pause
  // between (eSpeak reads "nghìn chín mươi" as "nghìn không trăm chín mươi").
  pattern: `${SP}+(?<=\\d[.,]\\d{3}(?:đ|₫)?${SP}+)(?=\\d{1,3}(?:[.,]\\d{3})+(?:đ|₫)?(?![\\p{L}\\p{N}_]|[.,]\\d))`,
  rewrite: () => ', ',
};

const spacedThousandsRule: Rule = {
  name: 'money',
  // "100 000 Won", "1 000 000 đồng": a space as the thousands mark before a currency.
  pattern: `${START}(\\d{1,3}(?: \\d{3})+)(?=${SP}*(?:Won|won|đồng|VNĐ|VND|USD|đ|yên|euro|Euro|EUR)(?![\\p{L}\\p{N}_]))`,
  rewrite: ([whole]) => (whole ? viCardinal(whole.replace(/ /gu, '')) : undefined),
};

/** The Vietnamese reading rules, in priority order (`LanguageRules.readingRules`). */
export const VIETNAMESE_READING_RULES: Rule[] = [
  emailRule,
  urlRule,
  documentNumberRule,
  equivalentMeasureRule,
  monthListRule,
  slashScoreRule,
  weekdayRangeRule,
  aircraftRule,
  videoResolutionRule,
  quarterYearRule,
  yearSpanRule,
  wholeDateRangeRule,
  wholeDateRule(true),
  dayFirstDateRule,
  dayRangeRule,
  crossMonthRule,
  dotDayRangeRule,
  dotDateThisRule,
  dotDateRule,
  monthDotYearRule,
  phoneRule,
  spacedThousandsRule,
  ratioRule,
  longDigitsRule,
  serviceNumberRule,
  paceRule,
  allDayRule,
  crossroadsRule,
  negativeFractionRule,
  unicodeFractionRule,
  bloodPressureRule,
  decimalOutOfRule,
  slashRule,
  groupedRatioRule,
  npkRule,
  hourListRule,
  tourDaysRule,
  starsRule,
  monthRangeRule,
  lineMarkRule,
  plusWordRule,
  arrowRule,
  raceTimeRule,
  hundredthsRule,
  medalSlashRule,
  hourRule,
  clockRule,
  timeZoneRule,
  minuteMarkRule,
  numberListRule,
  capitalHourRule,
  gluedTimesRule,
  codeNumberRule,
  timesRule,
  romanRule,
  moneyBeforeRule,
  kilometreMarkerRule,
  versionRule,
  plateRule,
  heightRule,
  resolutionRule,
  hyphenedSizeRule,
  inchMarkRule,
  dimensionsRule,
  listRule,
  nameThenAcronymRule,
  endMarkRule,
  coordinateRule,
  ageRatingRule,
  shortMillionsRule,
  quantityRule,
  perAmountRule,
  perPriceUnitRule,
  perNounRule,
  moneyPerRule,
  perWordRule,
  choiceSlashRule,
  scaleRateRule,
  scaleUnitRule,
  tableCellsRule,
  signRule,
  nounRangeRule,
  pointsPercentRule,
  unitAfterEachRule,
  headingUnitRule,
  loneUnitRule,
  sundayRule,
  initialsRule,
  nameInitialRule,
  gluedInitialRule,
  capitalWordRule,
  productCodeRule,
  stormNameRule,
  eraRule,
  eraRangeRule,
  acronymRule,
  loneLetterRule,
  legalPointRule,
  caronRule,
  creditSlashRule,
];
