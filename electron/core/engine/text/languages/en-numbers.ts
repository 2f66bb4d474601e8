/**
 * English number words, American style (no "and" after hundred, no hyphens): cardinals,
 * ordinals, years, digit strings, decimals and fractions, for the English reading rules
 * (`./en-reading`). Every function takes the digits as written (without separators) so no
 * value is ever rounded through a JavaScript number.
 */

const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES = [
  '',
  'thousand',
  'million',
  'billion',
  'trillion',
  'quadrillion',
  'quintillion',
  'sextillion',
  'septillion',
  'octillion',
  'nonillion',
  'decillion',
];

/** The longest integer read as a number (36 digits, up to "decillion"); longer digit strings are read digit by digit. */
export const MAX_CARDINAL_DIGITS = SCALES.length * 3;

/** 0–999 in words ("" for 0 unless `zero`). */
function underThousand(n: number): string {
  const words: string[] = [];
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  if (hundreds > 0) words.push(`${ONES[hundreds]} hundred`);
  if (rest >= 20) {
    const ones = rest % 10;
    words.push(ones ? `${TENS[Math.floor(rest / 10)]} ${ONES[ones]}` : (TENS[rest / 10] as string));
  } else if (rest > 0) words.push(ONES[rest] as string);
  return words.join(' ');
}

/** A whole number in words: "1234" → "one thousand two hundred thirty four". Leading zeros are ignored. */
export function cardinalWords(digits: string): string {
  const plain = digits.replace(/^0+(?=\d)/, '');
  if (plain.length > MAX_CARDINAL_DIGITS) return digitWords(plain);
  if (/^0+$/.test(plain)) return 'zero';
  const words: string[] = [];
  const groups = Math.ceil(plain.length / 3);
  const padded = plain.padStart(groups * 3, '0');
  for (let g = 0; g < groups; g++) {
    const value = Number(padded.slice(g * 3, g * 3 + 3));
    if (value === 0) continue;
    const scale = SCALES[groups - 1 - g] as string;
    words.push(scale ? `${underThousand(value)} ${scale}` : underThousand(value));
  }
  return words.join(' ');
}

/** Each digit in words: "0199" → "zero one nine nine". */
export function digitWords(digits: string): string {
  return [...digits.replace(/\D/g, '')].map((d) => ONES[Number(d)]).join(' ');
}

/** A code's digits in words, 0 said "oh": "11011" → "one one oh one one". */
export function codeDigitWords(digits: string): string {
  return [...digits.replace(/\D/g, '')].map((d) => (d === '0' ? 'oh' : ONES[Number(d)])).join(' ');
}

const ORDINAL_ENDINGS: Record<string, string> = {
  one: 'first',
  two: 'second',
  three: 'third',
  five: 'fifth',
  eight: 'eighth',
  nine: 'ninth',
  twelve: 'twelfth',
};

/** The ordinal of the last word of a number in words: "twenty one" → "twenty first". */
function ordinalOfWords(words: string): string {
  const at = words.lastIndexOf(' ') + 1;
  const last = words.slice(at);
  const head = words.slice(0, at);
  const ending = ORDINAL_ENDINGS[last];
  if (ending) return head + ending;
  if (last.endsWith('y')) return `${head}${last.slice(0, -1)}ieth`;
  return `${head}${last}th`;
}

/** An ordinal in words: "21" → "twenty first", "103" → "one hundred third". */
export function ordinalWords(digits: string): string {
  return ordinalOfWords(cardinalWords(digits));
}

/** The English ordinal suffix a number takes ("st", "nd", "rd" or "th"). */
export function ordinalSuffix(digits: string): string {
  const n = Number(digits.slice(-2));
  if (n >= 11 && n <= 13) return 'th';
  return ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
}

/** Two digits as a year's half: "43" → "forty three", "06" → "oh six", "00" → "hundred". */
function yearHalf(two: string): string {
  if (two === '00') return 'hundred';
  if (two.startsWith('0')) return `oh ${ONES[Number(two[1])]}`;
  return cardinalWords(two);
}

