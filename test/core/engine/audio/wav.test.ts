import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../../electron/shared/errors';
import {
  createWavSink,
  encodeWav,
  parseWavHeader,
  WAV_HEADER_BYTES,
} from '../../../../electron/core/engine/audio/wav';
import { speechPcm } from '../../../fixtures/espeak';
import { partialsOf } from './partials';

const RATE = 22050;

/** Splits into chunks of pseudo-random sizes between 1 and `max` samples (deterministic). */
function chunksOf(pcm: Int16Array, max: number): Int16Array[] {
  const out: Int16Array[] = [];
  let seed = 7;
  for (let offset = 0; offset < pcm.length;) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const n = 1 + (seed % max);
    out.push(pcm.subarray(offset, offset + n));
    offset += n;
  }
  return out;
}

const samplesOf = (file: Uint8Array) => {
  const copy = file.slice(WAV_HEADER_BYTES);
  return new Int16Array(copy.buffer, 0, copy.length / 2);
};

const TEXT =
  'The old lighthouse keeper climbed the stairs every evening, counting each step as the wind rose over the bay. ' +
  'There were one hundred and twelve of them, and he knew every crack in the stone.';

describe('WAV output', () => {
  let dir: string;
  let speech: Int16Array;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wav-test-'));
    speech = await speechPcm(TEXT);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('encodeWav writes a 16-bit mono PCM header whose sizes match the samples', () => {
    const file = encodeWav(speech, RATE);
    const view = Buffer.from(file);
    expect(view.length).toBe(44 + speech.length * 2);
    expect(view.toString('ascii', 0, 4)).toBe('RIFF');
    expect(view.readUInt32LE(4)).toBe(view.length - 8);
    expect(view.toString('ascii', 8, 16)).toBe('WAVEfmt ');
    expect(view.readUInt32LE(16)).toBe(16);
    expect(view.readUInt16LE(20)).toBe(1); // PCM
    expect(view.readUInt16LE(22)).toBe(1); // mono
    expect(view.readUInt32LE(24)).toBe(RATE);
    expect(view.readUInt32LE(28)).toBe(RATE * 2); // byte rate
    expect(view.readUInt16LE(32)).toBe(2); // block align
    expect(view.readUInt16LE(34)).toBe(16);
    expect(view.toString('ascii', 36, 40)).toBe('data');
    expect(view.readUInt32LE(40)).toBe(speech.length * 2);
    expect(samplesOf(file)).toEqual(speech);
  });

  it('parseWavHeader reads our header and one written by ffmpeg (with a LIST chunk)', () => {
    const ours = encodeWav(speech, RATE);
    expect(parseWavHeader(ours)).toEqual({
      sampleRate: RATE,
      channels: 1,
      bitsPerSample: 16,
      format: 1,
      dataBytes: speech.length * 2,
      dataOffset: 44,
      durationMs: (speech.length / RATE) * 1000,
    });
    // The header alone is enough.
    expect(parseWavHeader(ours.subarray(0, 44)).dataBytes).toBe(speech.length * 2);

    const source = join(dir, 'source.wav');
    const converted = join(dir, 'ffmpeg.wav');
    execFileSync('sh', ['-c', `cat > "${source}"`], { input: ours });
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', source, '-ar', '16000', '-ac', '2', converted]);
    const bytes = new Uint8Array(readFileSync(converted));
    expect(Buffer.from(bytes).toString('ascii', 36, 40)).not.toBe('data'); // ffmpeg adds a LIST chunk first
    const info = parseWavHeader(bytes);
    expect(info).toMatchObject({ sampleRate: 16000, channels: 2, bitsPerSample: 16, format: 1 });
    expect(info.dataOffset + info.dataBytes).toBe(bytes.length);
    expect(Math.abs(info.durationMs - (speech.length / RATE) * 1000)).toBeLessThan(1);
  });

  it('parseWavHeader rejects what is not a WAV file', () => {
    expect(() => parseWavHeader(new Uint8Array(0))).toThrow(AppError);
    expect(() => parseWavHeader(new TextEncoder().encode('RIFF1234WAVEjunkjunkjunk'))).toThrow(
      /not a valid WAV/,
    );
    const noData = encodeWav(speech, RATE).slice(0, 36);
    expect(() => parseWavHeader(noData)).toThrow(/no data chunk/);
  });

  it('streams chunks to a file identical to encodeWav, checked by soxi and ffmpeg', async () => {
    const path = join(dir, 'stream.wav');
    const sink = await createWavSink(path, RATE);
    for (const chunk of chunksOf(speech, 5000)) await sink.write(chunk);
    // Nothing is visible under the final name until finish.
    expect(existsSync(path)).toBe(false);
    expect(partialsOf(path)).toHaveLength(1);
    const result = await sink.finish();
    expect(partialsOf(path)).toEqual([]);
    const file = new Uint8Array(readFileSync(path));
    expect(result).toEqual({
      bytes: file.length,
      samples: speech.length,
      durationMs: (speech.length / RATE) * 1000,
    });
    expect(Buffer.compare(file, encodeWav(speech, RATE))).toBe(0);

    const soxi = (flag: string) => execFileSync('soxi', [flag, path], { encoding: 'utf8' }).trim();
    expect(soxi('-r')).toBe(String(RATE));
    expect(soxi('-c')).toBe('1');
    expect(soxi('-b')).toBe('16');
    expect(soxi('-s')).toBe(String(speech.length));
    expect(Math.abs(Number(soxi('-D')) * 1000 - result.durationMs)).toBeLessThan(0.1);
    const decode = spawnSync('ffmpeg', ['-v', 'error', '-i', path, '-f', 'null', '-'], { encoding: 'utf8' });
    expect(decode.status).toBe(0);
    expect(decode.stderr).toBe('');
  });

  it('keeps call order when writes are not awaited, and copies the caller’s samples at once', async () => {
    const path = join(dir, 'unawaited.wav');
    const sink = await createWavSink(path, RATE);
    const chunks = chunksOf(speech, 3000);
    const reused = new Int16Array(3000);
    const writes: Promise<void>[] = [];
    for (const chunk of chunks) {
      // One buffer reused for every call: the sink must have taken its copy already.
      reused.set(chunk);
      writes.push(sink.write(reused.subarray(0, chunk.length)));
    }
    await Promise.all(writes);
    await sink.finish();
    expect(samplesOf(new Uint8Array(readFileSync(path)))).toEqual(speech);
  });

  it('writes to disk as it goes instead of holding the audio in memory', async () => {
    const path = join(dir, 'long.wav');
    const sink = await createWavSink(path, RATE);
    let written = WAV_HEADER_BYTES;
    // About three minutes of speech, 13 MB.
    for (let i = 0; i < 30; i++) {
      await sink.write(speech);
      written += speech.length * 2;
      // Only a few fixed blocks (≤ 1.25 MiB) may wait in memory.
      expect(written - statSync(partialsOf(path)[0]!).size).toBeLessThanOrEqual(1.25 * 1024 * 1024);
    }
    const result = await sink.finish();
    expect(result.bytes).toBe(written);
    expect(statSync(path).size).toBe(written);
    expect(parseWavHeader(readFileSync(path).subarray(0, 44)).dataBytes).toBe(written - 44);
  });

  it('abort deletes the temporary file and leaves nothing under the final name', async () => {
    const sub = mkdtempSync(join(dir, 'abort-'));
    const path = join(sub, 'aborted.wav');
    const sink = await createWavSink(path, RATE);
    await sink.write(speech);
    await sink.abort();
    expect(readdirSync(sub)).toEqual([]);
    await sink.abort(); // twice is harmless
    await expect(sink.write(speech)).rejects.toThrow(/already aborted/);
  });

  it('refuses audio past the WAV size limit with OUTPUT_FAILED, then aborts cleanly', async () => {
    const sub = mkdtempSync(join(dir, 'limit-'));
    const path = join(sub, 'big.wav');
    const sink = await createWavSink(path, RATE, { maxDataBytes: speech.length * 3 });
    await sink.write(speech);
    const error = await sink.write(speech).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('OUTPUT_FAILED');
    await sink.abort();
    expect(readdirSync(sub)).toEqual([]);
  });

  it('reports a path it cannot create as OUTPUT_FAILED', async () => {
    const error = await createWavSink(join(dir, 'missing', 'dir', 'x.wav'), RATE).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('OUTPUT_FAILED');
  });

  it('cannot be written after finish', async () => {
    const path = join(dir, 'done.wav');
    const sink = await createWavSink(path, RATE);
    await sink.write(speech.subarray(0, 100));
    await sink.finish();
    await expect(sink.write(speech)).rejects.toThrow(AppError);
    // An abort after finish must not delete the finished file.
    await sink.abort();
    expect(statSync(path).size).toBe(44 + 200);
  });
});
