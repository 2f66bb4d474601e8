/**
 * An audiobook file: AAC-LC in MP4 (`.m4b`) with chapters, title, author and cover.
 *
 * mediabunny writes the AAC track and the iTunes metadata (`moov/udta/meta/ilst`: title, artist,
 * album, genre, cover) to a temporary file; no npm package writes MP4 chapters, so this module
 * then rewrites its `moov` box with:
 * - a Nero `chpl` box in `moov/udta` (start times in 100 ns units; what ffmpeg and many
 *   players read), and
 * - a QuickTime chapter track (a disabled `text` track whose samples are the titles, linked from
 *   the audio track by `tref/chap`; what Apple's players read), the layout ffmpeg writes;
 * - an edit list on the audio track that skips the AAC encoder's 1024 priming samples (mediabunny
 *   writes none), so the audio starts at 0 and the chapter times match it to the sample.
 * The final file is laid out for fast start: `ftyp`, `moov`, the titles' `mdat`, the audio's
 * `mdat` (copied from the temporary file, its chunk offsets moved to match).
 */

import { randomBytes } from 'node:crypto';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { registerAacEncoder } from '@mediabunny/aac-encoder';
import {
  ALL_FORMATS,
  EncodedAudioPacketSource,
  EncodedPacket,
  EncodedPacketSink,
  FilePathSource,
  FilePathTarget,
  Input,
  Mp4OutputFormat,
  Output,
  type MetadataTags,
} from 'mediabunny';
import { AppError } from '../../../shared/errors';
import { StagedFile } from '../../platform/staged-file';
import type { AudioSink, AudioSinkResult } from '../audio/audio-sink';
import { PcmTrack } from '../audio/muxed-stream';
import { encoderError } from '../audio/stream-encoder';
import type { CoverImage } from '../../../shared/book-exports';
import type { ChapterTiming } from '../text/chapters';

export interface M4bOptions {
  /** Hz of the PCM written (and of the AAC stream). */
  sampleRate: number;
  /** AAC bitrate, bits per second. */
  bitrate: number;
  title?: string | undefined;
  author?: string | undefined;
  genre?: string | undefined;
  cover?: CoverImage | undefined;
  /** Chapters in order, ms from the start of the audio (the last one ending at its end). */
  chapters: readonly ChapterTiming[];
  /** Folder for the intermediate files (the caller's temporary folder). */
  tempDir: string;
  /** Called with the fraction of the encoding done (0–1), from the first write on. */
  onEncodeProgress?: ((fraction: number) => void) | undefined;
  /** Encoders run at once (default: the machine's cores, at most MAX_PARTS). */
  parts?: number | undefined;
  /** Filled in by `finish` (for bench/export.bench.ts): ms spent encoding, and joining and writing the MP4. */
  timings?: { encodeMs: number; muxMs: number } | undefined;
}

/** Priming samples FFmpeg's AAC encoder puts before the audio (its `initial_padding`). */
const AAC_PRIMING_SAMPLES = 1024;

/** Sample rates AAC can carry. */
const AAC_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000];

/** Most chapters a `chpl` box can list (one-byte count); the chapter track lists them all. */
const MAX_CHPL_CHAPTERS = 255;

/** AAC frame length, samples: the encoder's MDCT windows overlap by one frame. */
const AAC_FRAME = 1024;

/**
 * Frames of the book each part's encoder is fed before its first kept frame and after its last,
 * and drops: before, about three seconds, so that its rate control (which learns how many bits
 * the audio needs as it goes) has settled on the book's audio as one encoder's would have; after,
 * two, so that its window shapes (which look one frame ahead) are chosen on the book's audio too.
 */
const LEAD_IN_FRAMES = 128;
const LOOKAHEAD_FRAMES = 2;

/** Most encoders run at once on one book (each is a worker thread with its own WASM memory). */
const MAX_PARTS = 4;

/** Samples read from the mastered PCM per block. */
const READ_BLOCK = 65536;

