/**
 * Plain-text manuscripts (UTF-8, UTF-16, Windows-1252, ISO-8859-1, Windows-1258, detected, with a
 * note when not UTF-8; TCVN3, VNI or VIQR Vietnamese converted, with a note: text-decoding.ts): paragraphs are
 * separated by blank lines (a single line break stays inside its paragraph); a chapter starts
 * at a `[chapter: Title]` line, a `#`/`##` heading, or a chapter's name standing alone on its
 * line ("Chapter 3", "CHAPTER III", "Chương 3", "Chương một": chapter-lines.ts). A Project
 * Gutenberg text's header and licence are front and back matter chapters, and its header gives
 * the title, author and language (gutenberg.ts).
 */

import { ManuscriptBuilder } from './builder';
import { plainTextChapterTitle } from './chapter-lines';
import { gutenbergLine, gutenbergMetadata, isGutenbergCredit, type GutenbergMetadata } from './gutenberg';
import type { ManuscriptReader } from './reader';
import { noteLegacyConversion } from './legacy-vietnamese';
import { decodeManuscriptText, noteTextEncoding } from './text-decoding';

/** Where the reading is in a Project Gutenberg file (a file without its markers is all `body`). */
type Part = 'header' | 'credits' | 'body' | 'licence';

export const readPlainText: ManuscriptReader = async (bytes, fileName) => {
  const { text, encoding, legacy } = decodeManuscriptText(bytes, fileName, 'text');
  const builder = new ManuscriptBuilder(fileName, 'text');
  noteTextEncoding(builder, encoding);
  if (legacy) noteLegacyConversion(builder, legacy, 'the file');
  const allLines = text.split(/\r\n?|\n/);
  const startAt = allLines.findIndex((line) => gutenbergLine(line) === 'start');
  let part: Part = 'body';
  let metadata: GutenbergMetadata = { title: null, author: null, language: null };
  if (startAt >= 0) {
    metadata = gutenbergMetadata(allLines.slice(0, startAt).join('\n'));
    builder.startNamedChapter('gutenbergHeader', 'front');
    part = 'header';
  }
  let lines: string[] = [];
  const flush = (): void => {
    if (lines.length === 0) return;
    const paragraph = lines.join('\n');
    lines = [];
    // The volunteers' credit right after the START marker belongs to the header; the book starts after it.
    if (part === 'credits' && !isGutenbergCredit(paragraph)) {
      builder.startChapter('');
      part = 'body';
    }
    builder.addParagraph([{ text: paragraph }]);
  };
  for (const [index, line] of allLines.entries()) {
    if (part === 'header' || part === 'licence') {
      if (line.trim() === '') flush();
      else lines.push(line);
      if (index === startAt) {
        flush();
        part = 'credits';
      }
      continue;
    }
    if (gutenbergLine(line) === 'end') {
      flush();
      builder.startNamedChapter('gutenbergLicence', 'back');
      part = 'licence';
      lines.push(line);
      continue;
    }
    const title = plainTextChapterTitle(line);
    if (title !== null) {
      flush();
      builder.startChapter(title);
      part = 'body';
    } else if (line.trim() === '') {
      flush();
    } else {
      lines.push(line);
    }
  }
  flush();
  return builder.finish(metadata);
};
