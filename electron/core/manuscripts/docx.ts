/**
 * DOCX (Office Open XML) manuscripts, read with yauzl (zip-archive.ts) and saxes: the main
 * document found through the package relationships; a paragraph whose outline level is 0 (its
 * own w:outlineLvl, or its style's, through w:basedOn, as styles.xml says: "Heading 1" in any
 * language, whatever its style id) starts a chapter named by its text; other paragraphs are
 * the chapter's, with w:i / w:b runs (direct or from a character style) as emphasis.
 * Tracked changes are read as accepted: w:ins and w:moveTo kept, w:del and w:moveFrom (and the
 * old properties of a w:pPrChange / w:rPrChange, and a table row deleted) left out, and a paragraph whose mark was deleted
 * (w:pPr/w:rPr/w:del) joined to the next one with a space (pandoc's choice rather than Word's
 * nothing: a paragraph mark stands between words, and "splitParagraph" would be read as one
 * word). A drop cap (w:framePr w:dropCap) is joined to its paragraph with nothing between ("D" +
 * "rop cap."); a text frame is a paragraph where it stands, and a text box's paragraphs
 * (w:txbxContent, once: the mc:Fallback copy is left out) come before the paragraph anchoring
 * it. Fields (w:fldSimple, w:fldChar + w:instrText) read as their result, except page numbers
 * (PAGE, NUMPAGES, SECTIONPAGES, PAGEREF…), left out; field codes, pictures and embedded objects
 * are left out. Footnotes, endnotes and comments
 * are left out unless asked for, then placed as paragraphs after the paragraph citing them.
 * Metadata from docProps/core.xml. Runs in a legacy Vietnamese font (`.VnTime`…: TCVN3,
 * `VNI-Times`…: VNI; the run's w:rFonts, its character or paragraph style's, or the document
 * default) are converted to Unicode, with a note (legacy-vietnamese.ts).
 */

import type { Manuscript, ManuscriptOptions } from '../../shared/manuscript';
import { ManuscriptBuilder, type TextRun } from './builder';
import { invalidManuscript } from './errors';
import {
  decodeFontText,
  fontEncoding,
  noteLegacyConversion,
  type LegacyVietnameseEncoding,
} from './legacy-vietnamese';
import { readDublinCore, readRelationships } from './ooxml-parts';
import type { ManuscriptReader } from './reader';
import { attr, onOff, parseXml, type XmlPart, type XmlTag } from './xml';
import { openZipArchive, type ZipArchive } from './zip-archive';

const W = [
  'http://schemas.openxmlformats.org/wordprocessingml/2006/main',
  'http://purl.oclc.org/ooxml/wordprocessingml/main',
];
const MC = 'http://schemas.openxmlformats.org/markup-compatibility/2006';

/**
 * Elements whose content is not the text a reader sees: deleted text, an embedded object, and the
 * properties a tracked change replaced (they hold the old style, italics…).
 */
const SKIPPED = new Set([
  'delText',
  'delInstrText',
  'object',
  'pPrChange',
  'rPrChange',
  'sectPrChange',
  'tblPrChange',
  'tblGridChange',
  'trPrChange',
  'tcPrChange',
  'numberingChange',
]);

/** Tracked changes whose content is gone once the changes are accepted (outside w:rPr). */
const REMOVED = new Set(['del', 'moveFrom']);

/** Fields whose result is a page number (or a count of pages): not read. */
const PAGE_FIELDS = new Set(['PAGE', 'NUMPAGES', 'SECTIONPAGES', 'SECTION', 'PAGEREF']);

/** A field being read: its instruction (w:instr, or w:instrText gathered) and whether its result has begun. */
interface OpenField {
  instruction: string;
  result: boolean;
}

