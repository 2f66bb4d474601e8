/**
 * ODT (OpenDocument text) manuscripts, read with yauzl (zip-archive.ts) and saxes: text:h of
 * outline level 1 starts a chapter named by its text; text:p and deeper headings are its
 * paragraphs, with spans whose style (automatic styles of content.xml, named styles of
 * styles.xml, through style:parent-style-name) is fo:font-style italic → em and fo:font-weight
 * bold → strong. Notes (text:note) and comments (office:annotation) are left out unless asked
 * for, then placed as paragraphs after the paragraph holding them; tracked deletions, frames
 * and generated indexes are left out. Metadata from meta.xml; a password-protected document
 * (encryption in the manifest) is refused.
 */

import type { Manuscript, ManuscriptOptions } from '../../shared/manuscript';
import { ManuscriptBuilder, type TextRun } from './builder';
import { invalidManuscript } from './errors';
import { decodeLegacyName, legacyEncodingOfText, noteLegacyConversion } from './legacy-vietnamese';
import { readDublinCore } from './ooxml-parts';
import type { ManuscriptReader } from './reader';
import { attr, parseXml, type XmlPart } from './xml';
import { openZipArchive, type ZipArchive } from './zip-archive';

const OFFICE = 'urn:oasis:names:tc:opendocument:xmlns:office:1.0';
const STYLE = 'urn:oasis:names:tc:opendocument:xmlns:style:1.0';
const TEXT = 'urn:oasis:names:tc:opendocument:xmlns:text:1.0';
const FO = 'urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0';
const META = 'urn:oasis:names:tc:opendocument:xmlns:meta:1.0';
const MANIFEST = 'urn:oasis:names:tc:opendocument:xmlns:manifest:1.0';
const DRAW = 'urn:oasis:names:tc:opendocument:xmlns:drawing:1.0';

const ODT_MIMETYPES = new Set([
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.text-template',
]);

/** Text elements whose content is not read (tracked deletions, generated indexes). */
const SKIPPED_TEXT = new Set([
  'tracked-changes',
  'note-citation',
  'table-of-content',
  'alphabetical-index',
  'illustration-index',
  'table-index',
  'object-index',
  'user-index',
  'bibliography',
  'sequence-decls',
  'variable-decls',
  'user-field-decls',
]);

interface OdfStyle {
  parent: string | null;
  italic: boolean | null;
  bold: boolean | null;
  outline: number | null;
}
type Styles = Map<string, OdfStyle>;

export const readOdt: ManuscriptReader = async (bytes, fileName, options) => {
  const zip = await openZipArchive(bytes, fileName, 'odt');
  return readOdfText(zip, fileName, options);
};

