/**
 * A strict MPEG audio Layer III frame walker: reports version, sample rate, bitrates,
 * channels and duration of an MP3 stream, to verify what the encoder wrote (tests) and to
 * report durations (server). It reads frame headers only; it does not decode audio.
 */

import { AppError } from '../../../shared/errors';

export type MpegVersion = 'MPEG1' | 'MPEG2' | 'MPEG2.5';

/** A Xing/Info (LAME, ffmpeg) or VBRI (Fraunhofer) header frame: a valid frame that holds no audio. */
export interface Mp3InfoTag {
  kind: 'Xing' | 'Info' | 'VBRI';
  /** Audio frames the tag declares, when present. */
  frames?: number;
  /** Stream bytes the tag declares, when present. */
  bytes?: number;
  /** Samples the encoder added at the start (LAME tag), when present. */
  encoderDelay?: number;
  /** Samples of padding at the end (LAME tag), when present. */
  encoderPadding?: number;
}

export interface Mp3Info {
  /** Audio frames (a Xing/Info/VBRI frame is not counted). */
  frames: number;
  version: MpegVersion;
  layer: 3;
  /** Hz. */
  sampleRate: number;
  /** Every bitrate used by an audio frame, kbps: one value for CBR. */
  bitrates: Set<number>;
  /**
   * Duration of the audio frames, ms: frames × samples per frame / sampleRate. Encoder
   * delay and padding are included (see `tag` for LAME's values when present).
   */
  durationMs: number;
  channels: 1 | 2;
  /** Samples per frame: 1152 for MPEG1, 576 for MPEG2 and MPEG2.5. */
  samplesPerFrame: number;
  tag?: Mp3InfoTag;
}

const BITRATES_V1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2_L3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const SAMPLE_RATES: Record<MpegVersion, number[]> = {
  MPEG1: [44100, 48000, 32000],
  MPEG2: [22050, 24000, 16000],
  'MPEG2.5': [11025, 12000, 8000],
};

interface FrameHeader {
  version: MpegVersion;
  sampleRate: number;
  bitrate: number;
  channels: 1 | 2;
  hasCrc: boolean;
  /** Whole frame, header included, bytes. */
  length: number;
}

function invalid(why: string, offset: number): never {
  throw new AppError('OUTPUT_FAILED', `not a valid MP3 stream: ${why} at byte ${offset}`, { offset });
}

