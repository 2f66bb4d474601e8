/**
 * Vietnamese numbers in words, as a careful reader says them: eSpeak NG's own Vietnamese
 * number reading is wrong in places ("15" → "mười năm", "50.000" → "năm mươi nghìn không
 * trăm"), so the reading rules (`./vi-reading`) hand it words. Conventions: nghìn (not ngàn),
 * linh (not lẻ), "tư" for 4 after mươi, "lăm" for 5 after mười/mươi, "mốt" for 1 after mươi
 * from 20 on; a zero group inside a number is skipped, a group under 100 after a larger one is
 * read with its hundreds ("1.050.000" → một triệu không trăm năm mươi nghìn).
 */

/** The words of the digits 0–9. */
export const VI_DIGITS = ['không', 'một', 'hai', 'ba', 'bốn', 'năm', 'sáu', 'bảy', 'tám', 'chín'] as const;

/** Longest integer read as a number; longer digit strings are read digit by digit. */
export const VI_MAX_NUMBER_DIGITS = 15;

function digitWord(d: number): string {
  return VI_DIGITS[d] as string;
}

/** The tens and units of a group: 5 → năm, 15 → mười lăm, 21 → hai mươi mốt, 24 → hai mươi tư. */
function tensAndUnits(t: number, u: number, afterHundreds: boolean): string {
  if (t === 0) {
    if (u === 0) return '';
    return afterHundreds ? `linh ${digitWord(u)}` : digitWord(u);
  }
  const tens = t === 1 ? 'mười' : `${digitWord(t)} mươi`;
  if (u === 0) return tens;
  if (u === 5) return `${tens} lăm`;
  if (t >= 2 && u === 1) return `${tens} mốt`;
  if (t >= 2 && u === 4) return `${tens} tư`;
  return `${tens} ${digitWord(u)}`;
}

/** A group of three digits (0–999); `full` reads its hundreds even when 0 ("không trăm linh năm"). */
function group(value: number, full: boolean): string {
  const h = Math.floor(value / 100);
  const t = Math.floor((value % 100) / 10);
  const u = value % 10;
  if (!full && h === 0) return tensAndUnits(t, u, false);
  const rest = tensAndUnits(t, u, true);
  return rest ? `${digitWord(h)} trăm ${rest}` : `${digitWord(h)} trăm`;
}

const SCALES = ['', 'nghìn', 'triệu'];

/** Up to 9 digits (no leading zeros unless `full`), read with nghìn and triệu. */
function belowBillion(digits: string, full: boolean): string {
  const groups: number[] = [];
  for (let end = digits.length; end > 0; end -= 3)
    groups.unshift(Number(digits.slice(Math.max(0, end - 3), end)));
  const words: string[] = [];
  groups.forEach((value, i) => {
    if (value === 0) return;
    const scale = SCALES[groups.length - 1 - i] as string;
    const spoken = group(value, full || words.length > 0);
    words.push(scale ? `${spoken} ${scale}` : spoken);
  });
  return words.join(' ');
}

/**
 * The words of a non-negative integer written as digits only ("1050000" → "một triệu không
 * trăm năm mươi nghìn"). Beyond 9 digits the part above is counted in tỷ ("một nghìn tỷ").
 * Digit strings with a leading zero or longer than 15 digits are read digit by digit.
 */
export function viCardinal(digits: string): string {
  if (!/^\d+$/.test(digits)) return digits;
  if ((digits.length > 1 && digits.startsWith('0')) || digits.length > VI_MAX_NUMBER_DIGITS)
    return viDigits(digits);
  if (/^0+$/.test(digits)) return 'không';
  return integerWords(digits, false);
}

function integerWords(digits: string, full: boolean): string {
  if (digits.length <= 9) return belowBillion(digits, full);
  const high = digits.slice(0, digits.length - 9);
  const low = digits.slice(digits.length - 9);
  const highWords = integerWords(high, full);
  const lowWords = /^0+$/.test(low) ? '' : belowBillion(low, true);
  return lowWords ? `${highWords} tỷ ${lowWords}` : `${highWords} tỷ`;
}

/** Each digit a word: "0912" → "không chín một hai". */
export function viDigits(digits: string): string {
  return [...digits.replace(/\D/g, '')].map((d) => digitWord(Number(d))).join(' ');
}

/**
 * The part after the decimal comma: up to three digits as a number with its leading zeros said
 * ("05" → "không năm", "14" → "mười bốn"); longer parts digit by digit.
 */
