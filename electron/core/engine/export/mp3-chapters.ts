/**
 * The ID3v2.3 tag at the head of an exported MP3: title, author, album, track number, cover
 * (`APIC`) and chapters (`CHAP` frames under one ordered top-level `CTOC`, as the ID3v2 Chapter
 * Frame Addendum 1.0 defines them). Version 2.3 because more players read it than 2.4;
 * text is ISO-8859-1 when it fits, else UTF-16 with a byte-order mark (2.3 has no UTF-8).
 */

import { AppError } from '../../../shared/errors';
import { MAX_ID3_CHAPTERS, type CoverImage } from '../../../shared/book-exports';
import type { ChapterTiming } from '../text/chapters';

export interface Id3Tags {
  title?: string | undefined;
  /** The author (TPE1, "artist"). */
  artist?: string | undefined;
  /** The book's title when the file is one of its chapters (TALB). */
  album?: string | undefined;
  genre?: string | undefined;
  /** Track number and count, for one file per chapter (TRCK "n/count"). */
  track?: { number: number; count: number } | undefined;
  cover?: CoverImage | undefined;
  /** Chapters, in order; their times are ms from the first audio frame. At most 255. */
  chapters?: readonly ChapterTiming[] | undefined;
}

function latin1(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

function u32(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value >>> 0);
  return out;
}

/** An encoded string with its encoding byte first: 0 (ISO-8859-1) or 1 (UTF-16 with BOM). */
function encodedText(text: string, terminated: boolean): Uint8Array {
  // eslint-disable-next-line no-control-regex -- ISO-8859-1 is exactly U+0000–U+00FF
  if (/^[\u0000-\u00ff]*$/.test(text))
    return concat([new Uint8Array([0]), latin1(text), new Uint8Array(terminated ? [0] : [])]);
  const utf16 = new Uint8Array(2 + text.length * 2 + (terminated ? 2 : 0));
  utf16[0] = 0xff;
  utf16[1] = 0xfe;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    utf16[2 + i * 2] = c & 0xff;
    utf16[3 + i * 2] = c >> 8;
  }
  return concat([new Uint8Array([1]), utf16]);
}

/** One ID3v2.3 frame: id, size (plain 32-bit in 2.3), no flags, body. */
function frame(id: string, body: Uint8Array): Uint8Array {
  return concat([latin1(id), u32(body.length), new Uint8Array(2), body]);
}

function textFrame(id: string, text: string): Uint8Array {
  return frame(id, encodedText(text, false));
}

/** Size as four 7-bit bytes (the tag header's "syncsafe" integer). */
function syncsafe(size: number): Uint8Array {
  if (size >= 2 ** 28)
    throw new AppError('OUTPUT_FAILED', 'the ID3 tag is too large (256 MiB limit): use a smaller cover');
  return new Uint8Array([(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f]);
}

/**
 * The whole ID3v2.3 tag (header and frames, no padding), to write before the first MP3 frame.
 * Throws AppError OUTPUT_FAILED for more than MAX_ID3_CHAPTERS chapters or a tag over 256 MiB.
 */
export function buildId3Tag(tags: Id3Tags): Uint8Array {
  const frames: Uint8Array[] = [];
  if (tags.title) frames.push(textFrame('TIT2', tags.title));
  if (tags.artist) frames.push(textFrame('TPE1', tags.artist));
  if (tags.album) frames.push(textFrame('TALB', tags.album));
  if (tags.genre) frames.push(textFrame('TCON', tags.genre));
  if (tags.track) frames.push(textFrame('TRCK', `${tags.track.number}/${tags.track.count}`));
  if (tags.cover) {
    frames.push(
      frame(
        'APIC',
        concat([
          new Uint8Array([0]),
          latin1(tags.cover.mimeType),
          // MIME terminator, picture type 3 (front cover), empty description and its terminator.
          new Uint8Array([0, 3, 0]),
          tags.cover.data,
        ]),
      ),
    );
  }
  const chapters = tags.chapters ?? [];
  if (chapters.length > MAX_ID3_CHAPTERS) {
    throw new AppError(
      'OUTPUT_FAILED',
      `an MP3 can list at most ${MAX_ID3_CHAPTERS} chapters (this book has ${chapters.length}); export one file per chapter instead`,
    );
  }
  if (chapters.length > 0) {
    const ids = chapters.map((_, i) => `ch${i}`);
    frames.push(
      frame(
        'CTOC',
        concat([
          latin1('toc\0'),
          // Flags: top-level (2) and ordered (1); then the entry count and the entries.
          new Uint8Array([0x03, chapters.length]),
          ...ids.map((id) => latin1(`${id}\0`)),
          ...(tags.title ? [textFrame('TIT2', tags.title)] : []),
        ]),
      ),
    );
    chapters.forEach((chapter, i) => {
      frames.push(
        frame(
          'CHAP',
          concat([
            latin1(`${ids[i]}\0`),
            u32(Math.round(chapter.startMs)),
            u32(Math.round(chapter.endMs)),
            // Byte offsets unknown: 0xFFFFFFFF says "use the times".
            u32(0xffffffff),
            u32(0xffffffff),
            textFrame('TIT2', chapter.title),
          ]),
        ),
      );
    });
  }
  const body = concat(frames);
  return concat([latin1('ID3'), new Uint8Array([3, 0, 0]), syncsafe(body.length), body]);
}