function readHeader(buf: Uint8Array, offset: number): FrameHeader {
  if (offset + 4 > buf.length) invalid('truncated frame header', offset);
  const b1 = buf[offset + 1]!;
  const b2 = buf[offset + 2]!;
  const b3 = buf[offset + 3]!;
  if (buf[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) invalid('no frame sync', offset);
  const versionBits = (b1 >> 3) & 3;
  if (versionBits === 1) invalid('reserved MPEG version', offset);
  const version: MpegVersion = versionBits === 3 ? 'MPEG1' : versionBits === 2 ? 'MPEG2' : 'MPEG2.5';
  const layerBits = (b1 >> 1) & 3;
  if (layerBits !== 1)
    invalid(
      layerBits === 0 ? 'reserved layer' : `layer ${4 - layerBits} (only Layer III is supported)`,
      offset,
    );
  const bitrateIndex = b2 >> 4;
  if (bitrateIndex === 0) invalid('free-format bitrate (unsupported)', offset);
  if (bitrateIndex === 15) invalid('bad bitrate index', offset);
  const rateIndex = (b2 >> 2) & 3;
  if (rateIndex === 3) invalid('reserved sample rate', offset);
  const bitrate = (version === 'MPEG1' ? BITRATES_V1_L3 : BITRATES_V2_L3)[bitrateIndex]!;
  const sampleRate = SAMPLE_RATES[version][rateIndex]!;
  const padding = (b2 >> 1) & 1;
  const coefficient = version === 'MPEG1' ? 144 : 72;
  return {
    version,
    sampleRate,
    bitrate,
    channels: b3 >> 6 === 3 ? 1 : 2,
    hasCrc: (b1 & 1) === 0,
    length: Math.floor((coefficient * bitrate * 1000) / sampleRate) + padding,
  };
}

/** Length of the ID3v2 tag at `offset`, or 0 if there is none. */
function id3v2Length(buf: Uint8Array, offset: number): number {
  if (
    offset + 10 > buf.length ||
    buf[offset] !== 0x49 ||
    buf[offset + 1] !== 0x44 ||
    buf[offset + 2] !== 0x33
  )
    return 0;
  const size = buf.subarray(offset + 6, offset + 10);
  if (size.some((b) => b & 0x80)) invalid('bad ID3v2 size', offset);
  const body = (size[0]! << 21) | (size[1]! << 14) | (size[2]! << 7) | size[3]!;
  const footer = buf[offset + 5]! & 0x10 ? 10 : 0;
  return 10 + body + footer;
}

const ascii = (buf: Uint8Array, offset: number, length: number) =>
  String.fromCharCode(...buf.subarray(offset, Math.min(buf.length, offset + length)));

const u32 = (buf: Uint8Array, offset: number) =>
  ((buf[offset]! << 24) | (buf[offset + 1]! << 16) | (buf[offset + 2]! << 8) | buf[offset + 3]!) >>> 0;

/** Reads a Xing/Info or VBRI tag if the frame at `offset` is one. */
function readInfoTag(buf: Uint8Array, offset: number, header: FrameHeader): Mp3InfoTag | undefined {
  const end = offset + header.length;
  const sideInfo =
    header.version === 'MPEG1' ? (header.channels === 1 ? 17 : 32) : header.channels === 1 ? 9 : 17;
  // Encoders put the tag right after the side information; some count a CRC, some do not.
  for (const at of header.hasCrc ? [offset + 4 + sideInfo, offset + 6 + sideInfo] : [offset + 4 + sideInfo]) {
    const kind = ascii(buf, at, 4);
    if (kind !== 'Xing' && kind !== 'Info') continue;
    const tag: Mp3InfoTag = { kind };
    const flags = u32(buf, at + 4);
    let p = at + 8;
    if (flags & 1 && p + 4 <= end) {
      tag.frames = u32(buf, p);
      p += 4;
    }
    if (flags & 2 && p + 4 <= end) {
      tag.bytes = u32(buf, p);
      p += 4;
    }
    if (flags & 4) p += 100;
    if (flags & 8) p += 4;
    // LAME extension: 9-byte encoder string, then delay and padding (12 bits each) at +21.
    if (p + 24 <= end && /^(LAME|Lavf|Lavc|L3.99|GOGO)/.test(ascii(buf, p, 9))) {
      const d = p + 21;
      tag.encoderDelay = (buf[d]! << 4) | (buf[d + 1]! >> 4);
      tag.encoderPadding = ((buf[d + 1]! & 0x0f) << 8) | buf[d + 2]!;
    }
    return tag;
  }
  if (ascii(buf, offset + 36, 4) === 'VBRI' && offset + 36 + 18 <= end) {
    return { kind: 'VBRI', bytes: u32(buf, offset + 36 + 10), frames: u32(buf, offset + 36 + 14) };
  }
  return undefined;
}

/**
 * Walks every frame header of an MP3 stream. Skips leading ID3v2 tags and a trailing
 * ID3v1 tag; recognises a Xing/Info/VBRI header frame, which is reported in `tag` and not
 * counted as audio. Throws AppError OUTPUT_FAILED on anything else: junk between frames, a
 * truncated last frame, a layer other than III, or a change of version, sample rate or
 * channel count mid-stream.
 */
export function parseMp3(buf: Uint8Array): Mp3Info {
  let offset = 0;
  for (let skip = id3v2Length(buf, 0); skip > 0; skip = id3v2Length(buf, offset)) offset += skip;
  // An ID3v1 tag is the last 128 bytes and starts with "TAG".
  const end = buf.length >= 128 && ascii(buf, buf.length - 128, 3) === 'TAG' ? buf.length - 128 : buf.length;
  if (offset >= end) invalid('no audio frames', offset);

  let first: FrameHeader | undefined;
  let tag: Mp3InfoTag | undefined;
  let frames = 0;
  const bitrates = new Set<number>();
  while (offset < end) {
    const header = readHeader(buf, offset);
    if (offset + header.length > end) invalid(`truncated frame (needs ${header.length} bytes)`, offset);
    if (!first) {
      first = header;
      tag = readInfoTag(buf, offset, header);
      if (tag) {
        offset += header.length;
        continue;
      }
    } else if (
      header.version !== first.version ||
      header.sampleRate !== first.sampleRate ||
      header.channels !== first.channels
    ) {
      invalid(
        `stream changes format (${header.version} ${header.sampleRate} Hz, ${header.channels} ch)`,
        offset,
      );
    }
    frames++;
    bitrates.add(header.bitrate);
    offset += header.length;
  }
  if (!first) return invalid('no audio frames', offset);

  const samplesPerFrame = first.version === 'MPEG1' ? 1152 : 576;
  const info: Mp3Info = {
    frames,
    version: first.version,
    layer: 3,
    sampleRate: first.sampleRate,
    bitrates,
    durationMs: ((frames * samplesPerFrame) / first.sampleRate) * 1000,
    channels: first.channels,
    samplesPerFrame,
  };
  if (tag) info.tag = tag;
  return info;
}
