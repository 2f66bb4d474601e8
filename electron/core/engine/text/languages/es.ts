/**
 * Spanish: what eSpeak NG's Spanish voice misreads, and the Spanish words the shared rules
 * (`../rules`) use for dates, times, money and symbols.
 */

import { abbreviationRule, piece, stripZeros, type LanguageRules } from '../rule-kit';

const ES_MONTHS = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
];

export const spanish: LanguageRules = {
  // eSpeak already reads "Ud." correctly, so it is not here.
  abbreviations: abbreviationRule({
    'Sr.': { say: 'Sr', title: true },
    'Sra.': { say: 'Sra', title: true },
    'Srta.': { say: 'Srta', title: true },
    'Dr.': { say: 'Dr', title: true },
    'Dra.': { say: 'Dra', title: true },
    'etc.': { say: 'etcétera', canEnd: true },
    'p. ej.': { say: 'por ejemplo' },
    'EE. UU.': { say: 'Estados Unidos', canEnd: true },
    'núm.': { say: 'número', beforeDigit: true },
  }),
  numericDateOrder: () => 'day-first',
  sayDate(d) {
    const pieces = [piece(String(d.day), ...d.dayAt), piece(` de ${ES_MONTHS[d.month - 1]}`, ...d.monthAt)];
    if (d.year) pieces.push(piece(` de ${d.year.text}`, ...d.year.at));
    return pieces;
  },
  sayTime({ h, min, hSpan, mSpan }) {
    // "14:30" is read well ("catorce treinta"); "14:00" as "catorce cero cero".
    return min === 0 ? [piece(String(h), ...hSpan), piece(' en punto', ...mSpan)] : undefined;
  },
  currency: {
    $: { one: 'dólar', many: 'dólares', centOne: 'centavo', centMany: 'centavos' },
    '€': { one: 'euro', many: 'euros', centOne: 'céntimo', centMany: 'céntimos' },
    '£': { one: 'libra', many: 'libras', centOne: 'penique', centMany: 'peniques' },
    '¥': { one: 'yen', many: 'yenes', centOne: '', centMany: '' },
    '₩': { one: 'won', many: 'wones', centOne: '', centMany: '' },
    '₫': { one: 'dong', many: 'dongs', centOne: '', centMany: '' },
  },
  sayMoney({ whole, cents, words }) {
    const n = stripZeros(whole);
    // "un dólar", not "uno dólar".
    const main = n === '1' ? `un ${words.one}` : `${n} ${words.many}`;
    if (!cents || cents === '00') return main;
    if (!words.centMany) return `${n},${cents} ${words.many}`;
    return `${main} con ${Number(cents)}`;
  },
  writeOrdinal: (_n, digits) => `${digits}º`,
  rangeWord: ' a ',
  andWord: ' y ',
  comparison: { lt: 'menor que', gt: 'mayor que', le: 'menor o igual que', ge: 'mayor o igual que' },
};