/**
 * Where a book's audio is cut for encoding in parts: at most `parts − 1` chapter starts, each
 * moved back to a whole AAC frame, the ones nearest to equal parts. A cut lies in the room tone
 * (or silence) between two chapters, at least a second from speech (each chapter starts with
 * its head and the one before ends with its tail), so the frames on either side of it, each
 * encoded by another encoder, join where nothing but room tone is heard.
 */
export function aacCuts(chapterStarts: readonly number[], total: number, parts: number): number[] {
  const candidates = chapterStarts
    .map((start) => Math.floor(start / AAC_FRAME) * AAC_FRAME)
    .filter(
      (cut) => cut >= (2 + LEAD_IN_FRAMES) * AAC_FRAME && cut <= total - (2 + LOOKAHEAD_FRAMES) * AAC_FRAME,
    );
  const cuts: number[] = [];
  for (let k = 1; k < parts; k++) {
    const ideal = (total * k) / parts;
    let best: number | undefined;
    for (const cut of candidates) {
      if (cuts.includes(cut) || (cuts.length > 0 && cut <= cuts[cuts.length - 1]!)) continue;
      if (best === undefined || Math.abs(cut - ideal) < Math.abs(best - ideal)) best = cut;
    }
    if (best !== undefined) cuts.push(best);
  }
  return cuts;
}

/**
 * How far a raw file being written has come: readers wait for the samples they need (`until`),
 * and fail once the writing ended (or was given up) before them.
 */
class GrowingRaw {
  samples = 0;
  private ended: Error | 'complete' | undefined;
  private waiters: (() => void)[] = [];

  /** More samples were written. */
  grew(samples: number): void {
    this.samples = samples;
    this.wake();
  }

  /** Nothing more will be written: complete, or given up with `reason`. */
  end(reason: Error | 'complete'): void {
    this.ended ??= reason;
    this.wake();
  }

