import { describe, expect, it } from 'vitest';
import {
  chapterTimesFromWords,
  parseChapters,
  spokenBook,
} from '../../../../electron/core/engine/text/chapters';

describe('chapters of a book', () => {
  it('starts a chapter at each # and ## heading, which stays in its text (spoken once)', () => {
    const text = '# One\n\nFirst words.\n\n## Two ##\nSecond words.\n\n### A section\n\nStill two.\n';
    const chapters = parseChapters(text);
    expect(chapters.map((c) => [c.title, c.kind, c.level])).toEqual([
      ['One', 'heading', 1],
      ['Two', 'heading', 2],
    ]);
    expect(chapters[0]!.text).toBe('# One\n\nFirst words.');
    expect(chapters[1]!.text).toBe('## Two ##\nSecond words.\n\n### A section\n\nStill two.');
    for (const c of chapters) expect(text.slice(c.start, c.start + c.text.length)).toBe(c.text);
  });

  it('names a chapter with [chapter: Title] without speaking the marker', () => {
    const text =
      'Preface words.\n\n[chapter: The Real Start]\nChapter one. It begins.\n\n[Chapter:  Two ]\nMore.';
    const chapters = parseChapters(text, { untitled: () => 'My Book' });
    expect(chapters.map((c) => [c.title, c.kind])).toEqual([
      ['My Book', 'untitled'],
      ['The Real Start', 'marker'],
      ['Two', 'marker'],
    ]);
    expect(chapters[1]!.text).toBe('Chapter one. It begins.');
    expect(chapters.map((c) => c.text).join(' ')).not.toContain('[chapter');
  });

  it('reads a text without headings as one chapter', () => {
    const chapters = parseChapters('Just a story.\nWith two lines.');
    expect(chapters).toEqual([
      { title: 'Chapter 1', kind: 'untitled', level: 1, text: 'Just a story.\nWith two lines.', start: 0 },
    ]);
  });

  it('ignores headings in code fences, hashtags, empty headings and chapters with nothing to say', () => {
    const text = [
      '#hashtag is not a heading.',
      '```',
      '# not a chapter',
      '```',
      '#',
      '# **Bold** _title_',
      'Body.',
      '[chapter: Empty]',
      '',
      '# 🙂',
      'Words.',
    ].join('\n');
    const chapters = parseChapters(text);
    expect(chapters.map((c) => c.title)).toEqual(['Chapter 1', 'Bold title', '🙂']);
    expect(chapters[0]!.text).toContain('# not a chapter');
  });

  it('joins chapters for one render and times them from its words', () => {
    const chapters = parseChapters('# A\n\nOne two.\n\n[chapter: B]\nThree.\n\n# C\n\nFour.');
    const book = spokenBook(chapters);
    expect(book.text).toBe('# A\n\nOne two.\n\nThree.\n\n# C\n\nFour.');
    expect(book.starts.map((s, i) => book.text.slice(s, s + chapters[i]!.text.length))).toEqual(
      chapters.map((c) => c.text),
    );
    const word = (w: string, startMs: number, endMs: number) => ({
      startMs,
      endMs,
      charStart: book.text.indexOf(w),
    });
    const words = [
      word('A', 0, 300),
      word('One', 1500, 1800),
      word('two', 1800, 2100),
      word('Three', 2800, 3200),
    ];
    words.push(word('C', 3900, 4100), word('Four', 5300, 5600));
    expect(chapterTimesFromWords(chapters, book.starts, words, 6000)).toEqual([
      { title: 'A', startMs: 0, endMs: 2100 },
      { title: 'B', startMs: 2100, endMs: 3200 },
      { title: 'C', startMs: 3200, endMs: 6000 },
    ]);
  });
});