/**
 * A year in words: "1943" → "nineteen forty three", "1506" → "fifteen oh six", "1900" →
 * "nineteen hundred", "2000" → "two thousand", "2005" → "two thousand five", "2012" → "twenty
 * twelve". Years under 1000 and over 9999 are read as cardinals.
 */
export function yearWords(digits: string): string {
  const plain = digits.replace(/^0+(?=\d)/, '');
  if (plain.length !== 4) return cardinalWords(plain);
  const first = plain.slice(0, 2);
  const last = plain.slice(2);
  // 2000–2009 and 1000, 3000…: "two thousand five"; x00y for x ≠ 20 stays "ten oh five".
  if (last.startsWith('0') && first.endsWith('0')) return cardinalWords(plain);
  return `${cardinalWords(first)} ${yearHalf(last)}`;
}

/**
 * A house number as it is said in an address: in pairs, "123" → "one twenty three", "105" →
 * "one oh five", "1211" → "twelve eleven", "100" → "one hundred"; five digits as two and three,
 * "13620" → "thirteen six twenty", "24001" → "twenty four oh oh one" ("12000" twelve thousand);
 * other lengths as a cardinal.
 */
export function houseNumberWords(digits: string): string {
  if (/^[1-9]\d{4}$/.test(digits) && !digits.endsWith('000')) {
    const last = digits.slice(2);
    const three = last.startsWith('0') ? `oh ${yearHalf(last.slice(1))}` : houseNumberWords(last);
    return `${cardinalWords(digits.slice(0, 2))} ${three}`;
  }
  if (!/^[1-9]\d{2}$/.test(digits)) return yearWords(digits);
  return `${ONES[Number(digits[0])]} ${yearHalf(digits.slice(1))}`;
}

/** A decimal number as written ("3.14", ".5", "0.010"): "three point one four"; the fraction digit by digit. */
export function decimalWords(integer: string, fraction: string): string {
  const whole = integer === '' ? '' : `${cardinalWords(integer)} `;
  return `${whole}point ${digitWords(fraction)}`;
}

const DENOMINATORS: Record<string, [string, string]> = {
  '2': ['half', 'halves'],
  '4': ['quarter', 'quarters'],
};

/** A fraction in words: "1/2" → "one half", "3/4" → "three quarters", "5/8" → "five eighths". */
export function fractionWords(numerator: string, denominator: string): string {
  const n = cardinalWords(numerator);
  const one = /^0*1$/.test(numerator);
  const special = DENOMINATORS[denominator.replace(/^0+/, '')];
  if (special) return `${n} ${one ? special[0] : special[1]}`;
  const ord = ordinalWords(denominator);
  return `${n} ${one ? ord : `${ord}s`}`;
}

/** A mixed number "2 1/2" → "two and a half", "1 3/4" → "one and three quarters". */
export function mixedFractionWords(whole: string, numerator: string, denominator: string): string {
  const part = fractionWords(numerator, denominator);
  return `${cardinalWords(whole)} and ${part.startsWith('one ') ? `a ${part.slice(4)}` : part}`;
}

const UNDER_HUNDRED = `(?:${[...ONES.slice(1), ...TENS.slice(2)].join('|')})`;
const LARGER = `(?:hundred|${SCALES.slice(1).join('|')})`;
const BRITISH_AND = new RegExp(
  `\\b(hundred|${SCALES.slice(1).join('|')}) (?=${UNDER_HUNDRED}(?: ${UNDER_HUNDRED})?\\b(?! ${LARGER}\\b))`,
  'gu',
);
const AFTER_HUNDRED = new RegExp(`\\bhundred (?=${UNDER_HUNDRED}\\b)`, 'gu');

/**
 * Numbers in words, British style: "and" after hundred, and after a scale word before a last
 * part under a hundred ("one hundred and twenty", "two thousand and five", "one hundred and
 * twenty thousand").
 */
export function withBritishAnd(words: string): string {
  return words.replace(BRITISH_AND, '$1 and ').replace(AFTER_HUNDRED, 'hundred and ');
}
