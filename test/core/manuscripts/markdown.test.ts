import { describe, expect, it } from 'vitest';
import { readManuscript } from '../../../electron/core/manuscripts';
import { VIETNAMESE_BOOK, expectedParagraph, inlineNotesOf, writeMarkdown } from '../../fixtures/manuscripts';
import { readInProcess } from '../../fixtures/read-in-process';

const ALL = [...VIETNAMESE_BOOK.frontMatter!, ...VIETNAMESE_BOOK.chapters, ...VIETNAMESE_BOOK.backMatter!];
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('readMarkdown', () => {
  it('reads # chapters, paragraphs and emphasis; footnotes only when asked, after the citing paragraph', async () => {
    const book = await readManuscript({ fileName: 'Kiều.md', bytes: utf8(writeMarkdown(VIETNAMESE_BOOK)) });
    expect(book.format).toBe('markdown');
    expect(book.chapters.map((c) => c.title)).toEqual(ALL.map((c) => c.title));
    for (const [i, chapter] of ALL.entries()) {
      expect(book.chapters[i]!.paragraphs).toEqual(chapter.paragraphs.map(expectedParagraph));
    }
    expect(book.warnings.join(' ')).toMatch(/1 note .*left out: import with notes "inline" or "appendix"/);

    const withNotes = await readInProcess(
      { fileName: 'k.md', bytes: utf8(writeMarkdown(VIETNAMESE_BOOK)) },
      { notes: 'inline' },
    );
    const paragraphs = VIETNAMESE_BOOK.chapters[0]!.paragraphs;
    expect(withNotes.chapters[1]!.paragraphs.map((p) => p.text)).toEqual([
      expectedParagraph(paragraphs[0]!).text,
      expectedParagraph(paragraphs[1]!).text,
      ...inlineNotesOf(paragraphs[1]!),
      expectedParagraph(paragraphs[2]!).text,
    ]);
  });

  it('starts chapters at ## headings and [chapter: …] lines, reads front matter, keeps ### as text', async () => {
    const text = `---
title: "Sách thử"
author: Tác Giả
lang: vi
---
Lời mở đầu, *rất* ngắn.
[chapter: Chương một]
Dòng đầu
dòng hai.

## Chương hai

### Mục nhỏ

- một **mục**

\`\`\`
[chapter: không phải chương]
\`\`\`

<div>html thô</div>
`;
    const book = await readInProcess({ fileName: 'thu.markdown', bytes: utf8(text) });
    expect([book.title, book.author, book.language]).toEqual(['Sách thử', 'Tác Giả', 'vi']);
    expect(book.chapters.map((c) => c.title)).toEqual(['Sách thử', 'Chương một', 'Chương hai']);
    expect(book.chapters[0]!.paragraphs).toEqual([
      { text: 'Lời mở đầu, rất ngắn.', emphasis: [{ start: 12, end: 15, kind: 'em' }] },
    ]);
    expect(book.chapters[1]!.paragraphs).toEqual([{ text: 'Dòng đầu dòng hai.', emphasis: [] }]);
    expect(book.chapters[2]!.paragraphs).toEqual([
      { text: 'Mục nhỏ', emphasis: [] },
      { text: 'một mục', emphasis: [{ start: 4, end: 7, kind: 'strong' }] },
      { text: '[chapter: không phải chương]', emphasis: [] },
    ]);
  });

  it('answers at once on pathological input: 50,000 nested quotes hold no text markdown-it will nest', async () => {
    const error = await readManuscript({ fileName: 'q.md', bytes: utf8(`${'>'.repeat(50_000)} sâu`) }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'MANUSCRIPT_INVALID' });
    const shallow = await readInProcess({ fileName: 'q.md', bytes: utf8(`${'> '.repeat(20)}sâu`) });
    expect(shallow.chapters[0]!.paragraphs[0]!.text).toBe('sâu');
  });
});
