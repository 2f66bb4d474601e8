/**
 * The text of a text file (plain text, Markdown, HTML) and the character encoding it is in,
 * detected from its bytes (detectTextEncoding): UTF-8 with or without a BOM; UTF-16 little- or
 * big-endian with its BOM, or without one when every other byte is NUL-heavy (ASCII letters in
 * UTF-16); then, for bytes that are not UTF-8 (plain text and Markdown, decodeManuscriptText), a
 * legacy Vietnamese encoding recognised as such (legacy-vietnamese.ts: TCVN3, VNI), Windows-1258
 * when it reads as Vietnamese syllables, Windows-1252 when one of its own characters (“ ” ’ — €…,
 * bytes 0x80–0x9F) is there, else ISO-8859-1. Refused (MANUSCRIPT_INVALID): control bytes a text
 * never holds (a binary), and UTF-8 with a few broken bytes (read as a code page it would turn
 * every accented letter into two wrong ones). VIQR is ASCII, so UTF-8 here, converted after.
 *
 * The single-byte guess is one function (singleByteEncoding) so a detection library can take its
 * place; none is installed, and none we know tells Windows-1258 Vietnamese: the Vietnamese guess
 * is judged as the legacy encodings are, by how many of its words are Vietnamese syllables.
 */

import { TEXT_ENCODING_NAMES, type ManuscriptFormat, type TextEncoding } from '../../shared/manuscript';
import type { ManuscriptBuilder } from './builder';
import { invalidManuscript } from './errors';
import {
  decodeLegacyText,
  decodeLegacyVietnameseBytes,
  decodeViqr,
  looksLikeViqr,
  vietnameseWordScore,
  LEGACY_DETECTION,
  type LegacyVietnameseEncoding,
} from './legacy-vietnamese';

/** The encoding a BOM at the start of `bytes` says, if any. */
export function bomEncoding(bytes: Uint8Array): 'utf-8' | 'utf-16le' | 'utf-16be' | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

/** Bytes judged, at most, for the guesses that read the text (UTF-16 without BOM, Windows-1258). */
const SAMPLE_BYTES = 64 * 1024;

/**
 * UTF-16 without a BOM: of the byte pairs sampled, at least this share has a NUL on one side
 * (ASCII and Latin letters) and at most `maxOtherSide` on the other.
 */
const UTF16_NULS = { minOneSide: 0.3, maxOtherSide: 0.02 };

/**
 * Windows-1252's characters at 0x80–0x9F (Node 20's TextDecoder reads them as ISO-8859-1's C1
 * controls, U+0080–U+009F: checked in test/core/manuscripts/text-encodings.test.ts). The five
 * bytes it leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) are not text: detection refuses them.
 */
const WINDOWS_1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const WINDOWS_1252_UNDEFINED = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

/** Windows-1252 bytes as text, right at 0x80–0x9F whatever Node's decoder does there. */
export function decodeWindows1252(bytes: Uint8Array): string {
  return new TextDecoder('windows-1252')
    .decode(bytes)
    .replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]!);
}

/** `bytes` in `encoding` as text (NFC: Windows-1258 writes tones as combining marks). */
function decodeAs(bytes: Uint8Array, encoding: TextEncoding): string {
  switch (encoding) {
    case 'windows-1252':
      return decodeWindows1252(bytes);
    case 'iso-8859-1':
      // Every byte its own code point (TextDecoder's 'iso-8859-1' is WHATWG's Windows-1252).
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    case 'windows-1258':
      return new TextDecoder('windows-1258').decode(bytes).normalize('NFC');
    case 'tcvn3':
    case 'vni':
      // The tables' codes are the bytes as Latin-1 characters (Node's 'windows-1252' gives those).
      return decodeLegacyText(new TextDecoder('windows-1252').decode(bytes), encoding);
    default:
      // The decoder drops a BOM itself.
      return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  }
}

/** UTF-16 without a BOM, by where the NUL bytes of its first pairs stand; null when it is not. */
function utf16WithoutBom(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const pairs = Math.floor(Math.min(bytes.length, SAMPLE_BYTES) / 2);
  if (pairs < 2) return null;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < pairs * 2; i += 2) {
    if (bytes[i] === 0) even++;
    if (bytes[i + 1] === 0) odd++;
  }
  const { minOneSide, maxOtherSide } = UTF16_NULS;
  if (odd >= pairs * minOneSide && even <= pairs * maxOtherSide) return 'utf-16le';
  if (even >= pairs * minOneSide && odd <= pairs * maxOtherSide) return 'utf-16be';
  return null;
}

/** A control byte no text holds (tab, line and page breaks, and the old end-of-file mark are text). */
function isBinaryControl(byte: number): boolean {
  return (
    byte < 0x20 &&
    byte !== 0x09 &&
    byte !== 0x0a &&
    byte !== 0x0b &&
    byte !== 0x0c &&
    byte !== 0x0d &&
    byte !== 0x1a
  );
}

/**
 * Well-formed UTF-8 sequences of two bytes or more, and bytes over 0x7F outside one, in `bytes`
 * (a sequence cut at the end counts as neither: a sample may end inside one).
 */