async function readOdfText(
  zip: ZipArchive,
  fileName: string,
  options: ManuscriptOptions,
): Promise<Manuscript> {
  const base = { fileName, format: 'odt' as const };
  if (zip.has('mimetype')) {
    const mimetype = (await zip.readText('mimetype')).trim();
    if (!ODT_MIMETYPES.has(mimetype)) {
      throw invalidManuscript(fileName, 'odt', `it is "${mimetype.slice(0, 80)}", not an OpenDocument text`);
    }
  }
  if (zip.has('META-INF/manifest.xml')) {
    let encrypted = false;
    parseXml(
      await zip.readText('META-INF/manifest.xml'),
      { ...base, part: 'META-INF/manifest.xml' },
      {
        open(tag) {
          if (tag.uri === MANIFEST && tag.local === 'encryption-data') encrypted = true;
        },
      },
    );
    if (encrypted)
      throw invalidManuscript(
        fileName,
        'odt',
        'it is password-protected (encrypted); save a copy without a password',
        undefined,
        'encrypted',
      );
  }
  if (!zip.has('content.xml')) throw invalidManuscript(fileName, 'odt', 'its archive has no content.xml');

  const styles: Styles = new Map();
  if (zip.has('styles.xml'))
    readStyles(await zip.readText('styles.xml'), { ...base, part: 'styles.xml' }, styles);
  const content = await zip.readText('content.xml');
  readStyles(content, { ...base, part: 'content.xml' }, styles);

  const builder = new ManuscriptBuilder(fileName, 'odt');
  // Text in TCVN3 or VNI (an old document's `.VnTime` runs kept as Latin-1 characters), or VIQR.
  const legacy = legacyEncodingOfText(bodyText(content, { ...base, part: 'content.xml' }));
  if (legacy) noteLegacyConversion(builder, legacy, 'the text');
  const convert = legacy ? (text: string) => decodeLegacyName(text, legacy) : (text: string) => text;
  const left = readBody(content, { ...base, part: 'content.xml' }, styles, builder, options, convert);
  builder.noteLeftOut(left.notes);
  if (left.comments > 0) {
    builder.warnings.push(
      `${left.comments} comment${left.comments === 1 ? '' : 's'} left out (ask for comments to keep them).`,
    );
  }
  const meta = zip.has('meta.xml')
    ? readDublinCore(await zip.readText('meta.xml'), { ...base, part: 'meta.xml' }, [
        { uri: META, local: 'initial-creator', as: 'creator' },
      ])
    : { title: null, creator: null, language: null };
  const name = (text: string | null): string | null =>
    text && legacy ? decodeLegacyName(text, legacy) : text;
  return builder.finish({ title: name(meta.title), author: name(meta.creator), language: meta.language });
}

/** The text of the document's body (office:text), its paragraphs on lines of their own. */
function bodyText(xml: string, where: XmlPart): string {
  const parts: string[] = [];
  let inBody = false;
  parseXml(xml, where, {
    open(tag) {
      if (tag.uri === OFFICE && tag.local === 'text') inBody = true;
    },
    text(text) {
      if (inBody) parts.push(text);
    },
    close(tag) {
      if (tag.uri === OFFICE && tag.local === 'text') inBody = false;
      else if (tag.uri === TEXT && (tag.local === 'p' || tag.local === 'h')) parts.push('\n');
    },
  });
  return parts.join('');
}

function readStyles(xml: string, where: XmlPart, styles: Styles): void {
  let current: OdfStyle | null = null;
  parseXml(xml, where, {
    open(tag) {
      if (tag.uri !== STYLE) return;
      if (tag.local === 'style') {
        const outline = attr(tag, STYLE, 'default-outline-level');
        current = {
          parent: attr(tag, STYLE, 'parent-style-name') ?? null,
          italic: null,
          bold: null,
          outline: outline ? Number(outline) : null,
        };
        styles.set(attr(tag, STYLE, 'name') ?? '', current);
      } else if (tag.local === 'text-properties' && current) {
        const style = attr(tag, FO, 'font-style');
        if (style !== undefined) current.italic = style === 'italic' || style === 'oblique';
        const weight = attr(tag, FO, 'font-weight');
        if (weight !== undefined) current.bold = weight === 'bold' || Number(weight) >= 600;
      }
    },
    close(tag) {
      if (tag.uri === STYLE && tag.local === 'style') current = null;
    },
  });
}

function inherited<K extends 'italic' | 'bold' | 'outline'>(
  styles: Styles,
  name: string | undefined,
  key: K,
): OdfStyle[K] | null {
  let id: string | null = name ?? null;
  for (let step = 0; id !== null && step < 10; step++) {
    const style = styles.get(id);
    if (!style) return null;
    if (style[key] !== null) return style[key];
    id = style.parent;
  }
  return null;
}

interface OpenParagraph {
  runs: TextRun[];
  heading: number | null;
  /** Notes and comments held by this paragraph (each its paragraphs), placed after it. */
  after: Aside[];
}

/** A note or comment kept: its paragraphs, added after the paragraph holding it. */
interface Aside {
  note: boolean;
  paragraphs: TextRun[][];
}

