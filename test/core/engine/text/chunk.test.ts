import { describe, expect, it } from 'vitest';
import { PAUSE_MS, splitIntoChunks, type SpeechChunk } from '../../../../electron/core/engine/text/chunk';
import { hasSpeakableContent } from '../../../../electron/shared/text';
import { cleanText } from '../../../../electron/shared/text';
import type { LanguageCode } from '../../../../electron/shared/voices';
import { pick, random } from '../../../fixtures/random';

/**
 * Checks the chunking contract and returns the chunks: in order, each a trimmed non-empty
 * substring at its `start`, at most `maxChars` long, with only whitespace between them.
 */
function checkedChunks(text: string, language: LanguageCode, maxChars?: number): SpeechChunk[] {
  const chunks = [...splitIntoChunks(text, language, maxChars === undefined ? {} : { maxChars })];
  let covered = 0;
  chunks.forEach((c, i) => {
    expect(c.index).toBe(i);
    expect(c.start).toBeGreaterThanOrEqual(covered);
    expect(text.slice(covered, c.start).trim()).toBe('');
    expect(text.slice(c.start, c.start + c.text.length)).toBe(c.text);
    expect(c.text.length).toBeGreaterThan(0);
    expect(c.text).toBe(c.text.trim());
    expect(c.text.length).toBeLessThanOrEqual(maxChars ?? 300);
    expect(c.pauseAfterMs).toBeGreaterThanOrEqual(0);
    expect(c.speakable).toBe(hasSpeakableContent(c.text));
    covered = c.start + c.text.length;
  });
  expect(text.slice(covered).trim()).toBe('');
  return chunks;
}

const texts = (chunks: SpeechChunk[]): string[] => chunks.map((c) => c.text);

