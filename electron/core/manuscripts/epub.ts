/**
 * EPUB 2 and 3 manuscripts, read with yauzl (zip-archive.ts), fast-xml-parser (container.xml,
 * the OPF package, the NCX, encryption.xml; each checked first by saxes for entity declarations,
 * well-formedness and the limits: xml.ts checkXml) and parse5 (the nav document and the XHTML
 * content, under the limits of html-parse.ts):
 * spine order; a chapter per content document, titled from the EPUB 3 nav first, then the NCX,
 * then its first heading (an h1/h2 after text inside a document starts another chapter), then its
 * own <title> unless that repeats the book's title; a document the table of contents points into
 * several times (`stories.xhtml#s2`…) is a chapter per entry, split where each fragment's element
 * stands (entries in a nav's hidden sub-list left out); page-break markers and page lists
 * (html-text.ts isPageBreak) are neither text nor chapters; a heading or a block styled as a title that
 * is the book's title is neither text nor a chapter (titles.ts); paragraphs split at `<br>` lines
 * as html-text.ts says; front
 * and back matter marked from epub:type, nav landmarks, guide references and linear="no"; the
 * nav document itself is not a chapter. Metadata from dc:title, dc:creator, dc:language; the
 * cover from properties="cover-image" (EPUB 3) or meta name="cover" (EPUB 2). An EPUB whose
 * content is encrypted (DRM) is refused; font obfuscation alone is fine. Footnotes (aside
 * epub:type="footnote"…) are left out unless asked for (the notes option: html-notes.ts). A
 * Project Gutenberg EPUB's header (to its START marker and the credit after it) and licence (from
 * its END marker to the book's end) are front and back matter, as in its text (gutenberg.ts).
 */

import { XMLParser } from 'fast-xml-parser';
import type { DefaultTreeAdapterTypes } from 'parse5';
import {
  MANUSCRIPT_LIMITS,
  type ChapterKind,
  type ManuscriptCover,
  type ManuscriptOptions,
} from '../../shared/manuscript';
import { ManuscriptBuilder, plainText } from './builder';
import { invalidManuscript, sizeText, type ManuscriptRefusal } from './errors';
import { parseHtmlDocument } from './html-parse';
import { hasGutenbergLine, isGutenbergCredit } from './gutenberg';
import {
  htmlAttr,
  htmlBlockRuns,
  htmlBlocks,
  htmlBlockText,
  htmlElements,
  htmlText,
  isBookTitle,
  isNote,
  type HtmlElement,
} from './html-text';
import { HtmlNotes, noteIds, type OtherFilesNotes } from './html-notes';
import { decodeLegacyName, noteLegacyConversion, type LegacyVietnameseEncoding } from './legacy-vietnamese';
import { convertLegacyHtml } from './legacy-vietnamese-html';
import { resolvePart } from './ooxml-parts';
import type { ManuscriptReader } from './reader';
import { BookTitle, sameTitle } from './titles';
import { checkXml, refuseEntityDeclarations } from './xml';
import { openZipArchive, type ZipArchive } from './zip-archive';

/** Font obfuscation (IDPF and Adobe): not DRM, the text is readable. */
const FONT_OBFUSCATION = new Set(['http://www.idpf.org/2008/embedding', 'http://ns.adobe.com/pdf/enc#RC']);

/** epub:type / landmark / guide types of matter a listener usually skips. */
const FRONT_TYPES = new Set([
  'cover',
  'titlepage',
  'title-page',
  'halftitlepage',
  'copyright-page',
  'copyright',
  'toc',
  'landmarks',
  'loi',
  'lot',
  'dedication',
  'frontmatter',
  'seriespage',
  'imprint',
  'contributors',
  'other-credits',
]);
const BACK_TYPES = new Set([
  'index',
  'acknowledgments',
  'acknowledgements',
  'colophon',
  'backmatter',
  'bibliography',
  'glossary',
  'endnotes',
  'rearnotes',
  'errata',
]);

const ARRAYS = new Set([
  'item',
  'itemref',
  'reference',
  'meta',
  'title',
  'creator',
  'language',
  'rootfile',
  'navPoint',
  'EncryptedData',
]);

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (tagName) => ARRAYS.has(tagName),
});