function utf8Sequences(bytes: Uint8Array): { valid: number; broken: number } {
  let valid = 0;
  let broken = 0;
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i]!;
    const length =
      lead < 0x80
        ? 1
        : lead >= 0xc2 && lead <= 0xdf
          ? 2
          : lead >= 0xe0 && lead <= 0xef
            ? 3
            : lead >= 0xf0 && lead <= 0xf4
              ? 4
              : 0;
    if (length === 1) {
      i++;
      continue;
    }
    let ok = length > 0;
    let n = 1;
    for (; ok && n < length && i + n < bytes.length; n++) ok = (bytes[i + n]! & 0xc0) === 0x80;
    if (ok && n === length) {
      valid++;
      i += length;
    } else if (ok) {
      break; // cut at the end
    } else {
      broken++;
      i++;
    }
  }
  return { valid, broken };
}

/**
 * The single-byte encoding of bytes that are not UTF-8 (and carry no BOM), or null when they are
 * not text. A detection library would answer here.
 */
function singleByteEncoding(bytes: Uint8Array): TextEncoding | null {
  const sample = bytes.subarray(0, SAMPLE_BYTES);
  let windowsOnly = false;
  for (const byte of bytes) {
    if (isBinaryControl(byte) || WINDOWS_1252_UNDEFINED.has(byte)) return null;
    if (byte >= 0x80 && byte <= 0x9f) windowsOnly = true;
  }
  const { valid, broken } = utf8Sequences(sample);
  // UTF-8 with broken bytes, not a code page: in a code page's text a byte over 0x7F is seldom
  // followed by the ones that make a UTF-8 sequence (ß + “ is one), far fewer than one in ten.
  if (valid > 0 && valid * 10 >= broken) return null;
  const legacy = decodeLegacyVietnameseBytes(sample);
  if (legacy) return legacy.encoding;
  const { words, syllables } = vietnameseWordScore(decodeAs(sample, 'windows-1258'));
  if (words >= LEGACY_DETECTION.minWords && syllables / words >= LEGACY_DETECTION.minSyllableShare)
    return 'windows-1258';
  return windowsOnly ? 'windows-1252' : 'iso-8859-1';
}

/**
 * The character encoding of a text file's bytes, or null when they are not text (a NUL or a
 * control byte outside UTF-16, broken UTF-8). `partial` when `bytes` are the file's first bytes
 * only (a character may be cut at their end).
 */
export function detectTextEncoding(bytes: Uint8Array, partial = false): TextEncoding | null {
  const bom = bomEncoding(bytes);
  if (bom) return bom;
  const utf16 = utf16WithoutBom(bytes);
  if (utf16) return utf16;
  if (bytes.includes(0)) return null;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: partial });
    return 'utf-8';
  } catch {
    return singleByteEncoding(bytes);
  }
}

function notText(fileName: string, format: ManuscriptFormat, encoding: string, cause?: unknown): Error {
  return invalidManuscript(
    fileName,
    format,
    `it is not ${encoding} text (save it as UTF-8 and import it again)`,
    cause,
  );
}

export function decodeText(bytes: Uint8Array, fileName: string, format: ManuscriptFormat): string {
  const encoding = bomEncoding(bytes) ?? 'utf-8';
  try {
    // The decoder drops the BOM itself.
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch (error) {
    throw notText(fileName, format, encoding.toUpperCase(), error);
  }
}

/**
 * A plain-text or Markdown file's text, in Unicode, and the encoding detected
 * (detectTextEncoding); `legacy` says which legacy Vietnamese encoding (TCVN3, VNI, VIQR) was
 * converted, for the import's note.
 */
export function decodeManuscriptText(
  bytes: Uint8Array,
  fileName: string,
  format: ManuscriptFormat,
): { text: string; encoding: TextEncoding; legacy: LegacyVietnameseEncoding | null } {
  const encoding = detectTextEncoding(bytes);
  if (encoding === null) throw notText(fileName, format, 'UTF-8');
  let text: string;
  try {
    text = decodeAs(bytes, encoding);
  } catch (error) {
    throw notText(fileName, format, encoding.toUpperCase(), error);
  }
  if (encoding === 'tcvn3' || encoding === 'vni') return { text, encoding, legacy: encoding };
  return looksLikeViqr(text)
    ? { text: decodeViqr(text), encoding, legacy: 'viqr' }
    : { text, encoding, legacy: null };
}

/**
 * Notes the encoding a text file was read in on the manuscript (`textEncoding`), with a warning
 * when it is not UTF-8 (TCVN3 and VNI have the conversion's note instead: noteLegacyConversion).
 */
export function noteTextEncoding(builder: ManuscriptBuilder, encoding: TextEncoding): void {
  builder.textEncoding = encoding;
  if (encoding === 'utf-8' || encoding === 'tcvn3' || encoding === 'vni') return;
  const guessed =
    encoding === 'utf-16le' || encoding === 'utf-16be'
      ? ''
      : ', guessed from its bytes: check its accented letters';
  builder.warnings.push(`Read as ${TEXT_ENCODING_NAMES[encoding]} text (the file is not UTF-8${guessed}).`);
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
