/**
 * Footnotes and endnotes of an HTML document (an HTML file, an EPUB content document) as the
 * notes option asks (shared/manuscript.ts NOTES_MODES): their calls (`epub:type="noteref"`,
 * `role="doc-noteref"`) are never read; the notes (`epub:type="footnote"`, `role="doc-endnote"`…)
 * are left out of the text where they stand and given to the builder after the block that calls
 * them (`inline`), or for the last chapter (`appendix`); a note no call of this document points
 * to is given after the document's last block. In an EPUB whose notes are kept in a file of their
 * own (`notes.xhtml#n1`), the reader gives the notes of every content document (EpubNotes): a call
 * is answered from there, and the notes file does not give a note again.
 */

import type { NotesMode } from '../../shared/manuscript';
import type { ManuscriptBuilder, TextRun } from './builder';
import {
  htmlAttr,
  htmlBlockRuns,
  htmlBlocks,
  htmlElements,
  isNote,
  isNoteBacklink,
  isNoteReference,
  type HtmlElement,
} from './html-text';

/** A note's paragraphs: its blocks (a heading inside it is read as a paragraph). */
function noteParagraphs(note: HtmlElement): TextRun[][] {
  return htmlBlocks(note, (element) => isNoteReference(element) || isNoteBacklink(element)).map(
    htmlBlockRuns,
  );
}

/** A call's target: the file (empty for this document) and the fragment. */
interface Call {
  file: string;
  id: string;
}

/** What a call points to (`href="#fn1"`, `href="notes.xhtml#fn1"`), or null. */
function calledNote(reference: HtmlElement): Call | null {
  for (const element of htmlElements(reference)) {
    const href = htmlAttr(element, 'href');
    const hash = href?.indexOf('#') ?? -1;
    if (href !== undefined && hash >= 0)
      return { file: href.slice(0, hash), id: decodeURIComponent(href.slice(hash + 1)) };
  }
  return null;
}

/** The ids a note answers to: its own and those inside it (`<aside id="n1">`, `<li><p id="n1">`). */
export function noteIds(note: HtmlElement): string[] {
  return [...htmlElements(note)].flatMap((inner) => htmlAttr(inner, 'id') ?? []);
}

/** Notes kept in other files of a book: the note a call (`notes.xhtml#n1`, from this document) names. */
export interface OtherFilesNotes {
  find(file: string, id: string): HtmlElement | undefined;
  /** Notes given already (each is given once in the book). */
  placed: Set<HtmlElement>;
}

export class HtmlNotes {
  /** Notes called from each block (by the block's index). */
  private readonly calls = new Map<number, Call[]>();
  /** Notes in document order, and by their id. */
  private readonly notes: HtmlElement[] = [];
  private readonly byId = new Map<string, HtmlElement>();
  private readonly placed: Set<HtmlElement>;

  constructor(
    private readonly builder: ManuscriptBuilder,
    private readonly mode: NotesMode = 'omit',
    private readonly otherFiles?: OtherFilesNotes,
  ) {
    this.placed = otherFiles?.placed ?? new Set();
  }

  /** htmlBlocks' skip for notes and their calls: true for both (they are not read where they stand). */
  skip(element: HtmlElement, blocks: number): boolean {
    if (isNoteReference(element)) {
      const call = calledNote(element);
      if (call !== null) this.calls.set(blocks, [...(this.calls.get(blocks) ?? []), call]);
      return true;
    }
    if (!isNote(element)) return false;
    if (this.mode === 'omit') {
      this.builder.noteLeftOut();
      return true;
    }
    this.notes.push(element);
    for (const id of noteIds(element)) if (!this.byId.has(id)) this.byId.set(id, element);
    return true;
  }

  /** After block `index` was given to the builder: the notes it calls (in this file or another). */
  after(index: number): void {
    for (const { file, id } of this.calls.get(index) ?? []) {
      const note = (file === '' ? this.byId.get(id) : undefined) ?? this.otherFiles?.find(file, id);
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
