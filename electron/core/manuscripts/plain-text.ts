/**
 * Plain-text manuscripts (UTF-8, UTF-16, Windows-1252, ISO-8859-1, Windows-1258, detected, with a
 * note when not UTF-8; TCVN3, VNI or VIQR Vietnamese converted, with a note: text-decoding.ts): paragraphs are
 * separated by blank lines (a single line break stays inside its paragraph); a chapter starts
 * at a `[chapter: Title]` line, a `#`/`##` heading, or a chapter's name standing alone on its
 * line ("Chapter 3", "CHAPTER III", "Chương 3", "Chương một": chapter-lines.ts).
 */

import { ManuscriptBuilder } from './builder';
import { plainTextChapterTitle } from './chapter-lines';
import type { ManuscriptReader } from './reader';
import { noteLegacyConversion } from './legacy-vietnamese';
import { decodeManuscriptText, noteTextEncoding } from './text-decoding';

export const readPlainText: ManuscriptReader = async (bytes, fileName) => {
  const { text, encoding, legacy } = decodeManuscriptText(bytes, fileName, 'text');
  const builder = new ManuscriptBuilder(fileName, 'text');
  noteTextEncoding(builder, encoding);
  if (legacy) noteLegacyConversion(builder, legacy, 'the file');
  let lines: string[] = [];
  const flush = (): void => {
    if (lines.length > 0) builder.addParagraph([{ text: lines.join('\n') }]);
    lines = [];
  };
  for (const line of text.split(/\r\n?|\n/)) {
    const title = plainTextChapterTitle(line);
    if (title !== null) {
      flush();
      builder.startChapter(title);
    } else if (line.trim() === '') {
      flush();
    } else {
      lines.push(line);
    }
  }
  flush();
  return builder.finish({ title: null, author: null, language: null });
};
