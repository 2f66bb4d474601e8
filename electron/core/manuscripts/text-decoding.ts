/**
 * The text of a text file (plain text, Markdown, HTML): UTF-8 with or without a BOM, or UTF-16
 * little- or big-endian with its BOM. Bytes that are not UTF-8 are refused (MANUSCRIPT_INVALID)
 * rather than guessed, except (plain text and Markdown, decodeManuscriptText) a legacy
 * Vietnamese encoding recognised as such (legacy-vietnamese.ts: TCVN3, VNI, and VIQR in ASCII).
 */

import type { ManuscriptFormat } from '../../shared/manuscript';
import { invalidManuscript } from './errors';
import {
  decodeLegacyVietnameseBytes,
  decodeViqr,
  looksLikeViqr,
  type LegacyVietnameseEncoding,
} from './legacy-vietnamese';

/** The encoding a BOM at the start of `bytes` says, if any. */
export function bomEncoding(bytes: Uint8Array): 'utf-8' | 'utf-16le' | 'utf-16be' | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

export function decodeText(bytes: Uint8Array, fileName: string, format: ManuscriptFormat): string {
  const encoding = bomEncoding(bytes) ?? 'utf-8';
  try {
    // The decoder drops the BOM itself.
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch (error) {
    throw invalidManuscript(
      fileName,
      format,
      `it is not ${encoding.toUpperCase()} text (save it as UTF-8 and import it again)`,
      error,
    );
  }
}

/**
 * A plain-text or Markdown file's text, in Unicode: `decodeText`'s, or bytes in a legacy
 * Vietnamese encoding converted (`legacy` says which, for the import's note).
 */
export function decodeManuscriptText(
  bytes: Uint8Array,
  fileName: string,
  format: ManuscriptFormat,
): { text: string; legacy: LegacyVietnameseEncoding | null } {
  let text: string;
  try {
    text = decodeText(bytes, fileName, format);
  } catch (error) {
    const legacy = bomEncoding(bytes) === null ? decodeLegacyVietnameseBytes(bytes) : null;
    if (legacy) return { text: legacy.text, legacy: legacy.encoding };
    throw error;
  }
  return looksLikeViqr(text) ? { text: decodeViqr(text), legacy: 'viqr' } : { text, legacy: null };
}

/**
 * An HTML file's text: `decodeText`'s, or, for bytes that are not UTF-8 (and carry no BOM), the
 * bytes read as Windows-1252 with the refusal `decodeText` gave (`refusal`): the caller throws it
 * unless the page's text turns out to be in a legacy Vietnamese encoding (legacy-vietnamese-html.ts).
 */
export function decodeTextOrLatin(
  bytes: Uint8Array,
  fileName: string,
  format: ManuscriptFormat,
): { text: string; refusal: unknown } {
  try {
    return { text: decodeText(bytes, fileName, format), refusal: null };
  } catch (error) {
    if (bomEncoding(bytes) !== null) throw error;
    return { text: new TextDecoder('windows-1252').decode(bytes), refusal: error };
  }
}