function readBody(
  xml: string,
  where: XmlPart,
  styles: Styles,
  builder: ManuscriptBuilder,
  options: ManuscriptOptions,
  convert: (text: string) => string,
): { notes: number; comments: number } {
  const left = { notes: 0, comments: 0 };
  let inBody = false;
  let skip = 0;
  /** Paragraphs open, outermost first (a note's paragraphs sit inside the citing paragraph). */
  const paragraphs: OpenParagraph[] = [];
  /** Notes/comments kept, open: their paragraphs go to the paragraph outside them. */
  const asides: Aside[] = [];
  const keepNotes = (options.notes ?? 'omit') !== 'omit';
  const openAside = (note: boolean): void => {
    const aside = { note, paragraphs: [] };
    paragraphs.at(-1)?.after.push(aside);
    asides.push(aside);
  };
  const spans: ('em' | 'strong' | undefined)[] = [];
  const push = (text: string): void => {
    const paragraph = paragraphs.at(-1);
    if (paragraph) paragraph.runs.push({ text, emphasis: spans.at(-1) });
  };

  parseXml(xml, where, {
    open(tag) {
      if (skip > 0) {
        skip++;
        return;
      }
      if (tag.uri === OFFICE && tag.local === 'text') inBody = true;
      if (!inBody) return;
      if (tag.uri === DRAW && tag.local === 'frame') {
        skip = 1;
        return;
      }
      if (tag.uri === OFFICE && tag.local === 'annotation') {
        if (!options.includeComments) {
          left.comments++;
          skip = 1;
        } else openAside(false);
        return;
      }
      if (tag.uri !== TEXT) return;
      if (SKIPPED_TEXT.has(tag.local)) {
        skip = 1;
        return;
      }
      switch (tag.local) {
        case 'note':
          if (!keepNotes) {
            left.notes++;
            skip = 1;
          } else openAside(true);
          break;
        case 'p':
        case 'h': {
          const style = attr(tag, TEXT, 'style-name');
          const level =
            tag.local === 'h'
              ? Number(attr(tag, TEXT, 'outline-level') ?? inherited(styles, style, 'outline') ?? 1)
              : null;
          paragraphs.push({ runs: [], heading: level, after: [] });
          break;
        }
        case 'span': {
          const style = attr(tag, TEXT, 'style-name');
          const bold = inherited(styles, style, 'bold');
          const italic = inherited(styles, style, 'italic');
          const outer = spans.at(-1);
          spans.push(
            bold ? 'strong' : italic ? 'em' : bold === false && italic === false ? undefined : outer,
          );
          break;
        }
        case 's':
          push(' '.repeat(Math.min(Number(attr(tag, TEXT, 'c') ?? 1) || 1, 100)));
          break;
        case 'tab':
          push(' ');
          break;
        case 'line-break':
          push('\n');
          break;
      }
    },
    text(text) {
      if (skip === 0 && inBody) push(convert(text.replace(/[\t\n\r]/g, ' ')));
    },
    close(tag) {
      if (skip > 0) {
        skip--;
        return;
      }
      if (tag.uri === OFFICE && tag.local === 'text') inBody = false;
      if ((tag.uri === OFFICE && tag.local === 'annotation') || (tag.uri === TEXT && tag.local === 'note')) {
        asides.pop();
        return;
      }
      if (tag.uri !== TEXT) return;
      if (tag.local === 'span') spans.pop();
      if (tag.local !== 'p' && tag.local !== 'h') return;
      const paragraph = paragraphs.pop();
      if (!paragraph) return;
      const aside = asides.at(-1);
      if (aside && paragraphs.length > 0) {
        aside.paragraphs.push(paragraph.runs, ...paragraph.after.flatMap((inner) => inner.paragraphs));
        return;
      }
      if (paragraph.heading === 1) {
        const title = paragraph.runs.map((run) => run.text).join('');
        if (title.trim()) builder.startChapter(title);
        else builder.addParagraph(paragraph.runs);
      } else {
        builder.addParagraph(paragraph.runs);
      }
      for (const aside of paragraph.after) {
        if (aside.note) builder.addNote(aside.paragraphs, options.notes);
        else for (const runs of aside.paragraphs) builder.addParagraph(runs);
      }
    },
  });
  return left;
}
