/**
 * Japanese, first stage: the Japanese words the shared rules (`../rules`) use for dates,
 * times, money, percent and "&", and marks eSpeak NG's Japanese voice misreads. Kanji become
 * kana in a second stage, `./ja-kana` (`afterRules`).
 */

import { kanaStage } from './ja-kana';
import { piece, sayMoneyInDigits, type LanguageRules, type Rule } from '../rule-kit';

const japaneseMarksRule: Rule = {
  name: 'symbol',
  // eSpeak's Japanese voice reads ・ 〜 ゝ ゞ and a lone ー as "Japanese letter".
  pattern: '(?<=\\p{N})[〜～~](?=\\p{N})|[・〜～ゝゞ]|(?<![\\p{Script=Katakana}\\p{Script=Hiragana}])ー',
  rewrite([mark], ctx) {
    const between = /\p{N}/u.test(ctx.input[ctx.index - 1] ?? '') && /\p{N}/u.test(ctx.input[ctx.end] ?? '');
    return mark !== undefined && /^[〜～~]$/u.test(mark) && between ? 'から' : ' ';
  },
};

export const japanese: LanguageRules = {
  // eSpeak reads every kanji "Chinese letter": kanji become kana after the rules.
  afterRules: kanaStage,
  rulesAfterNumbers: [japaneseMarksRule],
  // Numeric dates (21/11/2026) are left as written; year-first dates are read.
  numericDateOrder: () => undefined,
  sayDate(d) {
    const pieces = d.year ? [piece(`${d.year.text}年`, ...d.year.at)] : [];
    pieces.push(piece(`${d.month}月`, ...d.monthAt), piece(`${d.day}日`, ...d.dayAt));
    return pieces;
  },
  sayTime({ h, min, hSpan, mSpan }) {
    return [piece(`${h}時`, ...hSpan), ...(min > 0 ? [piece(`${min}分`, ...mSpan)] : [])];
  },
  sayPercent(n, whole) {
    return [piece(n, 0, n.length), piece('パーセント', n.length, whole.length)];
  },
  currency: {
    $: { one: 'ドル', many: 'ドル', centOne: '', centMany: '' },
    '€': { one: 'ユーロ', many: 'ユーロ', centOne: '', centMany: '' },
    '£': { one: 'ポンド', many: 'ポンド', centOne: '', centMany: '' },
    '¥': { one: 'えん', many: 'えん', centOne: '', centMany: '' },
    '₩': { one: 'ウォン', many: 'ウォン', centOne: '', centMany: '' },
    '₫': { one: 'ドン', many: 'ドン', centOne: '', centMany: '' },
  },
  sayMoney: sayMoneyInDigits,
  andWord: ' アンド ',
};