type XmlObject = Record<string, unknown>;

interface ManifestItem {
  id: string;
  href: string;
  mediaType: string;
  properties: string[];
}

function kindOfTypes(types: Iterable<string>): ChapterKind | null {
  let kind: ChapterKind | null = null;
  for (const type of types) {
    if (type === 'bodymatter' || type === 'chapter') return 'body';
    if (FRONT_TYPES.has(type)) kind ??= 'front';
    else if (BACK_TYPES.has(type)) kind ??= 'back';
  }
  return kind;
}

function tokens(value: string | undefined): string[] {
  return (value ?? '').split(/\s+/).filter(Boolean);
}

function textOf(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (value && typeof value === 'object' && '#text' in value) return textOf((value as XmlObject)['#text']);
  return '';
}

function list(value: unknown): XmlObject[] {
  if (Array.isArray(value)) return value.filter((v): v is XmlObject => typeof v === 'object' && v !== null);
  return value && typeof value === 'object' ? [value as XmlObject] : [];
}

function withoutFragment(href: string): string {
  const hash = href.indexOf('#');
  return hash < 0 ? href : href.slice(0, hash);
}

/** The fragment of an href (`ch.xhtml#s2` → `s2`, percent-decoded), or null. */
function fragmentOf(href: string): string | null {
  const hash = href.indexOf('#');
  if (hash < 0 || hash === href.length - 1) return null;
  const fragment = href.slice(hash + 1);
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/** An entry of the table of contents (nav or NCX), in its order. */
interface TocEntry {
  file: string;
  fragment: string | null;
  title: string;
}

/** Whether an element stands in a `hidden` one below `top` (a nav's collapsed sub-list). */
function hiddenBelow(element: HtmlElement, top: HtmlElement): boolean {
  for (let node: unknown = element; node && node !== top; node = (node as HtmlElement).parentNode) {
    if ('attrs' in (node as HtmlElement) && htmlAttr(node as HtmlElement, 'hidden') !== undefined)
      return true;
  }
  return false;
}

export const readEpub: ManuscriptReader = async (bytes, fileName, options) => {
  const zip = await openZipArchive(bytes, fileName, 'epub');
  return new EpubReader(zip, fileName, options).read();
};

class EpubReader {
  private readonly builder: ManuscriptBuilder;
  /**
   * Where the reading is in a Project Gutenberg book: its header (to the START marker), the
   * volunteers' credit after it, the book, its licence (from the END marker to the book's end,
   * across files); `none` before any header.
   */
  private gutenberg: 'none' | 'header' | 'credits' | 'book' | 'licence' = 'none';

  constructor(
    private readonly zip: ZipArchive,
    private readonly fileName: string,
    private readonly options: ManuscriptOptions,
  ) {
    this.builder = new ManuscriptBuilder(fileName, 'epub');
  }

  private invalid(reason: string, cause?: unknown, refusal?: ManuscriptRefusal): Error {
    return invalidManuscript(this.fileName, 'epub', reason, cause, refusal);
  }

  private async xml(part: string): Promise<XmlObject> {
    const text = await this.zip.readText(part);
    // Well-formed, within the limits and declaring no entity before the lenient parser sees it.
    checkXml(text, { fileName: this.fileName, format: 'epub', part });
    return xmlParser.parse(text) as XmlObject;
  }

  private async html(part: string): Promise<DefaultDocument> {
    const text = await this.zip.readText(part);
    refuseEntityDeclarations(text, { fileName: this.fileName, format: 'epub', part });
    return parseHtmlDocument(text, this.fileName, part);
  }

  async read() {
    const { zip } = this;
    if (zip.has('mimetype')) {
      const mimetype = (await zip.readText('mimetype')).trim();
      if (mimetype !== 'application/epub+zip')
        throw this.invalid(`its mimetype is "${mimetype.slice(0, 60)}", not application/epub+zip`);
    }
    await this.refuseEncryption();
    if (!zip.has('META-INF/container.xml')) throw this.invalid('its archive has no META-INF/container.xml');
    const container = await this.xml('META-INF/container.xml');
    const rootfiles = list(
      (container.container as XmlObject | undefined)?.rootfiles &&
        ((container.container as XmlObject).rootfiles as XmlObject).rootfile,
    );
    const opfPath = textOf(
      (rootfiles.find((r) => r['@_media-type'] === 'application/oebps-package+xml') ?? rootfiles[0])?.[
        '@_full-path'
      ],
    );
    if (!opfPath) throw this.invalid('META-INF/container.xml names no package (OPF) file');
    if (!zip.has(opfPath)) throw this.invalid(`its package file ${opfPath} is missing`);
    const opf = (await this.xml(opfPath)).package as XmlObject | undefined;
    if (!opf) throw this.invalid(`${opfPath} is not an OPF package`);

    const metadata = (opf.metadata as XmlObject | undefined) ?? {};
    const first = (key: string): string | null => {
      for (const entry of Array.isArray(metadata[key]) ? (metadata[key] as unknown[]) : [metadata[key]]) {
        const text = plainText(textOf(entry));
        if (text) return text;
      }
      return null;
    };

    const manifest = manifestOf(opf, opfPath);
    const spineNode = (opf.spine as XmlObject | undefined) ?? {};
    const spine = list(spineNode.itemref)
      .map((ref) => ({
        item: manifest.get(textOf(ref['@_idref'])),
        linear: textOf(ref['@_linear']) !== 'no',
      }))
      .filter((ref): ref is { item: ManifestItem; linear: boolean } => ref.item !== undefined);
    if (spine.length === 0) throw this.invalid(`${opfPath} has no spine (no reading order)`);
    this.title = new BookTitle(first('title'));

    const toc: TocEntry[] = [];
    const typesByFile = new Map<string, string[]>();
    const addType = (file: string, type: string): void => {
      typesByFile.set(file, [...(typesByFile.get(file) ?? []), type]);
    };
    const nav = [...manifest.values()].find((item) => item.properties.includes('nav'));
    if (nav && zip.has(nav.href)) await this.readNav(nav.href, toc, addType);
    if (toc.length === 0) {
      const ncx =
        manifest.get(textOf(spineNode['@_toc'])) ??
        [...manifest.values()].find((item) => item.mediaType === 'application/x-dtbncx+xml');
      if (ncx && zip.has(ncx.href)) await this.readNcx(ncx.href, toc);
    }
    for (const reference of list(((opf.guide as XmlObject | undefined) ?? {}).reference)) {
      const href = textOf(reference['@_href']);
      if (href)
        addType(resolvePart(opfPath, withoutFragment(href)), textOf(reference['@_type']).toLowerCase());
    }

    // Notes kept in files of their own (notes.xhtml#n1), when notes are asked for: every content
    // document's notes by file and id, so a call in any file finds its note.
    const documents = new Map<string, DefaultDocument>();
    const notesByTarget = new Map<string, HtmlElement>();
    if ((this.options.notes ?? 'omit') !== 'omit') {
      for (const { item } of spine) {
        if (item === nav || (!/html/.test(item.mediaType) && item.mediaType !== '') || !zip.has(item.href))
          continue;
        const document = await this.html(item.href);
        documents.set(item.href, document);
        for (const element of htmlElements(document)) {
          if (!isNote(element)) continue;
          for (const id of noteIds(element)) {
            const target = `${item.href}#${id}`;
            if (!notesByTarget.has(target)) notesByTarget.set(target, element);
          }
        }
      }
    }
    const placedNotes = new Set<HtmlElement>();
    const otherFilesNotes = (href: string): OtherFilesNotes => ({
      find: (file, id) => notesByTarget.get(`${file === '' ? href : resolvePart(href, file)}#${id}`),
      placed: placedNotes,
    });

    let bodySeen = false;
    for (const { item, linear } of spine) {
      if (item === nav) continue;
      if (!/html/.test(item.mediaType) && item.mediaType !== '') continue;
      if (!zip.has(item.href)) {
        this.builder.warnings.push(`${item.href}, in the reading order, is missing from the file: left out.`);
        continue;
      }
      const document = documents.get(item.href) ?? (await this.html(item.href));
      documents.delete(item.href);
      const legacy = this.convertLegacy(document);
      const body = [...htmlElements(document)].find((element) => element.tagName === 'body');
      if (!body) continue;
      const fileTypes = [
        ...(typesByFile.get(item.href) ?? []),
        ...tokens(htmlAttr(body, 'epub:type')),
        ...body.childNodes.flatMap((child) =>
          'tagName' in child ? tokens(htmlAttr(child, 'epub:type')) : [],
        ),
      ];
      const kind = kindOfTypes(fileTypes) ?? (linear ? 'body' : bodySeen ? 'back' : 'front');
      if (kind === 'body') bodySeen = true;
      const entries = toc.filter((entry) => entry.file === item.href);
      const named = (title: string): string => (legacy ? decodeLegacyName(title, legacy) : title);
      // Several entries into this file (a collection of stories in one file): a chapter from each
      // entry whose fragment is an element of the file.
      const fragments = new Set(entries.map((entry) => entry.fragment));
      const sections = new Map<string, { title: string; kind: ChapterKind }>();
      if (fragments.size > 1) {
        for (const element of htmlElements(body)) {
          const id = htmlAttr(element, 'id');
          if (id === undefined || !fragments.has(id) || sections.has(id)) continue;
          const title = entries.find((entry) => entry.fragment === id)!.title;
          sections.set(id, {
            title: named(title),
            kind: kindOfTypes(tokens(htmlAttr(element, 'epub:type'))) ?? kind,
          });
        }
      }
      const whole = entries.find((entry) => entry.fragment === null);
      const split = sections.size + (whole ? 1 : 0) >= 2;
      const tocTitle = split ? (whole?.title ?? null) : (entries[0]?.title ?? null);
      this.readContent(
        otherFilesNotes(item.href),
        body,
        tocTitle !== null ? named(tocTitle) : null,
        kind,
        this.headTitle(document),
        split ? sections : new Map(),
      );
    }
    for (const [encoding, documents] of this.legacyDocuments) {
      noteLegacyConversion(
        this.builder,
        encoding,
        `the text of ${documents} content document${documents === 1 ? '' : 's'}`,
      );
    }
    return this.builder.finish({
      title: this.title.value,
      author: first('creator'),
      language: first('language'),
      cover: await this.cover(manifest, metadata),
    });
  }

  /** Content documents whose text was in a legacy Vietnamese encoding, by encoding. */
  private readonly legacyDocuments = new Map<LegacyVietnameseEncoding, number>();

  /**
   * Converts a content document's text when it is in a legacy Vietnamese encoding (decided per
   * document) and returns that encoding; the book's title written in it is converted with the first.
   */
  private convertLegacy(document: DefaultDocument): LegacyVietnameseEncoding | null {
    const encoding = convertLegacyHtml(document);
    if (!encoding) return null;
    if (this.legacyDocuments.size === 0 && this.title.value !== null) {
      this.title.value = decodeLegacyName(this.title.value, encoding);
    }
    this.legacyDocuments.set(encoding, (this.legacyDocuments.get(encoding) ?? 0) + 1);
    return encoding;
  }
  private title = new BookTitle(null);

  /** A content document's own <title>, unless it is the book's title (many makers repeat it on every page). */
  private headTitle(document: DefaultDocument): string | null {
    for (const element of htmlElements(document)) {
      if (element.tagName === 'body') return null;
      if (element.tagName !== 'title') continue;
      const text = plainText(htmlText(element));
      return text && !(this.title.value !== null && sameTitle(text, this.title.value)) ? text : null;
    }
    return null;
  }

  /**
   * A content document's chapter(s), named from the TOC, else its first heading, else its <title>;
   * `sections` (TOC fragments found in the file → title, and the kind its element's epub:type
   * says, else the file's) start a chapter each where their element stands; a heading before a
   * section's text is its title line, not text. A call whose note is in another file of the book
   * (`endnotes.xhtml#note-1`) finds it in `otherFiles`.
   */
  private readContent(
    otherFiles: OtherFilesNotes,
    body: HtmlElement,
    tocTitle: string | null,
    kind: ChapterKind,
    headTitle: string | null,
    sections: ReadonlyMap<string, { title: string; kind: ChapterKind }>,
  ): void {
    const { builder } = this;
    const notes = new HtmlNotes(builder, this.options.notes, otherFiles);
    const blocks = htmlBlocks(
      body,
      (element, before) => element.tagName === 'nav' || notes.skip(element, before),
      new Set(sections.keys()),
    );
    // Split by the contents with no entry for the file's start: text before the first section is
    // named by the file's <title> only when there is some (an empty start is no chapter, no warning).
    const untitledStart = sections.size > 0 && tocTitle === null;
    const startFile = () => builder.startChapter(untitledStart ? '' : (tocTitle ?? headTitle ?? ''), kind);
    // Project Gutenberg's header is front matter up to its START marker (and the credit after it);
    // a file after it starts the book; the licence goes on from its END marker to the book's end.
    const startAt =
      this.gutenberg === 'none'
        ? blocks.findIndex((block) => hasGutenbergLine(htmlBlockText(block), 'start'))
        : -1;
    if (startAt >= 0) {
      builder.startNamedChapter('gutenbergHeader', 'front');
      this.gutenberg = 'header';
    } else if (this.gutenberg !== 'licence') {
      if (this.gutenberg === 'credits') this.gutenberg = 'book';
      startFile();
    }
    let titled = tocTitle !== null;
    let text = false;
    let inSection = false;
    let chapterKind = kind;
    const addText = (runs: Parameters<ManuscriptBuilder['addParagraph']>[0]): void => {
      if (untitledStart && !inSection && !text && !titled && headTitle !== null) {
        builder.retitle(headTitle);
        titled = true;
      }
      builder.addParagraph(runs);
      text = true;
    };
    for (const [index, block] of blocks.entries()) {
      notes.after(index - 1);
      if (
        this.gutenberg === 'credits' &&
        !(block.type === 'paragraph' && isGutenbergCredit(htmlBlockText(block)))
      ) {
        startFile();
        this.gutenberg = 'book';
      }
      if (this.gutenberg !== 'licence' && hasGutenbergLine(htmlBlockText(block), 'end')) {
        builder.startNamedChapter('gutenbergLicence', 'back');
        this.gutenberg = 'licence';
      }
      if (this.gutenberg === 'header' || this.gutenberg === 'credits' || this.gutenberg === 'licence') {
        builder.addParagraph(htmlBlockRuns(block));
        if (index === startAt) this.gutenberg = 'credits';
        continue;
      }
      const section = block.anchors?.find((id) => sections.has(id));
      if (section !== undefined) {
        const { title, kind: sectionKind } = sections.get(section)!;
        builder.startChapter(title, sectionKind);
        chapterKind = sectionKind;
        titled = true;
        text = false;
        inSection = true;
      }
      // The book's title (dc:title, or the first block styled as a title) is neither text nor a chapter.
      if (isBookTitle(block, this.title)) continue;
      if (block.type === 'heading' && (block.level <= 2 || (inSection && !text))) {
        if (!text) {
          if (!titled) builder.retitle(block.text);
          titled = true;
        } else {
          builder.startChapter(block.text, chapterKind);
          text = false;
        }
      } else if (block.type === 'heading') {
        addText([{ text: block.text }]);
      } else {
        addText(block.runs);
      }
    }
    notes.after(blocks.length - 1);
    notes.finish();
  }

  private async readNav(
    navPath: string,
    toc: TocEntry[],
    addType: (file: string, type: string) => void,
  ): Promise<void> {
    const document = await this.html(navPath);
    for (const nav of htmlElements(document)) {
      if (nav.tagName !== 'nav') continue;
      const types = tokens(htmlAttr(nav, 'epub:type') ?? htmlAttr(nav, 'role'));
      const isToc = types.includes('toc') || types.includes('doc-toc');
      const isLandmarks = types.includes('landmarks');
      if (!isToc && !isLandmarks) continue;
      for (const a of htmlElements(nav)) {
        const href = a.tagName === 'a' ? htmlAttr(a, 'href') : undefined;
        if (!href) continue;
        const file = resolvePart(navPath, withoutFragment(href));
        if (isToc) {
          // Kept as written (a TCVN3 ư is a soft hyphen, which plainText drops): startChapter cleans it.
          const title = htmlText(a);
          // A collapsed (hidden) sub-list is detail the book does not show as its contents.
          if (plainText(title) && !hiddenBelow(a, nav)) toc.push({ file, fragment: fragmentOf(href), title });
        } else {
          for (const type of tokens(htmlAttr(a, 'epub:type'))) addType(file, type);
        }
      }
    }
  }

  private async readNcx(ncxPath: string, toc: TocEntry[]): Promise<void> {
    const ncx = (await this.xml(ncxPath)).ncx as XmlObject | undefined;
    const visit = (points: XmlObject[]): void => {
      for (const point of points) {
        const src = textOf((point.content as XmlObject | undefined)?.['@_src']);
        const title = textOf((point.navLabel as XmlObject | undefined)?.text);
        if (src && plainText(title)) {
          toc.push({ file: resolvePart(ncxPath, withoutFragment(src)), fragment: fragmentOf(src), title });
        }
        visit(list(point.navPoint));
      }
    };
    visit(list((ncx?.navMap as XmlObject | undefined)?.navPoint));
  }

  private async refuseEncryption(): Promise<void> {
    if (!this.zip.has('META-INF/encryption.xml')) return;
    const encryption = (await this.xml('META-INF/encryption.xml')).encryption as XmlObject | undefined;
    const encrypted = list(encryption?.EncryptedData).filter(
      (data) =>
        !FONT_OBFUSCATION.has(textOf((data.EncryptionMethod as XmlObject | undefined)?.['@_Algorithm'])),
    );
    if (encrypted.length > 0) {
      throw this.invalid(
        `it is encrypted (DRM): ${encrypted.length} of its files cannot be read without the seller's key; import a copy without DRM`,
        undefined,
        'encrypted',
      );
    }
  }

  private async cover(
    manifest: Map<string, ManifestItem>,
    metadata: XmlObject,
  ): Promise<ManuscriptCover | null> {
    let item = [...manifest.values()].find((i) => i.properties.includes('cover-image'));
    if (!item) {
      const meta = list(metadata.meta).find((m) => textOf(m['@_name']) === 'cover');
      item = meta ? manifest.get(textOf(meta['@_content'])) : undefined;
    }
    if (!item || !this.zip.has(item.href)) return null;
    const type = item.mediaType === 'image/jpg' ? 'image/jpeg' : item.mediaType;
    if (type !== 'image/jpeg' && type !== 'image/png') {
      this.builder.warnings.push(
        `The cover (${item.mediaType || 'unknown type'}) is not JPEG or PNG: left out.`,
      );
      return null;
    }
    const size = this.zip.size(item.href) ?? 0;
    if (size > MANUSCRIPT_LIMITS.coverBytes) {
      this.builder.warnings.push(
        `The cover is ${sizeText(size)}, more than ${sizeText(MANUSCRIPT_LIMITS.coverBytes)}: left out.`,
      );
      return null;
    }
    const bytes = await this.zip.readBytes(item.href);
    return { type, base64: bytes.toString('base64') };
  }
}

type DefaultDocument = DefaultTreeAdapterTypes.Document;

/** The items of an OPF package's manifest by id, their paths resolved from the package's. */
function manifestOf(opf: XmlObject, opfPath: string): Map<string, ManifestItem> {
  const manifest = new Map<string, ManifestItem>();
  for (const item of list((opf.manifest as XmlObject | undefined)?.item)) {
    const id = textOf(item['@_id']);
    const href = textOf(item['@_href']);
    if (!id || !href) continue;
    manifest.set(id, {
      id,
      href: resolvePart(opfPath, withoutFragment(href)),
      mediaType: textOf(item['@_media-type']),
      properties: tokens(textOf(item['@_properties'])),
    });
  }
  return manifest;
}
