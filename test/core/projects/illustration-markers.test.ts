/**
 * Project Gutenberg's illustration markers are not read aloud: "[Illustration]" and
 * "[Illustration: caption…]" (over several lines or paragraphs while its bracket is open) make no
 * segment of a project, and the text around them is read as before. Real text: Thornton W.
 * Burgess's "The Adventures of Buster Bear" as NLTK's Gutenberg corpus has it
 * (test/fixtures/real-manuscripts/SOURCES.md), with five captioned markers; the manuscript as read
 * keeps them (they are the writer's text).
 */

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readManuscript } from '../../../electron/core/manuscripts';
import { chapterSegments, narratedParagraphs } from '../../../electron/core/projects/segments';
import type { ManuscriptParagraph } from '../../../electron/shared/manuscript';

const BUSTER_BEAR = join(import.meta.dirname, '../../fixtures/real-manuscripts/burgess-buster-bear-nltk.txt');
const paragraph = (text: string): ManuscriptParagraph => ({ text, emphasis: [] });

describe('illustration markers', () => {
  it('are kept by the reader and left out of the narration of a real illustrated Gutenberg text', async () => {
    const book = await readManuscript({ fileName: 'buster-bear.txt', path: BUSTER_BEAR });
    const paragraphs = book.chapters.flatMap((c) => c.paragraphs);
    const markers = paragraphs.filter((p) => p.text.startsWith('[Illustration'));
    expect(markers.map((p) => p.text.replaceAll('\n', ' '))).toEqual([
      '[Illustration: "Here\'s your trout, Mr. Otter," said he. _Page 5._]',
      '[Illustration: "You take my advice, Little Joe Otter," continued Grandfather Frog. _Page 26._]',
      '[Illustration: Reddy glared across the Smiling Pool at Peter. _Page 45._]',
      '[Illustration: Buster Bear was running away, too. Page _71_.]',
      '[Illustration: Those who could fly, flew. Those who could climb, climbed. _Page 112._]',
    ]);
    const segments = book.chapters.flatMap((c) => chapterSegments(c.paragraphs, 'en').map((s) => s.text));
    expect(segments.filter((text) => /Illustration|_Page/.test(text))).toEqual([]);
    // Every other paragraph is read, in order: the one after the first marker follows the one before it.
    const narrated = book.chapters.flatMap((c) => narratedParagraphs(c.paragraphs));
    expect(narrated.length).toBe(paragraphs.length - markers.length);
    const before = narrated.findIndex((p) => p.text.startsWith('"Here\'s your trout, Mr. Otter," said he'));
    expect(narrated[before + 1]!.text).toMatch(/^But Little Joe wouldn't\. The fact is, he was afraid to\./);
  });

  it('a caption over several paragraphs ends where its bracket closes; a bare marker or a bracketed note is no caption', () => {
    const narrated = narratedParagraphs(
      [
        'It is a truth universally acknowledged.',
        '[Illustration]',
        '[Illustration:',
        '“Why, my dear, you must know, Mrs. Long says that Netherfield is taken by a young man of large fortune”',
        '[_Copyright 1894 by George Allen._]]',
        'Mr. Bennet made no answer.',
        '[Illustration: a caption whose bracket never closes',
        'one',
        'two',
        'three',
        'Read again after four paragraphs.',
        '[Transcriber’s note: this is read.]',
      ].map(paragraph),
    ).map((p) => p.text);
    expect(narrated).toEqual([
      'It is a truth universally acknowledged.',
      'Mr. Bennet made no answer.',
      'Read again after four paragraphs.',
      '[Transcriber’s note: this is read.]',
    ]);
  });
});
