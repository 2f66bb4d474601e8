/**
 * Package plumbing shared by the zip-based formats: relationship files (OOXML), part names
 * resolved against the part that names them, and Dublin Core metadata (DOCX core.xml, ODT
 * meta.xml).
 */

import { posix } from 'node:path';
import type { ZipArchive } from './zip-archive';
import { attr, parseXml, type XmlPart } from './xml';

const DC_NS = 'http://purl.org/dc/elements/1.1/';
const REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

export interface Relationship {
  type: string;
  /** The target as a part name inside the archive (no leading slash). */
  target: string;
  external: boolean;
}

/** `href` (relative to the part `from`, or absolute from the archive root) as a part name. */
export function resolvePart(from: string, href: string): string {
  let path = href;
  try {
    path = decodeURIComponent(href);
  } catch {
    // A stray % stays as it is.
  }
  if (path.startsWith('/')) return posix.normalize(path).slice(1);
  return posix.normalize(posix.join(posix.dirname(from), path)).replace(/^(\.\.\/)+/, '');
}

/** The relationships of `part` (from `<dir>/_rels/<name>.rels`), empty when it has none. */
export async function readRelationships(
  zip: ZipArchive,
  part: string,
  where: Omit<XmlPart, 'part'>,
): Promise<Relationship[]> {
  const relsName =
    part === '' ? '_rels/.rels' : posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`);
  if (!zip.has(relsName)) return [];
  const xml = await zip.readText(relsName);
  const relationships: Relationship[] = [];
  parseXml(
    xml,
    { ...where, part: relsName },
    {
      open(tag) {
        if (tag.uri !== REL_NS || tag.local !== 'Relationship') return;
        const target = attr(tag, '', 'Target') ?? '';
        const external = attr(tag, '', 'TargetMode') === 'External';
        relationships.push({
          type: attr(tag, '', 'Type') ?? '',
          target: external ? target : resolvePart(part, target),
          external,
        });
      },
    },
  );
  return relationships;
}

/** Dublin Core title, creator and language of a metadata part (`extra` adds elements by namespace and name). */
export function readDublinCore(
  xml: string,
  where: XmlPart,
  extra: { uri: string; local: string; as: 'title' | 'creator' | 'language' }[] = [],
): { title: string | null; creator: string | null; language: string | null } {
  const found: Record<'title' | 'creator' | 'language', string | null> = {
    title: null,
    creator: null,
    language: null,
  };
  let collecting: 'title' | 'creator' | 'language' | null = null;
  let text = '';
  parseXml(xml, where, {
    open(tag) {
      const key =
        tag.uri === DC_NS && (tag.local === 'title' || tag.local === 'creator' || tag.local === 'language')
          ? tag.local
          : extra.find((e) => e.uri === tag.uri && e.local === tag.local)?.as;
      if (key && found[key] === null) {
        collecting = key;
        text = '';
      }
    },
    text(chunk) {
      if (collecting) text += chunk;
    },
    close() {
      if (collecting) {
        const value = text.trim();
        if (value) found[collecting] = value;
        collecting = null;
      }
    },
  });
  return found;
}