/** Whether a field's result is left out: a page-number field's, or its instruction while it is read. */
function hidesText(field: OpenField): boolean {
  if (!field.result) return true;
  const name = /^\s*([A-Za-z]+)/.exec(field.instruction)?.[1]?.toUpperCase();
  return name !== undefined && PAGE_FIELDS.has(name);
}

interface WordStyle {
  name: string | null;
  basedOn: string | null;
  outline: number | null;
  italic: boolean | null;
  bold: boolean | null;
  /** The font of its runs (w:rFonts: w:hAnsi, else w:ascii). */
  font: string | null;
}

type Styles = Map<string, WordStyle>;

/** The document's default run font, and how many runs each legacy Vietnamese font converted. */
interface RunFonts {
  defaultFont: string | null;
  converted: Map<LegacyVietnameseEncoding, number>;
}

/** A paragraph of a WordprocessingML story (body, footnotes, endnotes, comments). */
interface WordParagraph {
  runs: TextRun[];
  /** Outline level (0: a chapter heading), or null for body text. */
  outline: number | null;
  notes: string[];
  comments: string[];
}

export const readDocx: ManuscriptReader = async (bytes, fileName, options) => {
  const zip = await openZipArchive(bytes, fileName, 'docx');
  return readWordPackage(zip, fileName, options);
};

async function readWordPackage(
  zip: ZipArchive,
  fileName: string,
  options: ManuscriptOptions,
): Promise<Manuscript> {
  const base = { fileName, format: 'docx' as const };
  const packageRels = await readRelationships(zip, '', base);
  const mainPart =
    packageRels.find((r) => r.type.endsWith('/officeDocument') && !r.external)?.target ?? 'word/document.xml';
  if (!zip.has(mainPart))
    throw invalidManuscript(fileName, 'docx', `its archive has no main document (${mainPart})`);
  const corePart =
    packageRels.find((r) => r.type.endsWith('/metadata/core-properties'))?.target ?? 'docProps/core.xml';
  const rels = await readRelationships(zip, mainPart, base);
  const target = (kind: string, fallback: string): string | null => {
    const found = rels.find((r) => r.type.endsWith(`/${kind}`) && !r.external)?.target ?? fallback;
    return zip.has(found) ? found : null;
  };

  const stylesPart = target('styles', 'word/styles.xml');
  const { styles, language, defaultFont } = stylesPart
    ? readStyles(await zip.readText(stylesPart), { ...base, part: stylesPart })
    : { styles: new Map() as Styles, language: null, defaultFont: null };
  const fonts: RunFonts = { defaultFont, converted: new Map() };

  const stories = async (
    kind: 'footnotes' | 'endnotes' | 'comments',
  ): Promise<Map<string, WordParagraph[]>> => {
    const part = target(kind, `word/${kind}.xml`);
    if (!part) return new Map();
    return readStories(await zip.readText(part), { ...base, part }, styles, fonts);
  };
  const keepNotes = (options.notes ?? 'omit') !== 'omit';
  const notes = keepNotes
    ? new Map([
        ...[...(await stories('footnotes'))].map(([id, note]) => [`footnote:${id}`, note] as const),
        ...[...(await stories('endnotes'))].map(([id, note]) => [`endnote:${id}`, note] as const),
      ])
    : new Map<string, WordParagraph[]>();
  const comments = options.includeComments ? await stories('comments') : new Map<string, WordParagraph[]>();

  const builder = new ManuscriptBuilder(fileName, 'docx');
  let commentsLeftOut = 0;
  readStories(await zip.readText(mainPart), { ...base, part: mainPart }, styles, fonts, (paragraph) => {
    if (paragraph.outline === 0) {
      const title = paragraph.runs.map((run) => run.text).join('');
      if (title.trim()) {
        builder.startChapter(title);
        return;
      }
    }
    builder.addParagraph(paragraph.runs);
    for (const id of paragraph.notes) {
      const note = notes.get(id);
      if (note)
        builder.addNote(
          note.map((p) => p.runs),
          options.notes,
        );
      else if (!keepNotes) builder.noteLeftOut();
    }
    for (const id of paragraph.comments) {
      const comment = comments.get(id);
      if (!comment) commentsLeftOut++;
      else for (const p of comment) builder.addParagraph(p.runs);
    }
  });
  if (commentsLeftOut > 0 && !options.includeComments) {
    builder.warnings.push(
      `${commentsLeftOut} comment${commentsLeftOut === 1 ? '' : 's'} left out (ask for comments to keep them).`,
    );
  }

  for (const [encoding, runs] of fonts.converted)
    noteLegacyConversion(builder, encoding, `${runs} run${runs === 1 ? '' : 's'} of text`);

  const core = zip.has(corePart)
    ? readDublinCore(await zip.readText(corePart), { ...base, part: corePart })
    : { title: null, creator: null, language: null };
  return builder.finish({ title: core.title, author: core.creator, language: core.language ?? language });
}

