/**
 * Footnotes and endnotes of an HTML document (an HTML file, an EPUB content document) as the
 * notes option asks (shared/manuscript.ts NOTES_MODES): their calls (`epub:type="noteref"`,
 * `role="doc-noteref"`) are never read; the notes (`epub:type="footnote"`, `role="doc-endnote"`…)
 * are left out of the text where they stand and given to the builder after the block that calls
 * them (`inline`), or for the last chapter (`appendix`); a note no call of this document points
 * to is given after the document's last block.
 */

import type { NotesMode } from '../../shared/manuscript';
import type { ManuscriptBuilder, TextRun } from './builder';
import { htmlAttr, htmlBlocks, htmlElements, isNote, isNoteReference, type HtmlElement } from './html-text';

/** A note's paragraphs: its blocks (a heading inside it is read as a paragraph). */
function noteParagraphs(note: HtmlElement): TextRun[][] {
  return htmlBlocks(note, (element) => isNoteReference(element)).map((block) =>
    block.type === 'heading' ? [{ text: block.text }] : block.runs,
  );
}

/** The fragment a call points to (`href="#fn1"`, `href="notes.xhtml#fn1"`), or null. */
function calledId(reference: HtmlElement): string | null {
  for (const element of htmlElements(reference)) {
    const href = htmlAttr(element, 'href');
    const hash = href?.indexOf('#') ?? -1;
    if (href !== undefined && hash >= 0) return decodeURIComponent(href.slice(hash + 1));
  }
  return null;
}

export class HtmlNotes {
  /** Ids called from each block (by the block's index). */
  private readonly calls = new Map<number, string[]>();
  /** Notes in document order, and by their id. */
  private readonly notes: HtmlElement[] = [];
  private readonly byId = new Map<string, HtmlElement>();
  private readonly placed = new Set<HtmlElement>();

  constructor(
    private readonly builder: ManuscriptBuilder,
    private readonly mode: NotesMode = 'omit',
  ) {}

  /** htmlBlocks' skip for notes and their calls: true for both (they are not read where they stand). */
  skip(element: HtmlElement, blocks: number): boolean {
    if (isNoteReference(element)) {
      const id = calledId(element);
      if (id !== null) this.calls.set(blocks, [...(this.calls.get(blocks) ?? []), id]);
      return true;
    }
    if (!isNote(element)) return false;
    if (this.mode === 'omit') {
      this.builder.noteLeftOut();
      return true;
    }
    this.notes.push(element);
    for (const inner of htmlElements(element)) {
      const id = htmlAttr(inner, 'id');
      if (id !== undefined && !this.byId.has(id)) this.byId.set(id, element);
    }
    return true;
  }

  /** After block `index` was given to the builder: the notes it calls. */
  after(index: number): void {
    for (const id of this.calls.get(index) ?? []) {
      const note = this.byId.get(id);
      if (note) this.place(note);
    }
  }

  /** After the document's last block: its notes no call placed. */
  finish(): void {
    for (const note of this.notes) this.place(note);
  }

  private place(note: HtmlElement): void {
    if (this.mode === 'omit' || this.placed.has(note)) return;
    this.placed.add(note);
    this.builder.addNote(noteParagraphs(note), this.mode);
  }
}