export function viDecimalPart(digits: string): string {
  if (digits.length > 3) return viDigits(digits);
  const zeros = /^0*/.exec(digits)?.[0].length ?? 0;
  const rest = digits.slice(zeros);
  return [...Array<string>(zeros).fill('không'), ...(rest ? [viCardinal(rest)] : [])].join(' ');
}

/** A number as parsed from what was written: its integer digits and the digits after the decimal separator. */
export interface ViNumber {
  int: string;
  frac?: string;
  /** The decimal separator was a point ("4.0", "3.5"): read "chấm", as written, not "phẩy". */
  point?: boolean;
  negative: boolean;
}

/**
 * Parses a written number: "." (or a no-break / thin space) groups thousands and "," is the
 * decimal separator ("1.234.567,5"); with both "." and "," the last one is the decimal separator
 * ("1,234.56" written the English way); "1,234,567" (several commas before groups of three) is
 * grouped the English way; a single "." not before groups of three is a decimal point ("3.5", read
 * "ba chấm năm" as written: the Vietnamese decimal separator is the comma).
 * Undefined when the groups are not groups of three.
 */
export function parseViNumber(written: string): ViNumber | undefined {
  let text = written.replace(/[\u00A0\u202F]/g, '.');
  let negative = false;
  if (/^[-−]/.test(text)) {
    negative = true;
    text = text.slice(1);
  }
  if (!/^\d[\d.,]*$/.test(text) || /[.,]$/.test(text)) return undefined;
  const lastDot = text.lastIndexOf('.');
  const lastComma = text.lastIndexOf(',');
  let thousands: string | undefined;
  let decimal: string | undefined;
  if (lastDot >= 0 && lastComma >= 0) {
    decimal = lastDot > lastComma ? '.' : ',';
    thousands = decimal === '.' ? ',' : '.';
  } else if (lastDot >= 0) {
    // "0.617": no group of thousands starts with a zero, a decimal point.
    if (/^\d{1,3}(?:\.\d{3})+$/.test(text) && !/^0\./.test(text)) thousands = '.';
    else decimal = '.';
  } else if (lastComma >= 0) {
    if (/^\d{1,3}(?:,\d{3}){2,}$/.test(text)) thousands = ',';
    else decimal = ',';
  }
  let intPart = text;
  let frac: string | undefined;
  if (decimal) {
    const at = text.lastIndexOf(decimal);
    intPart = text.slice(0, at);
    frac = text.slice(at + 1);
    if (!/^\d+$/.test(frac)) return undefined;
  }
  if (thousands) {
    const sep = thousands === '.' ? '\\.' : ',';
    if (!new RegExp(`^\\d{1,3}(?:${sep}\\d{3})+$`).test(intPart) && !/^\d+$/.test(intPart)) return undefined;
    intPart = intPart.split(thousands).join('');
  }
  if (!/^\d+$/.test(intPart)) return undefined;
  if (frac === undefined) return { int: intPart, negative };
  return decimal === '.' ? { int: intPart, frac, point: true, negative } : { int: intPart, frac, negative };
}

/** The words of a parsed number: "âm" before a negative one, "phẩy" (or "chấm" for a point) before its decimals. */
export function viNumberWords({ int, frac, point, negative }: ViNumber): string {
  // Inside a decimal the integer part is a number even with a leading zero ("0,5" → không phẩy năm).
  const whole = frac !== undefined && /^0+$/.test(int) ? 'không' : viCardinal(int);
  const words = frac !== undefined ? `${whole} ${point ? 'chấm' : 'phẩy'} ${viDecimalPart(frac)}` : whole;
  return negative ? `âm ${words}` : words;
}

/** A written number in words, or undefined when it is not one ("1.23.4"). */
export function sayViNumber(written: string): string | undefined {
  const parsed = parseViNumber(written);
  return parsed ? viNumberWords(parsed) : undefined;
}

/** The ordinal after "thứ" / "hạng": 1 → nhất, 4 → tư, other numbers as cardinals. */
export function viOrdinal(n: number): string {
  if (n === 1) return 'nhất';
  if (n === 4) return 'tư';
  return viCardinal(String(n));
}

/** A month number after "tháng": 4 → tư, other months as cardinals ("tháng một", "tháng mười hai"). */
export function viMonth(n: number): string {
  return n === 4 ? 'tư' : viCardinal(String(n));
}