/** The styles by id, and the document's default language and run font (w:docDefaults). */
function readStyles(
  xml: string,
  where: XmlPart,
): { styles: Styles; language: string | null; defaultFont: string | null } {
  const styles: Styles = new Map();
  let current: WordStyle | null = null;
  let inRunProps = false;
  let inDefaults = false;
  let language: string | null = null;
  let defaultFont: string | null = null;
  parseXml(xml, where, {
    open(tag) {
      if (!W.includes(tag.uri)) return;
      if (tag.local === 'docDefaults') inDefaults = true;
      else if (inDefaults && tag.local === 'lang') language ??= attr(tag, W, 'val') ?? null;
      else if (inDefaults && tag.local === 'rFonts') defaultFont ??= runFont(tag);
      else if (tag.local === 'style') {
        current = { name: null, basedOn: null, outline: null, italic: null, bold: null, font: null };
        styles.set(attr(tag, W, 'styleId') ?? '', current);
      } else if (current) {
        if (tag.local === 'name') current.name = attr(tag, W, 'val') ?? null;
        else if (tag.local === 'basedOn') current.basedOn = attr(tag, W, 'val') ?? null;
        else if (tag.local === 'outlineLvl') current.outline = Number(attr(tag, W, 'val') ?? 9);
        else if (tag.local === 'rPr') inRunProps = true;
        else if (inRunProps && tag.local === 'i') current.italic = onOff(attr(tag, W, 'val'));
        else if (inRunProps && tag.local === 'b') current.bold = onOff(attr(tag, W, 'val'));
        else if (inRunProps && tag.local === 'rFonts') current.font = runFont(tag);
      }
    },
    close(tag) {
      if (!W.includes(tag.uri)) return;
      if (tag.local === 'style') current = null;
      else if (tag.local === 'rPr') inRunProps = false;
      else if (tag.local === 'docDefaults') inDefaults = false;
    },
  });
  return { styles, language, defaultFont };
}

/** The font a w:rFonts gives the text (w:hAnsi draws Latin-1 characters, w:ascii ASCII). */
function runFont(tag: XmlTag): string | null {
  return attr(tag, W, 'hAnsi') ?? attr(tag, W, 'ascii') ?? null;
}

/** A style's property, looked up through w:basedOn (ten steps at most: a loop ends there). */
function inherited<K extends 'outline' | 'italic' | 'bold' | 'font'>(
  styles: Styles,
  id: string | null,
  key: K,
): WordStyle[K] | null {
  for (let step = 0; id !== null && step < 10; step++) {
    const style = styles.get(id);
    if (!style) return null;
    if (style[key] !== null) return style[key];
    if (key === 'outline') {
      // Built-in names stay English in every language's Word ("heading 1"); ids are localised.
      const match = /^heading\s*([1-9])$/i.exec(style.name ?? '');
      if (match) return (Number(match[1]) - 1) as WordStyle[K];
    }
    id = style.basedOn;
  }
  return null;
}

