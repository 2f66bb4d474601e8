import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../electron/shared/errors';
import { encodeMp3 } from '../../../../electron/core/engine/audio/mp3';
import { MAX_ID3_CHAPTERS } from '../../../../electron/shared/book-exports';
import { buildId3Tag } from '../../../../electron/core/engine/export/mp3-chapters';

/** The frames of an ID3v2.3 tag: id → body (first of each id). */
function frames(tag: Uint8Array): Map<string, Uint8Array> {
  const view = new DataView(tag.buffer, tag.byteOffset, tag.byteLength);
  const size = (tag[6]! << 21) | (tag[7]! << 14) | (tag[8]! << 7) | tag[9]!;
  expect(10 + size).toBe(tag.length);
  const out = new Map<string, Uint8Array>();
  for (let at = 10; at < tag.length;) {
    const id = String.fromCharCode(...tag.subarray(at, at + 4));
    const length = view.getUint32(at + 4);
    if (!out.has(id)) out.set(id, tag.subarray(at + 10, at + 10 + length));
    at += 10 + length;
  }
  return out;
}

describe('the ID3v2.3 tag of an exported MP3', () => {
  it('writes Latin-1 text as ISO-8859-1 and anything else as UTF-16 with a byte-order mark', () => {
    const tag = buildId3Tag({ title: 'Café', artist: 'Ωmega Nguyễn' });
    expect(String.fromCharCode(...tag.subarray(0, 5))).toBe('ID3\u0003\u0000');
    const found = frames(tag);
    expect([...found.get('TIT2')!]).toEqual([0, 0x43, 0x61, 0x66, 0xe9]);
    const artist = found.get('TPE1')!;
    expect([...artist.subarray(0, 3)]).toEqual([1, 0xff, 0xfe]);
    expect(Buffer.from(artist.subarray(3)).toString('utf16le')).toBe('Ωmega Nguyễn');
  });

  it('lists chapters in one ordered top-level CTOC and refuses more than 255', () => {
    const chapters = Array.from({ length: 3 }, (_, i) => ({
      title: `C${i}`,
      startMs: i * 1000,
      endMs: (i + 1) * 1000,
    }));
    const ctoc = frames(buildId3Tag({ chapters })).get('CTOC')!;
    expect(String.fromCharCode(...ctoc.subarray(0, 6))).toBe('toc\u0000\u0003\u0003');
    expect(() =>
      buildId3Tag({
        chapters: Array.from({ length: MAX_ID3_CHAPTERS + 1 }, () => chapters[0]!),
      }),
    ).toThrow(AppError);
  });

  it('encodes 192 kbps only at the MPEG-1 rates (ACX: 44.1 kHz); the API’s 22050 Hz keeps its list', async () => {
    const pcm = new Int16Array(44100);
    const mp3 = await encodeMp3(pcm, { sampleRate: 44100, bitrate: 192 });
    // MPEG-1 Layer III header, bitrate index 11 (192 kbps), 44.1 kHz.
    expect(mp3[0]).toBe(0xff);
    expect(mp3[2]! >> 4).toBe(11);
    await expect(encodeMp3(pcm, { sampleRate: 22050, bitrate: 192 })).rejects.toThrow(AppError);
  });
});