describe('splitIntoChunks', () => {
  it('cuts at sentence ends, one sentence per chunk', () => {
    const chunks = checkedChunks('It rained. We stayed in! Did you? Yes.', 'en');
    expect(texts(chunks)).toEqual(['It rained.', 'We stayed in!', 'Did you?', 'Yes.']);
    expect(chunks.map((c) => c.breakAfter)).toEqual(['sentence', 'sentence', 'sentence', 'end']);
    expect(chunks[0]?.pauseAfterMs).toBe(PAUSE_MS.sentence);
    expect(chunks[3]?.pauseAfterMs).toBe(0);
  });

  it('does not cut after abbreviations, initials, decimals or inside ellipses', () => {
    const text =
      'Dr. Smith met Mr. Jones and Mrs. Brown at 3.14 p.m. in the U.S. Army base, e.g. the one J. R. R. Tolkien saw... or not. ' +
      'Prof. Lee vs. St. Clair, No. 5 on Main St. was fine etc. and so on. Then they left.';
    expect(texts(checkedChunks(text, 'en'))).toEqual([
      'Dr. Smith met Mr. Jones and Mrs. Brown at 3.14 p.m. in the U.S. Army base, e.g. the one J. R. R. Tolkien saw... or not.',
      'Prof. Lee vs. St. Clair, No. 5 on Main St. was fine etc. and so on.',
      'Then they left.',
    ]);
  });

  it('cuts after words that only look like abbreviations', () => {
    expect(texts(checkedChunks('I said no. No. 5 won. We sat in the sun. It is art. Fin.', 'en'))).toEqual([
      'I said no.',
      'No. 5 won.',
      'We sat in the sun.',
      'It is art.',
      'Fin.',
    ]);
  });

  it('cuts after an ellipsis only before a capital', () => {
    expect(texts(checkedChunks('Wait... What was that? Well… maybe.', 'en'))).toEqual([
      'Wait...',
      'What was that?',
      'Well… maybe.',
    ]);
  });

  it('keeps quotes with their sentence and does not cut before a lower-case word', () => {
    expect(texts(checkedChunks('"Really?" she asked. «Oui !» dit-il. Él dijo: «¿Qué?». Fin.', 'en'))).toEqual(
      ['"Really?" she asked.', '«Oui !» dit-il.', 'Él dijo: «¿Qué?».', 'Fin.'],
    );
  });

  it('does not treat list numbers as sentences', () => {
    expect(texts(checkedChunks('1. Introduction\n2. Methods used here', 'en'))).toEqual([
      '1. Introduction',
      '2. Methods used here',
    ]);
  });

  it('cuts CJK text at 。！？ without spaces', () => {
    expect(texts(checkedChunks('今日は天気がいいです。明日も晴れるでしょう！本当？はい。', 'ja'))).toEqual([
      '今日は天気がいいです。',
      '明日も晴れるでしょう！',
      '本当？',
      'はい。',
    ]);
    expect(texts(checkedChunks('我们走吧。你好吗？', 'zh'))).toEqual(['我们走吧。', '你好吗？']);
  });

  it('cuts a long sentence at a clause mark, with a short pause', () => {
    const clause = 'the quick brown fox jumps over the lazy dog';
    const sentence = `${Array.from({ length: 12 }, () => clause).join(', ')}.`;
    const chunks = checkedChunks(sentence, 'en', 100);
    expect(chunks.length).toBeGreaterThan(4);
    for (const c of chunks.slice(0, -1)) {
      expect(c.text.endsWith(',')).toBe(true);
      expect(c.breakAfter).toBe('clause');
      expect(c.pauseAfterMs).toBe(PAUSE_MS.clause);
    }
    expect(chunks.at(-1)?.breakAfter).toBe('end');
  });

  it('cuts a long clause at a space, never inside a word', () => {
    const words = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    const chunks = checkedChunks(words, 'en', 60);
    for (const c of chunks.slice(0, -1)) {
      expect(c.breakAfter).toBe('word');
      expect(c.pauseAfterMs).toBe(PAUSE_MS.word);
      expect(words[c.start + c.text.length]).toBe(' ');
    }
    expect(chunks.map((c) => c.text).join(' ')).toBe(words);
  });

  it('cuts long CJK text at 、，and, failing that, anywhere', () => {
    const withCommas = '我们今天去公园玩，然后去吃饭，'.repeat(20) + '好。';
    const chunks = checkedChunks(withCommas, 'zh', 40);
    for (const c of chunks.slice(0, -1)) expect(c.text.endsWith('，')).toBe(true);
    const plain = '日本語の文章'.repeat(50);
    const forced = checkedChunks(plain, 'ja', 40);
    expect(forced.map((c) => c.text).join('')).toBe(plain);
    expect(forced[0]?.breakAfter).toBe('forced');
  });

  it('never splits a surrogate pair, an emoji sequence or a combining mark', () => {
    const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });
    for (const unit of ['👍🏽', '🇻🇳', 'e\u0301', '👨\u200D👩\u200D👧', '𠮷']) {
      const text = unit.repeat(300);
      const chunks = checkedChunks(text, 'en', 50);
      expect(chunks.length).toBeGreaterThan(1);
      for (const c of chunks) for (const g of graphemes.segment(c.text)) expect(g.segment).toBe(unit);
    }
  });

  it('gives paragraph, line and heading breaks their pauses', () => {
    const text = cleanText(
      'Chapter 1\r\n\r\nIt was late. The end came.\r\nA new line\r\n\r\n***\r\n\r\nLast words.',
    );
    const chunks = checkedChunks(text, 'en');
    expect(chunks.map((c) => [c.text, c.breakAfter, c.pauseAfterMs, c.speakable])).toEqual([
      ['Chapter 1', 'heading', PAUSE_MS.heading, true],
      ['It was late.', 'sentence', PAUSE_MS.sentence, true],
      ['The end came.', 'line', PAUSE_MS.line, true],
      ['A new line', 'paragraph', PAUSE_MS.paragraph, true],
      ['***', 'paragraph', PAUSE_MS.paragraph, false],
      ['Last words.', 'end', 0, true],
    ]);
    expect(PAUSE_MS.heading).toBeGreaterThan(PAUSE_MS.paragraph);
    expect(PAUSE_MS.paragraph).toBeGreaterThan(PAUSE_MS.sentence);
    expect(PAUSE_MS.sentence).toBeGreaterThan(PAUSE_MS.clause);
  });

  it('joins hard-wrapped prose lines into one sentence', () => {
    const text =
      'It was a dark and stormy night; the rain fell in torrents, except at\noccasional intervals, when it was checked.';
    expect(texts(checkedChunks(text, 'en'))).toEqual([text]);
  });

  it('yields chunks with nothing speakable so offsets stay right', () => {
    const chunks = checkedChunks('Hello there. 😀😀 !!! Bye.', 'en');
    expect(texts(chunks)).toEqual(['Hello there.', '😀😀 !!!', 'Bye.']);
    expect(chunks.map((c) => c.speakable)).toEqual([true, false, true]);
  });

  it('yields nothing for whitespace only', () => {
    expect([...splitIntoChunks('  \n\n\t ', 'en')]).toEqual([]);
  });

  it('keeps the contract on random text', () => {
    const rand = random(42);
    const pieces = [
      'word',
      'Dr.',
      'e.g.',
      '3.14',
      '...',
      '…',
      '. ',
      '! ',
      '? ',
      ', ',
      '; ',
      ' — ',
      ' ',
      '  ',
      '\n',
      '\n\n',
      '\r\n',
      '😀',
      '👍🏽',
      'e\u0301',
      '𠮷',
      '日本語',
      '。',
      '、',
      'Ồ',
      '"',
      '«',
      '»',
      '1.',
      '\t',
      'A',
      'ab',
    ];
    for (let n = 0; n < 300; n++) {
      let s = '';
      const len = 1 + Math.floor(rand() * 120);
      for (let i = 0; i < len; i++) s += pick(rand, pieces);
      const text = cleanText(s);
      const language = pick(rand, ['en', 'vi', 'ja', 'zh', 'fr'] as const);
      checkedChunks(text, language, 16 + Math.floor(rand() * 80));
    }
  });

  it('splits a million characters lazily with every sentence accounted for', () => {
    const sentences: string[] = [];
    let length = 0;
    for (let i = 0; length < 1_000_000; i++) {
      const s =
        i % 7 === 0 ? `Dr. No. ${i} said 3.14 twice, e.g. here... and there!` : `Sentence ${i} is here.`;
      sentences.push(s);
      length += s.length + 1;
    }
    // A blank line after every tenth sentence, a space otherwise.
    const text = sentences.map((s, i) => s + (i % 10 === 9 ? '\n\n' : ' ')).join('');
    expect(text.length).toBeGreaterThanOrEqual(1_000_000);

    let count = 0;
    let covered = 0;
    let paragraphs = 0;
    for (const c of splitIntoChunks(text, 'en')) {
      if (c.text !== sentences[count]) expect(c.text).toBe(sentences[count]);
      if (text.slice(covered, c.start).trim() !== '') expect(text.slice(covered, c.start)).toBe('');
      if (c.breakAfter === 'paragraph') paragraphs++;
      covered = c.start + c.text.length;
      count++;
    }
    expect(count).toBe(sentences.length);
    expect(paragraphs).toBe(Math.floor((sentences.length - 1) / 10));
    expect(text.slice(covered).trim()).toBe('');
  });

  it('splits a million characters without any punctuation or line break', () => {
    const text = 'lorem ipsum dolor sit amet '.repeat(40_000).trim();
    let count = 0;
    let covered = 0;
    for (const c of splitIntoChunks(text, 'en', { maxChars: 200 })) {
      if (c.text.length > 200 || text.slice(covered, c.start).trim() !== '')
        expect.unreachable(`bad chunk ${c.index}`);
      covered = c.start + c.text.length;
      count++;
    }
    expect(covered).toBe(text.length);
    expect(count).toBeGreaterThanOrEqual(Math.ceil(text.length / 200));
    expect(count).toBeLessThan(Math.ceil(text.length / 150));
  });
});

