import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ESpeakNGWorker } from '@echogarden/espeak-ng-emscripten';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { warmUpJapanese } from '../../../../../electron/core/engine/text/languages/ja-kana';
import { prepareForEngine } from '../../../../../electron/core/engine/text/rules';
import type { PreparedText } from '../../../../../electron/core/engine/types';
import { loadEspeak } from '../../../../fixtures/espeak';

let engine: ESpeakNGWorker;

beforeAll(async () => {
  engine = await loadEspeak();
  expect(engine.set_voice('ja')).toBe(0);
  await warmUpJapanese();
});

const KANJI = /\p{Script=Han}/u;
/** eSpeak marks a switch to its English voice with "(en)"; that is how "Chinese letter" is said. */
const ENGLISH_SWITCH = '(en)';

function ipa(text: string): string {
  return engine.synthesize_ipa(text).ipa;
}

/** The source text each code point of the engine text maps back to. */
function sourcePerCodePoint(prepared: PreparedText, source: string): string[] {
  return [...prepared.engineText].map((_, i) => {
    const { start, end } = prepared.toSource(i + 1, 1);
    return source.slice(start, end);
  });
}

describe('prepareForEngine: Japanese kana', () => {
  it('replaces kanji with their kana pronunciation', async () => {
    const prepared = await prepareForEngine('日本語を話します。', 'ja');
    expect(prepared.engineText).toBe('ニホンゴを ハナシます。');
    expect(prepared.engineText).not.toMatch(KANJI);
  });

  it('the engine reads the converted text in Japanese instead of saying "Chinese letter"', async () => {
    const source = '日本語を話します。東京は大きい都市です。';
    expect(ipa(source)).toContain(ENGLISH_SWITCH);
    const prepared = await prepareForEngine(source, 'ja');
    const spoken = ipa(prepared.engineText);
    expect(spoken).not.toContain(ENGLISH_SWITCH);
    // に-ほ-ん-ご: the reading of 日本語.
    expect(spoken).toMatch(/n_ˌ?i_h_o̞_ŋ_ɡ/);
  });

  it('maps every engine position back to the source word it came from', async () => {
    const source = '日本語を話します。';
    const prepared = await prepareForEngine(source, 'ja');
    // ニホンゴを␠ハナシます。
    expect(sourcePerCodePoint(prepared, source)).toEqual([
      '日本語',
      '日本語',
      '日本語',
      '日本語',
      'を',
      '',
      '話し',
      '話し',
      '話し',
      'ま',
      'す',
      '。',
    ]);
  });

  it('gives a word event per phrase, each mapped to its source phrase', async () => {
    const source = '私は学生です。毎日日本語を勉強します。';
    const prepared = await prepareForEngine(source, 'ja');
    const phrases: string[] = [];
    engine.synthesize(prepared.engineText, (_samples, events) => {
      for (const e of events) {
        if (e.type !== 'word') continue;
        const { start, end } = prepared.toSource(e.text_position, e.word_length);
        phrases.push(source.slice(start, end));
      }
      return 0;
    });
    expect(phrases).toEqual(['私は', '学生です', '毎日', '日本語を', '勉強します']);
  });

  it('passes hiragana and katakana text through unchanged', async () => {
    for (const source of [
      'カタカナ',
      'すし',
      'ありがとう',
      'ひらがなとカタカナ',
      'コーヒーをのみたい。',
      'がっこうにいきます',
    ]) {
      expect((await prepareForEngine(source, 'ja')).engineText).toBe(source);
    }
  });

  it('reads the particles は and へ as わ and え', async () => {
    expect((await prepareForEngine('こんにちは', 'ja')).engineText).toBe('こんにちわ');
    const prepared = await prepareForEngine('わたしはがっこうへいきます', 'ja');
    expect(prepared.engineText).toContain('わたしわ');
    expect(prepared.engineText).toContain('がっこうえ');
    expect(prepared.engineText).not.toContain(' ');
  });

  it('reads numbers before 月 日 時 分 with their irregular readings', async () => {
    const text = (await prepareForEngine('4月1日の14時3分', 'ja')).engineText;
    expect(text).toContain('シガツツイタチ');
    expect(text).toContain('ジュウヨジサンプン');
    expect((await prepareForEngine('2026-11-21', 'ja')).engineText).toBe(
      '2026ネンジュウイチガツニジュウイチニチ',
    );
    expect((await prepareForEngine('10:20に', 'ja')).engineText).toBe('ジュウジニジュップンに');
  });

  it('handles full-width digits, money, percent and characters the engine must not see', async () => {
    expect((await prepareForEngine('１２３円', 'ja')).engineText).toBe('123エン');
    const mixed = (await prepareForEngine('価格は$5、50%です。A & B <C>😀・〜', 'ja')).engineText;
    expect(mixed).not.toMatch(/[<>&・〜😀]/u);
    expect(mixed).toContain('5ドル');
    expect(mixed).toContain('50パーセント');
    expect(mixed).not.toMatch(KANJI);
  });

  it('drops a kanji the dictionary cannot read rather than say "Chinese letter"', async () => {
    const prepared = await prepareForEngine('𠮷野家', 'ja');
    expect(prepared.engineText).not.toMatch(KANJI);
    expect(prepared.toSource(1, 1)).toEqual({ start: 0, end: 2 });
  });

  it('returns text without Japanese script untouched, spaces aside', async () => {
    expect((await prepareForEngine('Hello 123', 'ja')).engineText).toBe('Hello 123');
    expect((await prepareForEngine('', 'ja')).engineText).toBe('');
  });

  it('serves concurrent calls from one tokenizer', async () => {
    const results = await Promise.all(['東京', '大阪', '京都', '奈良'].map((t) => prepareForEngine(t, 'ja')));
    expect(results.map((r) => r.engineText)).toEqual(['トーキョー', 'オーサカ', 'キョート', 'ナラ']);
  });

  it('loads the dictionary whatever the working directory', async () => {
    const previous = process.cwd();
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'ja-cwd-'));
    try {
      process.chdir(elsewhere);
      vi.resetModules();
      const fresh = await import('../../../../../electron/core/engine/text/rules');
      expect((await fresh.prepareForEngine('日本', 'ja')).engineText).toBe('ニッポン');
    } finally {
      process.chdir(previous);
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('never throws and maps into the source, on random input', async () => {
    let seed = 5;
    const rand = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pieces = [
      '日本',
      '語',
      'は',
      'へ',
      'を',
      'カタカナ',
      'ー',
      '。',
      '、',
      '1',
      '月',
      '日',
      '時',
      '分',
      '😀',
      '𠮷',
      ' ',
      '\n',
      'a',
      '<',
      '&',
      '１',
      '々',
      '〜',
    ];
    for (let n = 0; n < 100; n++) {
      let source = '';
      for (let i = 0; i < 20; i++) source += pieces[Math.floor(rand() * pieces.length)];
      const prepared = await prepareForEngine(source, 'ja');
      expect(prepared.engineText).not.toMatch(/[<>&]/);
      for (let i = 1; i <= [...prepared.engineText].length; i++) {
        const { start, end } = prepared.toSource(i, 1);
        expect(start).toBeGreaterThanOrEqual(0);
        expect(end).toBeLessThanOrEqual(source.length);
        expect(end).toBeGreaterThanOrEqual(start);
      }
    }
  });
});
