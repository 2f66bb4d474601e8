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
  const stories = new Map<string, WordParagraph[]>();
  const stack: string[] = [];
  let skip = 0;
  let story = '';
  let skipStory = false;
  let paragraph: OpenParagraph | null = null;
  let run: OpenRun | null = null;
  let inRunProps = false;
  let inText = false;
  let inInstruction = false;
  /** The paragraph and run a text box interrupted (w:txbxContent sits inside a run). */
  const outer: {
    paragraph: OpenParagraph | null;
    run: OpenRun | null;
    inRunProps: boolean;
    held: HeldParagraph | null;
  }[] = [];
  /** Fields open, outermost first (a field may span paragraphs: a table of contents). */
  const fields: OpenField[] = [];
  /** The table rows open, innermost last: whether each is a tracked deletion (w:trPr/w:del). */
  const rows: boolean[] = [];
  /** A paragraph waiting to be joined to the next: its mark deleted (' '), or a drop cap (''). */
  let held: HeldParagraph | null = null;

  const hidden = (): boolean => fields.some(hidesText);

  const closeRun = (): void => {
    if (!paragraph || !run || run.text === '') return;
    const italic = run.italic ?? inherited(styles, run.style, 'italic') ?? false;
    const bold = run.bold ?? inherited(styles, run.style, 'bold') ?? false;
    const legacy = fontEncoding(
      run.font ??
        inherited(styles, run.style, 'font') ??
        inherited(styles, paragraph.style, 'font') ??
        fonts.defaultFont,
    );
    if (legacy) fonts.converted.set(legacy.encoding, (fonts.converted.get(legacy.encoding) ?? 0) + 1);
    const text = legacy ? decodeFontText(run.text, legacy) : run.text;
    paragraph.runs.push({ text, emphasis: bold ? 'strong' : italic ? 'em' : undefined });
  };

  const emit = (done: WordParagraph): void => {
    if (skipStory) return;
    if (story === '' && each) each(done);
    else {
      const list = stories.get(story) ?? [];
      list.push(done);
      stories.set(story, list);
    }
  };

  const closeParagraph = (open: OpenParagraph): void => {
    let done: WordParagraph = {
      runs: open.runs,
      outline: open.direct ?? inherited(styles, open.style, 'outline'),
      notes: open.notes,
      comments: open.comments,
    };
    if (held) {
      // The later paragraph's mark is the one left: its outline level stands.
      done = {
        runs: [...held.paragraph.runs, ...(held.joiner ? [{ text: held.joiner }] : []), ...done.runs],
        outline: done.outline,
        notes: [...held.paragraph.notes, ...done.notes],
        comments: [...held.paragraph.comments, ...done.comments],
      };
      held = null;
    }
    if (open.markDeleted) held = { paragraph: done, joiner: ' ' };
    else if (open.dropCap && done.runs.length > 0) held = { paragraph: done, joiner: '' };
    else emit(done);
  };

  const flushHeld = (): void => {
    if (!held) return;
    const { paragraph: waiting } = held;
    held = null;
    emit(waiting);
  };

  parseXml(xml, where, {
    open(tag) {
      if (skip > 0) {
        skip++;
        return;
      }
      if (tag.uri === MC && tag.local === 'Fallback') {
        skip = 1;
        return;
      }
      if (!W.includes(tag.uri)) {
        stack.push('');
        return;
      }
      const local = tag.local;
      const parent = stack.at(-1);
      if (SKIPPED.has(local) || (REMOVED.has(local) && parent !== 'rPr' && parent !== 'trPr')) {
        skip = 1;
        return;
      }
      stack.push(local);
      switch (local) {
        case 'footnote':
        case 'endnote':
        case 'comment': {
          story = attr(tag, W, 'id') ?? '';
          const type = attr(tag, W, 'type');
          skipStory =
            type === 'separator' || type === 'continuationSeparator' || type === 'continuationNotice';
          break;
        }
        case 'txbxContent':
          outer.push({ paragraph, run, inRunProps, held });
          held = null;
          paragraph = null;
          run = null;
          inRunProps = false;
          break;
        case 'p':
          paragraph = {
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
          if (paragraph && parent === 'pPr') paragraph.style = attr(tag, W, 'val') ?? null;
          break;
        case 'outlineLvl':
          if (paragraph && parent === 'pPr') paragraph.direct = Number(attr(tag, W, 'val') ?? 9);
          break;
        case 'framePr': {
          const dropCap = attr(tag, W, 'dropCap');
          if (paragraph && parent === 'pPr') paragraph.dropCap = dropCap === 'drop' || dropCap === 'margin';
          break;
        }
        case 'del':
        case 'moveFrom':
          // Here (REMOVED's others are skipped) in a row's w:trPr (a deleted row) or in w:rPr (of
          // the paragraph mark when in w:pPr).
          if (parent === 'trPr') rows[rows.length - 1] = true;
          else if (paragraph && !run) paragraph.markDeleted = true;
          break;
        case 'tr':
          rows.push(false);
          break;
        case 'r':
          run = { italic: null, bold: null, style: null, font: null, text: '' };
          break;
        case 'rPr':
          inRunProps = run !== null;
          break;
        case 'i':
          if (run && inRunProps) run.italic = onOff(attr(tag, W, 'val'));
          break;
        case 'b':
          if (run && inRunProps) run.bold = onOff(attr(tag, W, 'val'));
          break;
        case 'rStyle':
          if (run && inRunProps) run.style = attr(tag, W, 'val') ?? null;
          break;
        case 'rFonts':
          if (run && inRunProps) run.font = runFont(tag);
          break;
        case 't':
          inText = run !== null;
          break;
        case 'instrText':
          inInstruction = fields.length > 0;
          break;
        case 'fldSimple':
          fields.push({ instruction: attr(tag, W, 'instr') ?? '', result: true });
          break;
        case 'fldChar': {
          const type = attr(tag, W, 'fldCharType');
          if (type === 'begin') fields.push({ instruction: '', result: false });
          else if (type === 'separate' && fields.length > 0) fields.at(-1)!.result = true;
          else if (type === 'end') fields.pop();
          break;
        }
        case 'tab':
          if (run && parent === 'r' && !hidden()) run.text += ' ';
          break;
        case 'br':
        case 'cr':
          if (run && parent === 'r' && !hidden()) run.text += attr(tag, W, 'type') === 'page' ? ' ' : '\n';
          break;
        case 'noBreakHyphen':
          if (run && !hidden()) run.text += '-';
          break;
        case 'footnoteReference':
        case 'endnoteReference':
          // Footnotes and endnotes number their ids apart: "footnote:1" and "endnote:1" are two notes.
          if (paragraph) paragraph.notes.push(`${tag.local.slice(0, -9)}:${attr(tag, W, 'id') ?? ''}`);
          break;
        case 'commentReference':
          if (paragraph) paragraph.comments.push(attr(tag, W, 'id') ?? '');
          break;
      }
    },
    text(text) {
      if (skip > 0) return;
      if (inInstruction) fields.at(-1)!.instruction += text;
      else if (inText && run && !hidden()) run.text += text;
    },
    close() {
      if (skip > 0) {
        skip--;
        return;
      }
      const local = stack.pop();
      switch (local) {
        case 't':
          inText = false;
          break;
        case 'instrText':
          inInstruction = false;
          break;
        case 'fldSimple':
          fields.pop();
          break;
        case 'rPr':
          inRunProps = false;
          break;
        case 'r':
          closeRun();
          run = null;
          break;
        case 'p': {
          if (!paragraph) break;
          const open = paragraph;
          paragraph = null;
          if (!rows.includes(true)) closeParagraph(open);
          break;
        }
        case 'tr':
          rows.pop();
          break;
        case 'txbxContent': {
          flushHeld();
          const restored = outer.pop();
          paragraph = restored?.paragraph ?? null;
          run = restored?.run ?? null;
          inRunProps = restored?.inRunProps ?? false;
          held = restored?.held ?? null;
          break;
        }
        case 'footnote':
        case 'endnote':
        case 'comment':
          flushHeld();
          story = '';
          skipStory = false;
          break;
      }
    },
  });
  flushHeld();
  return stories;
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
