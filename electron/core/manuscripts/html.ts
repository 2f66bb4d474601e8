/**
 * HTML manuscripts, read with parse5 under the nesting and element limits (html-parse.ts): h1 and h2 start chapters named
 * by their text; p, div, li, blockquote… are paragraphs, with em/i and strong/b as emphasis;
 * deeper headings are paragraphs; scripts, styles and navigation are left out, and so are
 * notes (epub:type / role footnote, endnote) and their calls unless notes are asked for (html-notes.ts). The title from
 * <title> (else the first block styled as a title, else the first h1), the author from
 * <meta name="author">, the language from <html lang>. An h1/h2 or a block styled as a title that
 * is the book's title is neither text nor a chapter; paragraphs split at `<br>` lines as
 * html-text.ts says. A Project Gutenberg page's header (to "*** START OF THE PROJECT GUTENBERG
 * EBOOK … ***") and licence (from "*** END OF …") are front and back matter chapters; its header's
 * title, author and language come before the page's (gutenberg.ts).
 */

import { ManuscriptBuilder, plainText } from './builder';
import { gutenbergMetadata, hasGutenbergLine, isGutenbergCredit } from './gutenberg';
import { parseHtmlDocument } from './html-parse';
import {
  htmlAttr,
  htmlBlockRuns,
  htmlBlocks,
  htmlBlockText as textOf,
  htmlElements,
  htmlText,
  isBookTitle,
} from './html-text';
import { HtmlNotes } from './html-notes';
import type { ManuscriptReader } from './reader';
import { noteLegacyConversion } from './legacy-vietnamese';
import { convertLegacyHtml } from './legacy-vietnamese-html';
import { decodeTextOrLatin } from './text-decoding';
import { BookTitle } from './titles';

export const readHtml: ManuscriptReader = async (bytes, fileName, options) => {
  const decoded = decodeTextOrLatin(bytes, fileName, 'html');
  const document = parseHtmlDocument(decoded.text, fileName, null);
  // Text in TCVN3, VNI or VIQR becomes Unicode; bytes that are not UTF-8 are taken only as TCVN3 or VNI.
  const legacy = convertLegacyHtml(document);
  if (decoded.refusal !== null && (legacy === null || legacy === 'viqr')) throw decoded.refusal;
  const builder = new ManuscriptBuilder(fileName, 'html');
  if (legacy) noteLegacyConversion(builder, legacy, 'the page');
  let title: string | null = null;
  let author: string | null = null;
  let language: string | null = null;
  let firstHeading: string | null = null;
  for (const element of htmlElements(document)) {
    if (element.tagName === 'html')
      language = htmlAttr(element, 'lang') ?? htmlAttr(element, 'xml:lang') ?? null;
    else if (element.tagName === 'title' && title === null) title = plainText(htmlText(element)) || null;
    else if (element.tagName === 'meta' && htmlAttr(element, 'name')?.toLowerCase() === 'author') {
      author ??= htmlAttr(element, 'content') ?? null;
    }
  }
  const notes = new HtmlNotes(builder, options.notes);
  const blocks = htmlBlocks(
    document,
    (element, before) => element.tagName === 'nav' || notes.skip(element, before),
  );
  // Project Gutenberg: its header up to the START marker, the volunteers' credit after it, its licence from the END marker.
  const startAt = blocks.findIndex((block) => hasGutenbergLine(textOf(block), 'start'));
  let part: 'header' | 'credits' | 'body' | 'licence' = 'body';
  if (startAt >= 0) {
    const header = gutenbergMetadata(
      blocks
        .slice(0, startAt + 1)
        .map(textOf)
        .join('\n'),
    );
    title = header.title ?? title;
    author = header.author ?? author;
    language = header.language ?? language;
    builder.startNamedChapter('gutenbergHeader', 'front');
    part = 'header';
  }
  // The book's title (<title>, or the first block styled as a title) is neither text nor a chapter.
  const bookTitle = new BookTitle(title);
  for (const [index, block] of blocks.entries()) {
    notes.after(index - 1);
    if (part === 'body' || part === 'credits') {
      if (hasGutenbergLine(textOf(block), 'end')) {
        builder.startNamedChapter('gutenbergLicence', 'back');
        part = 'licence';
      } else if (part === 'credits' && !(block.type === 'paragraph' && isGutenbergCredit(textOf(block)))) {
        builder.startChapter('');
        part = 'body';
      }
    }
    if (part !== 'body') {
      builder.addParagraph(htmlBlockRuns(block));
      if (index === startAt) part = 'credits';
      continue;
    }
    if (isBookTitle(block, bookTitle)) continue;
    // A chapter's name line right under its heading (<h2> then <div class="chuong">) names that chapter.
    const current = builder.current;
    if (block.type === 'heading' && block.chapterLine && current?.title && current.paragraphs === 0) {
      builder.retitle(block.text);
    } else if (block.type === 'heading' && block.level <= 2) {
      firstHeading ??= block.text;
      builder.startChapter(block.text);
    } else if (block.type === 'heading') builder.addParagraph([{ text: block.text }]);
    else builder.addParagraph(block.runs);
  }
  notes.after(blocks.length - 1);
  notes.finish();
  return builder.finish({ title: bookTitle.value ?? firstHeading, author, language });
};
