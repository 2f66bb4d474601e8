/**
 * The parts of the rule kit a language file builds its money reading from (the readings
 * themselves are checked through the rules in `rules.test.ts`), and the two kinds of language:
 * one with reading rules of its own, one read by the shared rules.
 */

import { describe, expect, it } from 'vitest';
import {
  sayMoneyInDigits,
  stripZeros,
  type CurrencyWords,
  type LanguageRules,
} from '../../../../electron/core/engine/text/rule-kit';
import { languageRules, rewriteWithChanges } from '../../../../electron/core/engine/text/rules';

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

describe('a language reads numbers itself or by the shared rules', () => {
  const read = (text: string, language: 'fr' | 'es') => {
    const { text: mapped, changes } = rewriteWithChanges(text, language);
    return { reading: mapped.engineText, rules: changes.map((c) => c.rule) };
  };

  it('French and Spanish have no reading rules: the shared rules read them, in their words', () => {
    expect(languageRules('fr').readingRules).toBeUndefined();
    expect(languageRules('es').readingRules).toBeUndefined();
    expect(read('Le 21/11/2026 à 14:30, 5,50 € pour 10–20 pages.', 'fr')).toEqual({
      reading: 'Le 21 novembre 2026 à 14 heures 30, 5 euros 50 pour 10 à 20 pages.',
      rules: ['date', 'time', 'money', 'range'],
    });
    expect(read('El 21/11/2026 a las 14:00, $1 por 10–20 páginas.', 'es')).toEqual({
      reading: 'El 21 de noviembre de 2026 a las 14 en punto, un dólar por 10 a 20 páginas.',
      rules: ['date', 'time', 'money', 'range'],
    });
  });

  it('Vietnamese and English own their reading, with none of the shared rules’ hooks', () => {
    for (const language of ['vi', 'en'] as const) {
      const own = languageRules(language);
      expect(own.readingRules?.length).toBeGreaterThan(0);
      expect([own.sayDate, own.sayTime, own.sayMoney, own.numericDateOrder, own.currency]).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
    }
  });

  it('the type says so (checked by tsc): no shared hook beside reading rules, every one without them', () => {
    const hooks = { andWord: ' and ' };
    // @ts-expect-error a language with reading rules of its own has no hook of the shared rules
    const own: LanguageRules = { ...hooks, readingRules: [], sayMoney: () => '' };
    // @ts-expect-error a language without reading rules of its own needs the shared rules' hooks
    const shared: LanguageRules = { ...hooks };
    expect([own.readingRules, shared.readingRules]).toEqual([[], undefined]);
  });
});