/**
 * Paragraphs of a story part, in order, by the w:id of the footnote/endnote/comment holding
 * them ('' for the body); `each` sees each body paragraph as it closes.
 */
function readStories(
  xml: string,
  where: XmlPart,
  styles: Styles,
  fonts: RunFonts,
  each?: (paragraph: WordParagraph) => void,
): Map<string, WordParagraph[]> {
  const s: StoryState = {
    styles,
    fonts,
    each,
    stories: new Map(),
    stack: [],
    skip: 0,
    story: '',
    skipStory: false,
    paragraph: null,
    run: null,
    inRunProps: false,
    inText: false,
    inInstruction: false,
    outer: [],
    fields: [],
    rows: [],
    held: null,
  };
  parseXml(xml, where, {
    open: (tag) => openTag(s, tag),
    text(text) {
      if (s.skip > 0) return;
      if (s.inInstruction) s.fields.at(-1)!.instruction += text;
      else if (s.inText && s.run && !hidden(s)) s.run.text += text;
    },
    close: () => closeTag(s),
  });
  flushHeld(s);
  return s.stories;
}

/** What readStories tracks as it reads a story part. */
interface StoryState {
  styles: Styles;
  fonts: RunFonts;
  each: ((paragraph: WordParagraph) => void) | undefined;
  /** Paragraphs by the w:id of the note or comment holding them ('' for the body). */
  stories: Map<string, WordParagraph[]>;
  /** The open elements' local names ('' outside WordprocessingML). */
  stack: string[];
  /** Depth inside a skipped element (0 outside). */
  skip: number;
  story: string;
  skipStory: boolean;
  paragraph: OpenParagraph | null;
  run: OpenRun | null;
  inRunProps: boolean;
  inText: boolean;
  inInstruction: boolean;
  /** The paragraph and run a text box interrupted (w:txbxContent sits inside a run). */
  outer: {
    paragraph: OpenParagraph | null;
    run: OpenRun | null;
    inRunProps: boolean;
    held: HeldParagraph | null;
  }[];
  /** Fields open, outermost first (a field may span paragraphs: a table of contents). */
  fields: OpenField[];
  /** The table rows open, innermost last: whether each is a tracked deletion (w:trPr/w:del). */
  rows: boolean[];
  /** A paragraph waiting to be joined to the next: its mark deleted (' '), or a drop cap (''). */
  held: HeldParagraph | null;
}

/** Whether an open field hides the text here. */
const hidden = (s: StoryState): boolean => s.fields.some(hidesText);

function closeRun(s: StoryState): void {
  if (!s.paragraph || !s.run || s.run.text === '') return;
  const italic = s.run.italic ?? inherited(s.styles, s.run.style, 'italic') ?? false;
  const bold = s.run.bold ?? inherited(s.styles, s.run.style, 'bold') ?? false;
  const legacy = fontEncoding(
    s.run.font ??
      inherited(s.styles, s.run.style, 'font') ??
      inherited(s.styles, s.paragraph.style, 'font') ??
      s.fonts.defaultFont,
  );
  if (legacy) s.fonts.converted.set(legacy.encoding, (s.fonts.converted.get(legacy.encoding) ?? 0) + 1);
  const text = legacy ? decodeFontText(s.run.text, legacy) : s.run.text;
  s.paragraph.runs.push({ text, emphasis: bold ? 'strong' : italic ? 'em' : undefined });
}

function emit(s: StoryState, done: WordParagraph): void {
  if (s.skipStory) return;
  if (s.story === '' && s.each) s.each(done);
  else {
    const list = s.stories.get(s.story) ?? [];
    list.push(done);
    s.stories.set(s.story, list);
  }
}

