/**
 * FB2 (FictionBook 2) manuscripts, `.fb2` and `.fb2.zip`, read with saxes (xml.ts): the book's
 * title, author and language from <description><title-info>; each <section> with a <title> of
 * a main <body> starts a chapter named by it (nested sections too; a part's title with no text
 * before its first nested section's title is joined to it: "Part One — Chapter 1"); <p>, <v> (verse lines), <subtitle>,
 * <text-author>, <epigraph> and <cite> text are paragraphs, <emphasis> → em, <strong> → strong;
 * <empty-line/>, images and <binary> pictures are left out. Notes: the sections of a
 * <body name="notes"> (or "comments"), called by <a type="note" l:href="#id">, go where the
 * notes option says (shared/manuscript.ts NOTES_MODES); the call's number is never read. The
 * XML declaration's encoding (UTF-8, windows-1251…) decodes the bytes.
 */

import type { Manuscript, ManuscriptOptions, NotesMode } from '../../shared/manuscript';
import { ManuscriptBuilder, type TextRun } from './builder';
import { invalidManuscript } from './errors';
import type { ManuscriptReader } from './reader';
import { attr, parseXml, type XmlPart, type XmlTag } from './xml';
import { openZipArchive } from './zip-archive';

const FB2 = 'http://www.gribuser.ru/xml/fictionbook/2.0';
const XLINK = 'http://www.w3.org/1999/xlink';

/** Elements whose text is a paragraph of its own. */
const PARAGRAPHS = new Set(['p', 'v', 'subtitle', 'text-author', 'date']);
/** Elements whose content is never read (pictures, the document's own history, metadata). */
const SKIPPED = new Set([
  'binary',
  'image',
  'annotation',
  'history',
  'document-info',
  'publish-info',
  'custom-info',
]);

export const readFb2: ManuscriptReader = async (bytes, fileName, options) => {
  const isZip = bytes[0] === 0x50 && bytes[1] === 0x4b;
  if (!isZip) return readFictionBook(decodeXml(bytes, fileName), fileName, options);
  const zip = await openZipArchive(bytes, fileName, 'fb2');
  const entry = zip.names.find((name) => name.toLowerCase().endsWith('.fb2'));
  if (!entry) throw invalidManuscript(fileName, 'fb2', 'its archive holds no .fb2 file');
  return readFictionBook(decodeXml(await zip.readBytes(entry), fileName), fileName, options);
};

/** The text of an XML file in the encoding its declaration names (UTF-8 when it names none). */
function decodeXml(bytes: Uint8Array, fileName: string): string {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const declared = /^\uFEFF?<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1] ?? 'utf-8';
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(declared, { fatal: true });
  } catch {
    throw invalidManuscript(fileName, 'fb2', `its encoding "${declared}" is not one we read`);
  }
  try {
    return decoder.decode(bytes);
  } catch (error) {
    throw invalidManuscript(fileName, 'fb2', `its text is not valid ${declared}`, error);
  }
}

interface Metadata {
  title: string | null;
  author: string | null;
  language: string | null;
}

/** A paragraph as it is read: its runs and the notes it calls. */
interface OpenParagraph {
  runs: TextRun[];
  calls: string[];
}

function readFictionBook(xml: string, fileName: string, options: ManuscriptOptions): Manuscript {
  const where: XmlPart = { fileName, format: 'fb2', part: fileName };
  const { notes, metadata, root } = readNotesAndMetadata(xml, where);
  if (root !== 'FictionBook') throw invalidManuscript(fileName, 'fb2', 'it is not a FictionBook document');
  const builder = new ManuscriptBuilder(fileName, 'fb2');
  readBodies(xml, where, builder, notes, options.notes ?? 'omit');
  return builder.finish(metadata);
}

const isFb2 = (tag: XmlTag, ...names: string[]): boolean => tag.uri === FB2 && names.includes(tag.local);

/** Whether a <body> holds notes (`name="notes"`, `name="comments"`). */
function isNotesBody(tag: XmlTag): boolean {
  const name = attr(tag, '', 'name')?.toLowerCase();
  return name === 'notes' || name === 'comments' || name === 'footnotes';
}

/** The notes (by section id: their paragraphs), the metadata and the root element's name. */
function readNotesAndMetadata(
  xml: string,
  where: XmlPart,
): { notes: Map<string, TextRun[][]>; metadata: Metadata; root: string | null } {
  const notes = new Map<string, TextRun[][]>();
  const metadata: Metadata = { title: null, author: null, language: null };
  const names: string[] = [];
  let root: string | null = null;
  const path: string[] = [];
  let inNotes = false;
  let note: string | null = null;
  let noteDepth = 0;
  let paragraph: TextRun[] | null = null;
  let titleDepth = 0;
  let text = '';
  let skip = 0;
  const emphasis: ('em' | 'strong')[] = [];
  parseXml(xml, where, {
    open(tag) {
      root ??= tag.local;
      path.push(tag.local);
      if (skip > 0 || (tag.uri === FB2 && SKIPPED.has(tag.local) && !inNotes)) {
        skip++;
        return;
      }
      if (isFb2(tag, 'body') && isNotesBody(tag)) inNotes = true;
      if (inNotes && isFb2(tag, 'section') && note === null) {
        note = attr(tag, '', 'id') ?? null;
        noteDepth = path.length;
        if (note !== null) notes.set(note, []);
      }
      if (note !== null && isFb2(tag, 'title')) titleDepth++;
      if (note !== null && titleDepth === 0 && tag.uri === FB2 && PARAGRAPHS.has(tag.local)) paragraph = [];
      if (isFb2(tag, 'emphasis')) emphasis.push('em');
      if (isFb2(tag, 'strong')) emphasis.push('strong');
      text = '';
    },
    text(value) {
      if (skip > 0) return;
      if (paragraph) paragraph.push({ text: value.replace(/[\t\n\r]/g, ' '), emphasis: emphasis.at(-1) });
      text += value;
    },
    close(tag) {
      const inTitleInfo = path.includes('title-info');
      path.pop();
      if (skip > 0) {
        skip--;
        return;
      }
      if (isFb2(tag, 'emphasis', 'strong')) emphasis.pop();
      if (inTitleInfo && tag.uri === FB2) {
        if (tag.local === 'book-title') metadata.title ??= text.trim() || null;
        else if (tag.local === 'lang') metadata.language ??= text.trim() || null;
        else if (['first-name', 'middle-name', 'last-name'].includes(tag.local)) {
          if (path.at(-1) === 'author' && path.filter((p) => p === 'author').length === 1 && text.trim())
            names.push(text.trim());
        } else if (tag.local === 'author' && names.length > 0) {
          metadata.author ??= names.join(' ');
          names.length = 0;
        }
      }
      if (note !== null && isFb2(tag, 'title')) titleDepth--;
      if (paragraph && tag.uri === FB2 && PARAGRAPHS.has(tag.local)) {
        notes.get(note!)?.push(paragraph);
        paragraph = null;
      }
      if (note !== null && isFb2(tag, 'section') && path.length === noteDepth - 1) note = null;
      if (isFb2(tag, 'body')) inNotes = false;
    },
  });
  return { notes, metadata, root };
}