  /** Resolves once `[0, end)` is written; rejects if the writing ended before. */
  async until(end: number): Promise<void> {
    while (this.samples < end) {
      if (this.ended instanceof Error) throw this.ended;
      if (this.ended === 'complete') throw new Error('the audio ended before its last chapter did');
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}

/**
 * Streams mono 16-bit PCM at `options.sampleRate` to an M4B file at `path` (staged under a
 * `.partial` name until `finish`). The PCM goes to a temporary raw file as it comes, and its
 * encoding starts with the first write: the book is encoded in parts at once (one AAC encoder, a
 * worker thread, per core: `encodeInParts`), cut at chapters whose places the options give, each
 * part's encoder reading the raw file as far as it is written (so the first part is encoded while
 * the mastering still writes the rest). `finish` waits for them, joins their frames into one
 * track and writes the M4B with its chapters. Audio of another length than the chapters say is
 * encoded again from its raw file at `finish`. Rejects with AppError OUTPUT_FAILED when the
 * encoder cannot be loaded or a file cannot be written.
 */
export async function createM4bSink(path: string, options: M4bOptions): Promise<AudioSink> {
  const { sampleRate } = options;
  if (!AAC_RATES.includes(sampleRate)) throw encoderError('AAC', new Error(`no AAC at ${sampleRate} Hz`));
  registerAacEncoder();
  const id = randomBytes(4).toString('hex');
  const rawPath = join(options.tempDir, `m4b-${id}.raw`);
  const tempPath = join(options.tempDir, `m4b-${id}.mp4`);
  const raw = await open(rawPath, 'w');
  const growing = new GrowingRaw();
  let samples = 0;
  let state: 'open' | 'done' = 'open';
  const check = () => {
    if (state !== 'open') throw new AppError('OUTPUT_FAILED', `audio output ${path} is closed`, { path });
  };
  const parts = Math.max(1, Math.min(MAX_PARTS, options.parts ?? availableParallelism()));
  const cutsOf = (total: number) =>
    aacCuts(
      options.chapters.map((c) => Math.round((c.startMs / 1000) * sampleRate)),
      total,
      parts,
    );
  /** The length the chapters say, samples. */
  const expected = Math.round(((options.chapters.at(-1)?.endMs ?? 0) / 1000) * sampleRate);
  let started = 0;
  /** The encoding started with the first write (resolves to when it ended); its error is kept for `finish`. */
  let early: Promise<{ ended: number } | { error: unknown }> | undefined;
  const cleanUp = async () => {
    growing.end(new AppError('OUTPUT_FAILED', `audio output ${path} was abandoned`, { path }));
    await early;
    await raw.close().catch(() => undefined);
    await Promise.all([rm(rawPath, { force: true }), rm(tempPath, { force: true })]);
  };

  return {
    async write(pcm) {
      check();
      if (!early && expected > 0) {
        started = performance.now();
        early = encodeInParts(rawPath, expected, cutsOf(expected), tempPath, options, growing).then(
          (ended) => ({ ended }),
          (error: unknown) => ({ error }),
        );
      }
      await raw.write(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength));
      samples += pcm.length;
      growing.grew(samples);
    },
    async finish(): Promise<AudioSinkResult> {
      check();
      state = 'done';
      try {
        await raw.close();
        growing.end('complete');
        let outcome = early ? await early : undefined;
        if (outcome && 'error' in outcome && samples === expected) throw outcome.error;
        if (!outcome || samples !== expected) {
          // No write, or not the chapters' length: encoded again, from the whole raw file.
          started = performance.now();
          const whole = new GrowingRaw();
          whole.grew(samples);
          outcome = {
            ended: await encodeInParts(rawPath, samples, cutsOf(samples), tempPath, options, whole),
          };
        }
        const encoded = (outcome as { ended: number }).ended;
        const bytes = await withChapters(tempPath, path, samples, options);
        if (options.timings) {
          options.timings.encodeMs = encoded - started;
          options.timings.muxMs = performance.now() - encoded;
        }
        return { bytes, samples, durationMs: (samples / sampleRate) * 1000 };
      } finally {
        await cleanUp();
      }
    },
    async abort() {
      state = 'done';
      await cleanUp();
    },
  };
}

/** Mono s16 samples `[from, to)` of a raw file being written (`growing`), in blocks, each once written. */
async function* rawBlocks(
  handle: FileHandle,
  from: number,
  to: number,
  growing: GrowingRaw,
): AsyncGenerator<Int16Array> {
  for (let at = from; at < to; at += READ_BLOCK) {
    const count = Math.min(READ_BLOCK, to - at);
    await growing.until(at + count);
    const bytes = await readAt(handle, at * 2, count * 2);
    yield new Int16Array(bytes.buffer, 0, count);
  }
}

/**
 * Encodes the raw PCM at `rawPath` (`samples` long, read as far as `growing` says it is written) to an MP4 at `outPath` holding one AAC track
 * (and the book's tags), in parts cut at `cuts`, all at once: each part is its own encoder
 * (mediabunny's, FFmpeg's AAC in a worker thread) writing its own MP4; then their frames are
 * joined in order into one track. Resolves to when the encoding ended (`performance.now()`).
 *
 * AAC frame g holds the MDCT of samples [(g − 1)·1024, (g + 1)·1024) (the first half of frame 0
 * is the encoder's priming), and the decoder overlaps each frame with the one before. So a part
 * that starts at cut c keeps frames from c/1024 on, the first whose window starts at c − 1024;
 * a part that ends at cut c keeps frames up to c/1024 − 1, the last whose window ends at c. Each
 * part is fed more of the book on either side (LEAD_IN_FRAMES and the one its priming takes
 * before, LOOKAHEAD_FRAMES after), whose frames it drops. Every frame kept was encoded from the book's own
 * samples, so the joined track has the frame count, timing and priming of one encoder's track;
 * only the quantisation of the frames around a cut differs a little.
 */
async function encodeInParts(
  rawPath: string,
  samples: number,
  cuts: readonly number[],
  outPath: string,
  options: M4bOptions,
  growing: GrowingRaw,
): Promise<number> {
  const { sampleRate } = options;
  const bounds = [0, ...cuts, samples];
  const partPaths = cuts.map((_, k) => `${outPath}.part${k}`).concat(`${outPath}.part${cuts.length}`);
  const fed = new Array<number>(bounds.length - 1).fill(0);
  const report = () =>
    options.onEncodeProgress?.(Math.min(1, fed.reduce((a, b) => a + b, 0) / Math.max(1, samples)));
  const handle = await open(rawPath, 'r');
  try {
    // 1. Each part encoded to its own MP4, all at once.
    await Promise.all(
      partPaths.map(async (partPath, k) => {
        const from = k === 0 ? 0 : bounds[k]! - (1 + LEAD_IN_FRAMES) * AAC_FRAME;
        const to = Math.min(samples, bounds[k + 1]! + LOOKAHEAD_FRAMES * AAC_FRAME);
        const output = new Output({
          format: new Mp4OutputFormat({ fastStart: false }),
          target: new FilePathTarget(partPath),
        });
        const track = new PcmTrack({ output, name: 'AAC' }, sampleRate, {
          codec: 'aac',
          bitrate: options.bitrate,
        });
        try {
          await output.start();
          for await (const block of rawBlocks(handle, from, to, growing)) {
            await track.add(block);
            fed[k]! += block.length;
            report();
          }
          await output.finalize();
        } catch (error) {
          await output.cancel().catch(() => undefined);
          throw encoderError('AAC', error);
        }
      }),
    );

    // 2. Their frames joined into one track, with the book's tags.
    const encoded = performance.now();
    const output = new Output({
      format: new Mp4OutputFormat({ fastStart: false }),
      target: new FilePathTarget(outPath),
    });
    const source = new EncodedAudioPacketSource('aac');
    output.addAudioTrack(source);
    output.setMetadataTags(tagsOf(options));
    await output.start();
    try {
      let frame = 0;
      for (const [k, partPath] of partPaths.entries()) {
        const input = new Input({ source: new FilePathSource(partPath), formats: ALL_FORMATS });
        try {
          const track = await input.getPrimaryAudioTrack();
          if (!track) throw new Error('an encoded part has no audio track');
          const decoderConfig = frame === 0 ? await track.getDecoderConfig() : null;
          const first = bounds[k]! / AAC_FRAME;
          const last = k === partPaths.length - 1 ? Number.POSITIVE_INFINITY : bounds[k + 1]! / AAC_FRAME - 1;
          // Frame `global` of the whole is this part's frame `global − offset`.
          const offset = k === 0 ? 0 : first - 1 - LEAD_IN_FRAMES;
          let global = offset;
          for await (const packet of new EncodedPacketSink(track).packets()) {
            const kept = global >= first && global <= last;
            global++;
            if (!kept) continue;
            const joined = new EncodedPacket(
              packet.data,
              'key',
              (frame * AAC_FRAME) / sampleRate,
              AAC_FRAME / sampleRate,
            );
            await source.add(joined, decoderConfig && frame === 0 ? { decoderConfig } : undefined);
            frame++;
          }
        } finally {
          input.dispose();
        }
      }
      await output.finalize();
    } catch (error) {
      await output.cancel().catch(() => undefined);
      throw encoderError('AAC', error);
    }
    return encoded;
  } finally {
    await handle.close();
    await Promise.all(partPaths.map((p) => rm(p, { force: true })));
  }
}

/** The iTunes tags of the book (title, album, artist, genre, cover). */
function tagsOf(options: M4bOptions): MetadataTags {
  const tags: MetadataTags = {};
  if (options.title) tags.title = tags.album = options.title;
  if (options.author) tags.artist = tags.albumArtist = options.author;
  if (options.genre) tags.genre = options.genre;
  if (options.cover)
    tags.images = [{ data: options.cover.data, mimeType: options.cover.mimeType, kind: 'coverFront' }];
  return tags;
}

/** An ISO BMFF box: a container's children, or a leaf's payload (after its header). */
interface Box {
  type: string;
  payload?: Uint8Array;
  children?: Box[];
}

/** The boxes this rewrite walks into; all others are kept as opaque payloads. */
const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl', 'udta', 'edts', 'dinf', 'tref']);

function fourcc(bytes: Uint8Array, offset: number): string {
  return String.fromCharCode(bytes[offset]!, bytes[offset + 1]!, bytes[offset + 2]!, bytes[offset + 3]!);
}

function parseBoxes(bytes: Uint8Array): Box[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxes: Box[] = [];
  for (let offset = 0; offset + 8 <= bytes.length;) {
    let size = view.getUint32(offset);
    const type = fourcc(bytes, offset + 4);
    let header = 8;
    if (size === 1) {
      size = Number(view.getBigUint64(offset + 8));
      header = 16;
    } else if (size === 0) size = bytes.length - offset;
    if (size < header || offset + size > bytes.length) throw new Error(`bad ${type} box size ${size}`);
    const payload = bytes.subarray(offset + header, offset + size);
    boxes.push(CONTAINERS.has(type) ? { type, children: parseBoxes(payload) } : { type, payload });
    offset += size;
  }
  return boxes;
}

function boxSize(box: Box): number {
  return 8 + (box.payload?.length ?? box.children!.reduce((n, c) => n + boxSize(c), 0));
}

function writeBox(box: Box, out: Uint8Array, offset: number): number {
  const size = boxSize(box);
  new DataView(out.buffer, out.byteOffset).setUint32(offset, size);
  for (let i = 0; i < 4; i++) out[offset + 4 + i] = box.type.charCodeAt(i);
  let at = offset + 8;
  if (box.payload) {
    out.set(box.payload, at);
    at += box.payload.length;
  } else for (const child of box.children!) at = writeBox(child, out, at);
  return at;
}

function serialize(boxes: readonly Box[]): Uint8Array {
  const out = new Uint8Array(boxes.reduce((n, b) => n + boxSize(b), 0));
  let offset = 0;
  for (const box of boxes) offset = writeBox(box, out, offset);
  return out;
}

function child(box: Box, type: string): Box | undefined {
  return box.children?.find((c) => c.type === type);
}

function descend(box: Box, ...types: string[]): Box | undefined {
  let at: Box | undefined = box;
  for (const type of types) at = at && child(at, type);
  return at;
}

/** Bytes from numbers written big-endian with the given widths (1, 2, 4 or 8 bytes). */
function fields(...values: Array<[number, 1 | 2 | 4 | 8] | Uint8Array | string>): Uint8Array {
  const parts = values.map((v) => {
    if (v instanceof Uint8Array) return v;
    if (typeof v === 'string') return Uint8Array.from(v, (c) => c.charCodeAt(0));
    const [value, width] = v;
    const out = new Uint8Array(width);
    const view = new DataView(out.buffer);
    if (width === 1) view.setUint8(0, value);
    else if (width === 2) view.setUint16(0, value);
    else if (width === 4) view.setUint32(0, value >>> 0);
    else view.setBigUint64(0, BigInt(Math.round(value)));
    return out;
  });
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

const leaf = (type: string, ...values: Parameters<typeof fields>): Box => ({
  type,
  payload: fields(...values),
});
const FULL_BOX_V0: [number, 4] = [0, 4];
const IDENTITY_MATRIX = fields(
  [0x10000, 4],
  [0, 4],
  [0, 4],
  [0, 4],
  [0x10000, 4],
  [0, 4],
  [0, 4],
  [0, 4],
  [0x40000000, 4],
);

function viewOf(box: Box): DataView {
  return new DataView(box.payload!.buffer, box.payload!.byteOffset, box.payload!.byteLength);
}

/** The timescale of an `mvhd` or `mdhd` box (version 0 or 1). */
function timescaleOf(box: Box): number {
  return viewOf(box).getUint32(box.payload![0] === 1 ? 20 : 12);
}

/** Sets the duration of an `mvhd` or `mdhd` box, or (`tkhd: true`) of a `tkhd` box. */
function setDuration(box: Box, duration: number, tkhd = false): void {
  const v1 = box.payload![0] === 1;
  const at = (v1 ? 24 : 16) + (tkhd ? 4 : 0);
  if (v1) viewOf(box).setBigUint64(at, BigInt(duration));
  else viewOf(box).setUint32(at, Math.min(duration, 0xffffffff));
}

/**
 * The chapter track's sample description, byte for byte as ffmpeg writes it (whose chapter tracks
 * Apple's players and ffprobe read): a `text` entry (reserved, data reference 1) holding a 3GPP
 * text sample record: display flags 1, no justification, clear background, an empty text box, a
 * style of font 1, and a one-font table.
 */
const TEXT_SAMPLE_ENTRY: Box = {
  type: 'text',
  payload: fields(
    [0, 4],
    [0, 2],
    [1, 2],
    // displayFlags; horizontal and vertical justification; background RGBA
    [1, 4],
    [0, 2],
    [0, 4],
    // default text box (top, left, bottom, right)
    [0, 8],
    // style record: start and end character, font id 1, style flags and size, foreground RGBA
    [0, 4],
    [1, 2],
    [0, 2],
    [0, 4],
    // font table: one font, id 1, empty name
    [13, 4],
    'ftab',
    [1, 2],
    [1, 2],
    [0, 1],
  ),
};

/** A chapter title as one QuickTime text sample: 16-bit length, UTF-8, and an `encd` box saying UTF-8. */
function titleSample(title: string): Uint8Array {
  const text = new TextEncoder().encode(title);
  return fields([text.length, 2], text, [12, 4], 'encd', [0x100, 4]);
}

/** The title cut to at most 255 UTF-8 bytes without splitting a character (for `chpl`). */
function chplTitle(title: string): Uint8Array {
  const encoder = new TextEncoder();
  let text = title;
  while (encoder.encode(text).length > 255) text = Array.from(text).slice(0, -1).join('');
  return encoder.encode(text);
}

/** The disabled QuickTime text track listing the chapters, in the layout ffmpeg writes. */
function chapterTrack(
  trackId: number,
  movieDuration: number,
  chapters: readonly ChapterTiming[],
  dataOffset: number,
  sampleSizes: number[],
): Box {
  const ms = chapters.map((c) => Math.round(c.startMs));
  const endMs = Math.round(chapters[chapters.length - 1]!.endMs);
  const durations = ms.map((start, i) => Math.max(0, (ms[i + 1] ?? endMs) - start));
  return {
    type: 'trak',
    children: [
      // Flags 2: in the movie, not enabled (a chapter list, never shown as subtitles).
      movieDuration > 0xffffffff
        ? leaf(
            'tkhd',
            [0x01000002, 4],
            [0, 8],
            [0, 8],
            [trackId, 4],
            [0, 4],
            [movieDuration, 8],
            [0, 8],
            [0, 2],
            [0, 2],
            [0, 2],
            [0, 2],
            IDENTITY_MATRIX,
            [0, 4],
            [0, 4],
          )
        : leaf(
            'tkhd',
            [2, 4],
            [0, 4],
            [0, 4],
            [trackId, 4],
            [0, 4],
            [movieDuration, 4],
            [0, 8],
            [0, 2],
            [0, 2],
            [0, 2],
            [0, 2],
            IDENTITY_MATRIX,
            [0, 4],
            [0, 4],
          ),
      {
        type: 'mdia',
        children: [
          // Timescale 1000 (ms); language "und".
          leaf('mdhd', FULL_BOX_V0, [0, 4], [0, 4], [1000, 4], [endMs, 4], [0x55c4, 2], [0, 2]),
          leaf('hdlr', FULL_BOX_V0, [0, 4], 'text', [0, 4], [0, 4], [0, 4], 'Chapters\0'),
          {
            type: 'minf',
            children: [
              {
                type: 'gmhd',
                payload: serialize([
                  leaf('gmin', FULL_BOX_V0, [0x40, 2], [0x8000, 2], [0x8000, 2], [0x8000, 2], [0, 2], [0, 2]),
                  // QuickTime's text media header: just a display matrix.
                  { type: 'text', payload: IDENTITY_MATRIX },
                ]),
              },
              { type: 'dinf', children: [leaf('dref', FULL_BOX_V0, [1, 4], [12, 4], 'url ', [1, 4])] },
              {
                type: 'stbl',
                children: [
                  leaf('stsd', FULL_BOX_V0, [1, 4], serialize([TEXT_SAMPLE_ENTRY])),
                  leaf(
                    'stts',
                    FULL_BOX_V0,
                    [durations.length, 4],
                    ...durations.flatMap((d): Array<[number, 4]> => [
                      [1, 4],
                      [d, 4],
                    ]),
                  ),
                  leaf('stsc', FULL_BOX_V0, [1, 4], [1, 4], [chapters.length, 4], [1, 4]),
                  leaf(
                    'stsz',
                    FULL_BOX_V0,
                    [0, 4],
                    [sampleSizes.length, 4],
                    ...sampleSizes.map((s): [number, 4] => [s, 4]),
                  ),
                  leaf('stco', FULL_BOX_V0, [1, 4], [dataOffset, 4]),
                ],
              },
            ],
          },
        ],
      },
    ],
  };
}

/** Adds `delta` to every chunk offset of a track's `stco` or `co64`. */
function moveChunks(trak: Box, delta: number): void {
  const stbl = descend(trak, 'mdia', 'minf', 'stbl');
  for (const box of stbl?.children ?? []) {
    if (box.type !== 'stco' && box.type !== 'co64') continue;
    const view = new DataView(box.payload!.buffer, box.payload!.byteOffset, box.payload!.byteLength);
    const count = view.getUint32(4);
    for (let i = 0; i < count; i++) {
      if (box.type === 'stco') {
        const moved = view.getUint32(8 + i * 4) + delta;
        if (moved > 0xffffffff) throw new AppError('OUTPUT_FAILED', 'the M4B file is too large (4 GiB)');
        view.setUint32(8 + i * 4, moved);
      } else view.setBigUint64(8 + i * 8, view.getBigUint64(8 + i * 8) + BigInt(delta));
    }
  }
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Uint8Array> {
  const out = new Uint8Array(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(out, done, length - done, position + done);
    if (bytesRead === 0) throw new Error('unexpected end of the MP4 file');
    done += bytesRead;
  }
  return out;
}

/** Top-level boxes of a file: type, position and size, without reading their contents. */
async function topLevelBoxes(
  handle: FileHandle,
): Promise<Array<{ type: string; position: number; size: number }>> {
  const { size: fileSize } = await handle.stat();
  const boxes: Array<{ type: string; position: number; size: number }> = [];
  for (let position = 0; position + 8 <= fileSize;) {
    const header = await readAt(handle, position, Math.min(16, fileSize - position));
    const view = new DataView(header.buffer);
    let size = view.getUint32(0);
    if (size === 1) size = Number(view.getBigUint64(8));
    else if (size === 0) size = fileSize - position;
    if (size < 8) throw new Error(`bad box size ${size}`);
    boxes.push({ type: fourcc(header, 4), position, size });
    position += size;
  }
  return boxes;
}

/**
 * Writes the final M4B at `finalPath` from mediabunny's file at `tempPath` (see the module
 * comment). Resolves to its size in bytes.
 */
async function withChapters(
  tempPath: string,
  finalPath: string,
  samples: number,
  options: M4bOptions,
): Promise<number> {
  const handle = await open(tempPath, 'r').catch((error: unknown) => {
    throw encoderError('M4B', error);
  });
  let file: StagedFile | undefined;
  try {
    const top = await topLevelBoxes(handle);
    const moovAt = top.find((b) => b.type === 'moov');
    const mdatAt = top.find((b) => b.type === 'mdat');
    if (!moovAt || !mdatAt) throw new Error('mediabunny wrote no moov or mdat');
    const [moov] = parseBoxes(await readAt(handle, moovAt.position, moovAt.size)) as [Box];
    const audio = moov.children!.find((b) => b.type === 'trak')!;
    const mvhd = child(moov, 'mvhd')!;
    const movieDuration = Math.round((samples * timescaleOf(mvhd)) / options.sampleRate);
    const priming = Math.round(
      (AAC_PRIMING_SAMPLES * timescaleOf(descend(audio, 'mdia', 'mdhd')!)) / options.sampleRate,
    );
    // The next free track id ends mvhd; the chapter track takes it.
    const chapterId = viewOf(mvhd).getUint32(mvhd.payload!.length - 4);
    viewOf(mvhd).setUint32(mvhd.payload!.length - 4, chapterId + 1);

    // The audio track: its visible part starts after the priming samples and lasts `samples`.
    const tkhd = child(audio, 'tkhd')!;
    setDuration(mvhd, movieDuration);
    setDuration(tkhd, movieDuration, true);
    // Durations past 2³² ticks (about 20 h at mediabunny's movie timescale) need a version 1 box.
    const width = movieDuration > 0xffffffff ? 8 : 4;
    const elst = leaf(
      'elst',
      [width === 8 ? 0x01000000 : 0, 4],
      [1, 4],
      [movieDuration, width],
      [priming, width],
      [0x10000, 4],
    );
    audio.children = [
      tkhd,
      { type: 'edts', children: [elst] },
      { type: 'tref', children: [leaf('chap', [chapterId, 4])] },
      ...audio.children!.filter((b) => b !== tkhd && b.type !== 'edts' && b.type !== 'tref'),
    ];

    // Nero chapters in moov/udta.
    const chpl = options.chapters.slice(0, MAX_CHPL_CHAPTERS).map((c) => {
      const title = chplTitle(c.title);
      return fields([Math.round(c.startMs * 10_000), 8], [title.length, 1], title);
    });
    let udta = child(moov, 'udta');
    if (!udta) {
      udta = { type: 'udta', children: [] };
      moov.children!.push(udta);
    }
    udta.children = [
      ...udta.children!.filter((b) => b.type !== 'chpl'),
      leaf('chpl', [0x01000000, 4], [0, 4], [chpl.length, 1], ...chpl),
    ];

    // The chapter track, its titles in an mdat of their own after moov.
    const titles = options.chapters.map((c) => titleSample(c.title));
    const titleBytes = titles.reduce((n, t) => n + t.length, 0);
    const ftyp = leaf('ftyp', 'M4B ', [0x200, 4], 'M4B ', 'M4A ', 'mp42', 'isom');
    const place = (offset: number) =>
      chapterTrack(
        chapterId,
        movieDuration,
        options.chapters,
        offset,
        titles.map((t) => t.length),
      );
    moov.children = [...moov.children!.filter((b) => b !== udta), place(0), udta];
    const headBytes = boxSize(ftyp) + boxSize(moov);
    moov.children[moov.children.length - 2] = place(headBytes + 8);
    const audioMdatAt = headBytes + 8 + titleBytes;
    moveChunks(audio, audioMdatAt - mdatAt.position);

    file = await StagedFile.create(finalPath);
    file.append(serialize([ftyp, moov]));
    file.append(fields([8 + titleBytes, 4], 'mdat', ...titles));
    const block = 1 << 20;
    for (let at = 0; at < mdatAt.size; at += block) {
      file.append(await readAt(handle, mdatAt.position + at, Math.min(block, mdatAt.size - at)));
      await file.drain();
    }
    return await file.commit();
  } catch (error) {
    await file?.discard();
    throw error instanceof AppError ? error : encoderError('M4B', error);
  } finally {
    await handle.close();
  }
}