function closeParagraph(s: StoryState, open: OpenParagraph): void {
  let done: WordParagraph = {
    runs: open.runs,
    outline: open.direct ?? inherited(s.styles, open.style, 'outline'),
    notes: open.notes,
    comments: open.comments,
  };
  if (s.held) {
    // The later paragraph's mark is the one left: its outline level stands.
    done = {
      runs: [...s.held.paragraph.runs, ...(s.held.joiner ? [{ text: s.held.joiner }] : []), ...done.runs],
      outline: done.outline,
      notes: [...s.held.paragraph.notes, ...done.notes],
      comments: [...s.held.paragraph.comments, ...done.comments],
    };
    s.held = null;
  }
  if (open.markDeleted) s.held = { paragraph: done, joiner: ' ' };
  else if (open.dropCap && done.runs.length > 0) s.held = { paragraph: done, joiner: '' };
  else emit(s, done);
}

function flushHeld(s: StoryState): void {
  if (!s.held) return;
  const { paragraph: waiting } = s.held;
  s.held = null;
  emit(s, waiting);
}

/** Opens an element of a story part (its text and runs are read between open and close). */
function openTag(s: StoryState, tag: XmlTag): void {
  if (s.skip > 0) {
    s.skip++;
    return;
  }
  if (tag.uri === MC && tag.local === 'Fallback') {
    s.skip = 1;
    return;
  }
  if (!W.includes(tag.uri)) {
    s.stack.push('');
    return;
  }
  const local = tag.local;
  const parent = s.stack.at(-1);
  if (SKIPPED.has(local) || (REMOVED.has(local) && parent !== 'rPr' && parent !== 'trPr')) {
    s.skip = 1;
    return;
  }
  s.stack.push(local);
  openParagraphTag(s, tag, parent);
  openRunTag(s, tag, parent);
}

/** The elements of paragraphs, stories, text boxes and table rows. */
function openParagraphTag(s: StoryState, tag: XmlTag, parent: string | undefined): void {
  switch (tag.local) {
    case 'footnote':
    case 'endnote':
    case 'comment': {
      s.story = attr(tag, W, 'id') ?? '';
      const type = attr(tag, W, 'type');
      s.skipStory = type === 'separator' || type === 'continuationSeparator' || type === 'continuationNotice';
      break;
    }
    case 'txbxContent':
      s.outer.push({ paragraph: s.paragraph, run: s.run, inRunProps: s.inRunProps, held: s.held });
      s.held = null;
      s.paragraph = null;
      s.run = null;
      s.inRunProps = false;
      break;
    case 'p':
      s.paragraph = {
        runs: [],
        outline: null,
        notes: [],
        comments: [],
        style: null,
        direct: null,
        markDeleted: false,
        dropCap: false,
      };
      break;
    case 'pStyle':
      if (s.paragraph && parent === 'pPr') s.paragraph.style = attr(tag, W, 'val') ?? null;
      break;
    case 'outlineLvl':
      if (s.paragraph && parent === 'pPr') s.paragraph.direct = Number(attr(tag, W, 'val') ?? 9);
      break;
    case 'framePr': {
      const dropCap = attr(tag, W, 'dropCap');
      if (s.paragraph && parent === 'pPr') s.paragraph.dropCap = dropCap === 'drop' || dropCap === 'margin';
      break;
    }
    case 'del':
    case 'moveFrom':
      // Here (REMOVED's others are skipped) in a row's w:trPr (a deleted row) or in w:rPr (of
      // the paragraph mark when in w:pPr).
      if (parent === 'trPr') s.rows[s.rows.length - 1] = true;
      else if (s.paragraph && !s.run) s.paragraph.markDeleted = true;
      break;
    case 'tr':
      s.rows.push(false);
      break;
    case 'footnoteReference':
    case 'endnoteReference':
      // Footnotes and endnotes number their ids apart: "footnote:1" and "endnote:1" are two notes.
      if (s.paragraph) s.paragraph.notes.push(`${tag.local.slice(0, -9)}:${attr(tag, W, 'id') ?? ''}`);
      break;
    case 'commentReference':
      if (s.paragraph) s.paragraph.comments.push(attr(tag, W, 'id') ?? '');
      break;
  }
}

