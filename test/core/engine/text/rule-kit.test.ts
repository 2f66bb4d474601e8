/**
 * The parts of the rule kit a language file builds its money reading from (the readings
 * themselves are checked through the rules in `rules.test.ts`).
 */

import { describe, expect, it } from 'vitest';
import {
  sayMoneyInDigits,
  stripZeros,
  type CurrencyWords,
} from '../../../../electron/core/engine/text/rule-kit';

const YUAN: CurrencyWords = { one: '元', many: '元', centOne: '', centMany: '' };

describe('rule kit', () => {
  it('strips leading zeros but keeps a lone zero', () => {
    expect(stripZeros('007')).toBe('7');
    expect(stripZeros('0')).toBe('0');
    expect(stripZeros('000')).toBe('0');
    expect(stripZeros('1050')).toBe('1050');
  });

  it('reads money as digits then the currency, with cents only when there are some', () => {
    expect(sayMoneyInDigits({ whole: '05', words: YUAN })).toBe('5元');
    expect(sayMoneyInDigits({ whole: '5', cents: '00', words: YUAN })).toBe('5元');
    expect(sayMoneyInDigits({ whole: '5', cents: '50', words: YUAN })).toBe('5.50元');
  });
});