/** The main bodies' text: chapters from section titles, notes where `mode` says. */
function readBodies(
  xml: string,
  where: XmlPart,
  builder: ManuscriptBuilder,
  notes: Map<string, TextRun[][]>,
  mode: NotesMode,
): void {
  let inBody = false;
  let skip = 0;
  /** FB2 elements open in the body, outermost first. */
  const open: string[] = [];
  /** The lines of a section's <title> while it is read. */
  let title: TextRun[][] | null = null;
  /** The last chapter started: its title and its section's depth. */
  let heading: { title: string; depth: number } | null = null;
  let paragraph: OpenParagraph | null = null;
  let call: string | null = null;
  const emphasis: ('em' | 'strong')[] = [];
  const called = new Set<string>();

  const endParagraph = (): void => {
    if (!paragraph) return;
    const done = paragraph;
    paragraph = null;
    if (title) {
      title.push(done.runs);
      return;
    }
    builder.addParagraph(done.runs);
    for (const id of done.calls) {
      called.add(id);
      builder.addNote(notes.get(id) ?? [], mode);
    }
  };

  parseXml(xml, where, {
    open(tag) {
      if (skip > 0) {
        skip++;
        return;
      }
      if (isFb2(tag, 'body')) {
        if (isNotesBody(tag)) skip = 1;
        else inBody = true;
        return;
      }
      if (!inBody || tag.uri !== FB2) return;
      const parent = open.at(-1);
      // The body's own title is the book's (its metadata); pictures are not read.
      if (SKIPPED.has(tag.local) || (tag.local === 'title' && parent === undefined)) {
        skip = 1;
        return;
      }
      open.push(tag.local);
      // A section's title starts its chapter; a poem's or stanza's is read as lines.
      if (tag.local === 'title' && parent === 'section') {
        endParagraph();
        title = [];
      } else if (PARAGRAPHS.has(tag.local)) {
        endParagraph();
        paragraph = { runs: [], calls: [] };
      } else if (tag.local === 'emphasis') emphasis.push('em');
      else if (tag.local === 'strong') emphasis.push('strong');
      else if (tag.local === 'a' && attr(tag, '', 'type') === 'note') {
        const href = attr(tag, XLINK, 'href') ?? '';
        call = href.startsWith('#') ? href.slice(1) : null;
        if (call !== null && paragraph) {
          paragraph.calls.push(call);
          // "text <a>1</a>." reads "text.": the space before the call goes with it.
          const last = paragraph.runs.at(-1);
          if (last) last.text = last.text.trimEnd();
        } else if (call === null) call = '';
      }
    },
    text(value) {
      if (skip > 0 || !inBody || call !== null || !paragraph) return;
      paragraph.runs.push({ text: value.replace(/[\t\n\r]/g, ' '), emphasis: emphasis.at(-1) });
    },
    close(tag) {
      if (skip > 0) {
        skip--;
        return;
      }
      if (isFb2(tag, 'body')) {
        endParagraph();
        inBody = false;
        return;
      }
      if (!inBody || tag.uri !== FB2) return;
      open.pop();
      if (tag.local === 'a') call = null;
      else if (tag.local === 'emphasis' || tag.local === 'strong') emphasis.pop();
      else if (PARAGRAPHS.has(tag.local)) endParagraph();
      else if (tag.local === 'title' && title) {
        const lines = title
          .map((runs) =>
            runs
              .map((run) => run.text)
              .join('')
              .trim(),
          )
          .filter(Boolean);
        title = null;
        if (lines.length === 0) return;
        const name = lines.join(' — ');
        const depth = open.filter((element) => element === 'section').length;
        const current = builder.current;
        // A part's title with no text before its first chapter's: one chapter, "Part One — Chapter 1".
        if (
          heading &&
          depth > heading.depth &&
          current?.title === heading.title &&
          current.paragraphs === 0
        ) {
          builder.retitle(`${heading.title} — ${name}`);
          heading = { title: builder.current!.title!, depth };
        } else {
          builder.startChapter(name);
          heading = { title: builder.current!.title!, depth };
        }
      }
    },
  });
  // Notes no paragraph calls (an FB2 may hold more than its text points to) come last.
  for (const [id, note] of notes) if (!called.has(id)) builder.addNote(note, mode);
}