describe('splitIntoChunks with firstClauseAlone (auditions)', () => {
  const texts = (text: string) =>
    [...splitIntoChunks(text, 'en', { firstClauseAlone: true })].map((c) => [c.text, c.breakAfter]);

  it('cuts only the first sentence, after its first clause', () => {
    expect(texts('Hello, this is how I sound. Then, another one.')).toEqual([
      ['Hello,', 'clause'],
      ['this is how I sound.', 'sentence'],
      ['Then, another one.', 'end'],
    ]);
    const [first] = splitIntoChunks('Well; then.', 'en', { firstClauseAlone: true });
    expect(first?.pauseAfterMs).toBe(PAUSE_MS.clauseStrong);
    expect(texts('你好，这是我的声音。')).toEqual([
      ['你好，', 'clause'],
      ['这是我的声音。', 'end'],
    ]);
  });

  it('leaves a sentence whole when no clause mark has words on both sides', () => {
    expect(texts('Pages 10–20 are read, fine')).toEqual([
      ['Pages 10–20 are read,', 'clause'],
      ['fine', 'end'],
    ]);
    expect(texts('No clause here. Hello, there.')).toEqual([
      ['No clause here.', 'sentence'],
      ['Hello, there.', 'end'],
    ]);
    expect(texts('*** , Hello there.')).toEqual([['*** , Hello there.', 'end']]);
  });
});
