/**
 * The protobuf wire format, just enough of it for ONNX model files: a field walker that
 * reads varints and hands back the byte ranges of length-delimited fields without copying
 * them (a model's weights are 60–330 MB of such fields), and the encoder primitives to
 * write messages. No schema: callers name the field numbers (see model-proto.ts).
 */

/** Wire types of protobuf (3 and 4, the deprecated groups, are refused as malformed). */
export const WireType = { varint: 0, fixed64: 1, lengthDelimited: 2, fixed32: 5 } as const;

/** Bytes that are not a well-formed protobuf message (truncated, garbage, lengths past the end). */
export class ProtoFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtoFormatError';
  }
}

/** One field of a message as it lies in the bytes. */
export interface ProtoField {
  /** Field number (≥ 1). */
  readonly field: number;
  readonly wireType: number;
  /** The value of a varint field (exact up to 2^53; int64 values past that lose precision). */
  readonly value: number;
  /** Offset of the field's tag. */
  readonly tagStart: number;
  /** Offset of the payload: for a length-delimited field, just after its length prefix. */
  readonly start: number;
  /** Offset just past the payload (and the field). */
  readonly end: number;
}

const TWO_POW_32 = 2 ** 32;

/**
 * Reads the varint at `offset`: its value (64-bit two's complement folded to a JS number, so
 * an int64 −1 reads as −1) and the offset after it.
 */
export function readVarint(bytes: Uint8Array, offset: number, limit = bytes.length): [number, number] {
  let low = 0;
  let high = 0;
  let pos = offset;
  for (let i = 0; i < 10; i++) {
    if (pos >= limit) throw new ProtoFormatError(`truncated varint at byte ${offset}`);
    const byte = bytes[pos++]!;
    const bits = byte & 0x7f;
    if (i < 4) low += bits * 2 ** (7 * i);
    else if (i === 4) {
      low += (bits & 0x0f) * 2 ** 28;
      high += bits >> 4;
    } else high += bits * 2 ** (7 * i - 32);
    if ((byte & 0x80) === 0) {
      const signed = high >= 2 ** 31 ? (high - TWO_POW_32) * TWO_POW_32 + low : high * TWO_POW_32 + low;
      return [signed, pos];
    }
  }
  throw new ProtoFormatError(`varint longer than 10 bytes at byte ${offset}`);
}

/**
 * The fields of the message in `bytes[start, end)`, in file order. Throws ProtoFormatError at
 * the first malformed field; the payload of a length-delimited field is never copied.
 * @param what names the message in error messages, e.g. "ModelProto"
 */
export function* readFields(
  bytes: Uint8Array,
  start = 0,
  end = bytes.length,
  what = 'message',
): Generator<ProtoField> {
  let pos = start;
  while (pos < end) {
    const tagStart = pos;
    const [tag, afterTag] = readVarint(bytes, pos, end);
    const field = Math.floor(tag / 8);
    const wireType = tag & 7;
    if (field < 1 || tag < 0) throw new ProtoFormatError(`${what}: invalid field tag at byte ${tagStart}`);
    let value = 0;
    let payloadStart = afterTag;
    switch (wireType) {
      case WireType.varint:
        [value, pos] = readVarint(bytes, afterTag, end);
        break;
      case WireType.fixed64:
        pos = afterTag + 8;
        break;
      case WireType.fixed32:
        pos = afterTag + 4;
        break;
      case WireType.lengthDelimited: {
        const [length, afterLength] = readVarint(bytes, afterTag, end);
        if (length < 0) throw new ProtoFormatError(`${what}: negative length at byte ${tagStart}`);
        payloadStart = afterLength;
        pos = afterLength + length;
        break;
      }
      default:
        throw new ProtoFormatError(`${what}: unsupported wire type ${wireType} at byte ${tagStart}`);
    }
    if (pos > end) {
      throw new ProtoFormatError(
        `${what}: field ${field} at byte ${tagStart} runs ${pos - end} bytes past the end (truncated?)`,
      );
    }
    yield { field, wireType, value, tagStart, start: payloadStart, end: pos };
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The UTF-8 text of a length-delimited field. */
export function fieldText(bytes: Uint8Array, field: ProtoField): string {
  try {
    return utf8.decode(bytes.subarray(field.start, field.end));
  } catch {
    throw new ProtoFormatError(`field ${field.field} at byte ${field.tagStart} is not valid UTF-8`);
  }
}

/** The bytes of a non-negative integer as a varint (exact up to 2^53). */
export function encodeVarint(value: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`not a varint-encodable value: ${value}`);
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
  return Uint8Array.from(out);
}

/** The parts joined into one new buffer (a plain Uint8Array view of it). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const joined = Buffer.concat(parts);
  return new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength);
}

/** A varint field: tag then value. */
export function varintField(field: number, value: number): Uint8Array {
  return concatBytes([encodeVarint(field * 8 + WireType.varint), encodeVarint(value)]);
}

/** A length-delimited field (bytes, string or embedded message): tag, length, payload. */
export function bytesField(field: number, payload: Uint8Array): Uint8Array {
  return concatBytes([
    encodeVarint(field * 8 + WireType.lengthDelimited),
    encodeVarint(payload.length),
    payload,
  ]);
}

/** A string field (UTF-8). */
export function stringField(field: number, text: string): Uint8Array {
  return bytesField(field, new TextEncoder().encode(text));
}

/** An embedded message field made of the given encoded fields. */
export function messageField(field: number, parts: readonly Uint8Array[]): Uint8Array {
  return bytesField(field, concatBytes(parts));
}