/** The elements of runs and fields. */
function openRunTag(s: StoryState, tag: XmlTag, parent: string | undefined): void {
  switch (tag.local) {
    case 'r':
      s.run = { italic: null, bold: null, style: null, font: null, text: '' };
      break;
    case 'rPr':
      s.inRunProps = s.run !== null;
      break;
    case 'i':
      if (s.run && s.inRunProps) s.run.italic = onOff(attr(tag, W, 'val'));
      break;
    case 'b':
      if (s.run && s.inRunProps) s.run.bold = onOff(attr(tag, W, 'val'));
      break;
    case 'rStyle':
      if (s.run && s.inRunProps) s.run.style = attr(tag, W, 'val') ?? null;
      break;
    case 'rFonts':
      if (s.run && s.inRunProps) s.run.font = runFont(tag);
      break;
    case 't':
      s.inText = s.run !== null;
      break;
    case 'instrText':
      s.inInstruction = s.fields.length > 0;
      break;
    case 'fldSimple':
      s.fields.push({ instruction: attr(tag, W, 'instr') ?? '', result: true });
      break;
    case 'fldChar': {
      const type = attr(tag, W, 'fldCharType');
      if (type === 'begin') s.fields.push({ instruction: '', result: false });
      else if (type === 'separate' && s.fields.length > 0) s.fields.at(-1)!.result = true;
      else if (type === 'end') s.fields.pop();
      break;
    }
    case 'tab':
      if (s.run && parent === 'r' && !hidden(s)) s.run.text += ' ';
      break;
    case 'br':
    case 'cr':
      if (s.run && parent === 'r' && !hidden(s)) s.run.text += attr(tag, W, 'type') === 'page' ? ' ' : '\n';
      break;
    case 'noBreakHyphen':
      if (s.run && !hidden(s)) s.run.text += '-';
      break;
  }
}

/** Closes an element of a story part. */
function closeTag(s: StoryState): void {
  if (s.skip > 0) {
    s.skip--;
    return;
  }
  const local = s.stack.pop();
  switch (local) {
    case 't':
      s.inText = false;
      break;
    case 'instrText':
      s.inInstruction = false;
      break;
    case 'fldSimple':
      s.fields.pop();
      break;
    case 'rPr':
      s.inRunProps = false;
      break;
    case 'r':
      closeRun(s);
      s.run = null;
      break;
    case 'p': {
      if (!s.paragraph) break;
      const open = s.paragraph;
      s.paragraph = null;
      if (!s.rows.includes(true)) closeParagraph(s, open);
      break;
    }
    case 'tr':
      s.rows.pop();
      break;
    case 'txbxContent': {
      flushHeld(s);
      const restored = s.outer.pop();
      s.paragraph = restored?.paragraph ?? null;
      s.run = restored?.run ?? null;
      s.inRunProps = restored?.inRunProps ?? false;
      s.held = restored?.held ?? null;
      break;
    }
    case 'footnote':
    case 'endnote':
    case 'comment':
      flushHeld(s);
      s.story = '';
      s.skipStory = false;
      break;
  }
}

interface OpenParagraph extends WordParagraph {
  style: string | null;
  direct: number | null;
  /** Its mark is a tracked deletion (w:pPr/w:rPr/w:del or w:moveFrom): joined to the next. */
  markDeleted: boolean;
  /** A drop cap (w:framePr w:dropCap="drop" or "margin"): joined to the next with nothing between. */
  dropCap: boolean;
}

/** A paragraph waiting to be joined to the next, and what goes between. */
interface HeldParagraph {
  paragraph: WordParagraph;
  joiner: string;
}

interface OpenRun {
  italic: boolean | null;
  bold: boolean | null;
  style: string | null;
  font: string | null;
  text: string;
}
