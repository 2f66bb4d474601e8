import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../../electron/shared/errors';
import { BITRATES, type Bitrate } from '../../../../electron/shared/options';
import { rmsOf as rms } from '../../../fixtures/audio-analysis';
import { createMp3Sink, encodeMp3 } from '../../../../electron/core/engine/audio/mp3';
import { parseMp3 } from '../../../fixtures/mp3-frames';
import { encodeWav } from '../../../../electron/core/engine/audio/wav';
import { speechPcm } from '../../../fixtures/espeak';
import { partialsOf } from './partials';

const RATE = 22050;
/** Samples per MPEG-2 Layer III frame. */
const FRAME = 576;

/** Splits into chunks of pseudo-random sizes between 1 and `max` samples (deterministic). */
function chunksOf(pcm: Int16Array, max: number, seed = 11): Int16Array[] {
  const out: Int16Array[] = [];
  for (let offset = 0; offset < pcm.length;) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const n = 1 + (seed % max);
    out.push(pcm.subarray(offset, offset + n));
    offset += n;
  }
  return out;
}

interface ProbedStream {
  codec_name: string;
  sample_rate: string;
  channels: number;
  bit_rate: string;
}

function ffprobe(path: string): ProbedStream {
  const json = execFileSync(
    'ffprobe',
    [
      '-v',
      'error',
      '-select_streams',
      'a:0',
      '-show_entries',
      'stream=codec_name,sample_rate,channels,bit_rate',
      '-of',
      'json',
      path,
    ],
    { encoding: 'utf8' },
  );
  return (JSON.parse(json) as { streams: ProbedStream[] }).streams[0]!;
}

/** Decodes with ffmpeg to 16-bit PCM at 22050 Hz; asserts there were no decode errors. */
function decode(path: string): Int16Array {
  const result = spawnSync(
    'ffmpeg',
    ['-v', 'error', '-i', path, '-f', 's16le', '-ac', '1', '-ar', String(RATE), '-'],
    {
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  expect(result.status).toBe(0);
  expect(result.stderr.toString()).toBe('');
  const bytes = new Uint8Array(result.stdout);
  return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
}

const TEXT =
  'The old lighthouse keeper climbed the stairs every evening, counting each step as the wind rose over the bay. ' +
  '"Do you hear that?" his daughter asked, pressing her face against the cold glass.';

describe('MP3 output', () => {
  let dir: string;
  let speech: Int16Array;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mp3-test-'));
    speech = await speechPcm(TEXT);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(BITRATES)(
    '%i kbps: MPEG-2 Layer III CBR frames at 22050 Hz, the PCM duration, clean decode',
    async (bitrate) => {
      const path = join(dir, `speech-${bitrate}.mp3`);
      const sink = await createMp3Sink(path, { sampleRate: RATE, bitrate });
      for (const chunk of chunksOf(speech, 4000)) await sink.write(chunk);
      const result = await sink.finish();
      expect(partialsOf(path)).toEqual([]);
      const file = new Uint8Array(readFileSync(path));
      expect(result.bytes).toBe(file.length);
      expect(result.samples).toBe(speech.length);
      expect(result.durationMs).toBeCloseTo((speech.length / RATE) * 1000, 6);

      const info = parseMp3(file);
      expect(info).toMatchObject({
        version: 'MPEG2',
        layer: 3,
        sampleRate: RATE,
        channels: 1,
        samplesPerFrame: FRAME,
      });
      expect([...info.bitrates]).toEqual([bitrate]);
      expect(info.tag).toBeUndefined();
      // LAME adds its 1105-sample delay at the start and pads the end to a whole frame: the
      // stream is 2 to 3 frames (52–78 ms) longer than the PCM, never shorter.
      const extra = info.frames * FRAME - speech.length;
      expect(extra).toBeGreaterThanOrEqual(2 * FRAME);
      expect(extra).toBeLessThan(3 * FRAME);
      // CBR: the size follows from the bitrate (frames alternate padding to keep it exact).
      const expectedBytes = (info.frames * FRAME * bitrate * 1000) / 8 / RATE;
      expect(Math.abs(file.length - expectedBytes)).toBeLessThan(2);

      const probed = ffprobe(path);
      expect(probed).toMatchObject({
        codec_name: 'mp3',
        sample_rate: String(RATE),
        channels: 1,
        bit_rate: String(bitrate * 1000),
      });
      const decoded = decode(path);
      expect(decoded.length).toBe(info.frames * FRAME);
      // Same level as native lame with the same settings (LAME's low-pass takes ~5% of the
      // RMS of eSpeak's bright voices at any bitrate, more at 8 and 16 kbps).
      const wav = join(dir, `speech-${bitrate}.wav`);
      const native = join(dir, `native-${bitrate}.mp3`);
      writeFileSync(wav, encodeWav(speech, RATE));
      execFileSync('lame', ['--quiet', '-b', String(bitrate), '--cbr', '--resample', '22.05', wav, native]);
      const energy = (pcm: Int16Array) => rms(pcm) * Math.sqrt(pcm.length);
      expect(energy(decoded) / energy(decode(native))).toBeCloseTo(1, 2);
      expect(energy(decoded) / energy(speech)).toBeGreaterThan(bitrate <= 16 ? 0.8 : 0.9);
      expect(energy(decoded) / energy(speech)).toBeLessThan(1.02);
    },
  );

  it('is the same file whether the PCM arrives whole or in chunks of any size', async () => {
    const whole = await encodeMp3(speech, { sampleRate: RATE, bitrate: 64 });
    for (const max of [1, 500, 30_000]) {
      const path = join(dir, `chunks-${max}.mp3`);
      const sink = await createMp3Sink(path, { sampleRate: RATE, bitrate: 64 });
      const parts = max === 1 ? chunksOf(speech.subarray(0, 20_000), 3) : chunksOf(speech, max);
      for (const chunk of parts) await sink.write(chunk);
      await sink.finish();
      const expected =
        max === 1 ? await encodeMp3(speech.subarray(0, 20_000), { sampleRate: RATE, bitrate: 64 }) : whole;
      expect(Buffer.compare(readFileSync(path), expected)).toBe(0);
    }
  });

  it('gives each sink its own encoder: interleaved renders equal separate ones', async () => {
    const other = await speechPcm('Xin chào, đây là giọng đọc của tôi.', 'vi+f2');
    const a = await createMp3Sink(join(dir, 'a.mp3'), { sampleRate: RATE, bitrate: 32 });
    const b = await createMp3Sink(join(dir, 'b.mp3'), { sampleRate: RATE, bitrate: 128 });
    const chunksA = chunksOf(speech, 2206);
    const chunksB = chunksOf(other, 2206);
    for (let i = 0; i < Math.max(chunksA.length, chunksB.length); i++) {
      await Promise.all([chunksA[i] && a.write(chunksA[i]!), chunksB[i] && b.write(chunksB[i]!)]);
    }
    await Promise.all([a.finish(), b.finish()]);
    expect(
      Buffer.compare(
        readFileSync(join(dir, 'a.mp3')),
        await encodeMp3(speech, { sampleRate: RATE, bitrate: 32 }),
      ),
    ).toBe(0);
    expect(
      Buffer.compare(
        readFileSync(join(dir, 'b.mp3')),
        await encodeMp3(other, { sampleRate: RATE, bitrate: 128 }),
      ),
    ).toBe(0);
  });

  it('shows no file under the final name before finish, and abort leaves nothing', async () => {
    const sub = mkdtempSync(join(dir, 'abort-'));
    const path = join(sub, 'x.mp3');
    const sink = await createMp3Sink(path, { sampleRate: RATE, bitrate: 128 });
    for (let i = 0; i < 10; i++) await sink.write(speech);
    expect(readdirSync(sub)).toEqual([expect.stringMatching(/^x\.mp3\.[0-9a-f]{8}\.partial$/)]);
    await sink.abort();
    expect(readdirSync(sub)).toEqual([]);
    await expect(sink.finish()).rejects.toThrow(AppError);
  });

  it('rejects a bitrate outside the API’s list before creating any file', async () => {
    const sub = mkdtempSync(join(dir, 'bad-'));
    const error = await createMp3Sink(join(sub, 'x.mp3'), { sampleRate: RATE, bitrate: 96 as Bitrate }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('INVALID_FIELD');
    expect(readdirSync(sub)).toEqual([]);
  });

  it('reports a path it cannot create as OUTPUT_FAILED', async () => {
    const error = await createMp3Sink(join(dir, 'no', 'such', 'x.mp3'), {
      sampleRate: RATE,
      bitrate: 32,
    }).catch((e: unknown) => e);
    expect((error as AppError).code).toBe('OUTPUT_FAILED');
  });

  it('encodes empty input to a valid, near-silent stream of two frames', async () => {
    const bytes = await encodeMp3(new Int16Array(0), { sampleRate: RATE, bitrate: 16 });
    expect(parseMp3(bytes)).toMatchObject({ frames: 2, sampleRate: RATE, version: 'MPEG2' });
  });
});

describe('parseMp3', () => {
  let dir: string;
  let speech: Int16Array;
  let ours: Uint8Array;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mp3-parse-'));
    speech = await speechPcm(TEXT);
    ours = await encodeMp3(speech, { sampleRate: RATE, bitrate: 32 });
    writeFileSync(join(dir, 'ours.mp3'), ours);
    writeFileSync(join(dir, 'speech.wav'), encodeWav(speech, RATE));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('counts a LAME Info frame as a tag, not as audio (native lame output)', () => {
    const path = join(dir, 'lame.mp3');
    // At 64 kbps and up a frame is large enough for LAME's tag (at 32 it writes none).
    execFileSync('lame', ['--quiet', '-b', '128', '--cbr', join(dir, 'speech.wav'), path]);
    const info = parseMp3(new Uint8Array(readFileSync(path)));
    expect(info).toMatchObject({ version: 'MPEG2', sampleRate: RATE, channels: 1 });
    expect([...info.bitrates]).toEqual([128]);
    expect(info.tag?.kind).toBe('Info');
    expect(info.tag?.frames).toBe(info.frames);
    // LAME's tag says how much to trim: what remains is exactly the PCM.
    const { encoderDelay = 0, encoderPadding = 0 } = info.tag ?? {};
    expect(encoderDelay).toBeGreaterThan(0);
    expect(info.frames * FRAME - encoderDelay - encoderPadding).toBe(speech.length);
  });

  it('skips an ID3v2 tag and an ffmpeg Info frame (remuxed by ffmpeg)', () => {
    const path = join(dir, 'tagged.mp3');
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-i',
      join(dir, 'ours.mp3'),
      '-c',
      'copy',
      '-metadata',
      'title=Chapter 1',
      path,
    ]);
    const bytes = new Uint8Array(readFileSync(path));
    expect(Buffer.from(bytes).toString('ascii', 0, 3)).toBe('ID3');
    const info = parseMp3(bytes);
    const plain = parseMp3(ours);
    expect(info.frames).toBe(plain.frames);
    expect(info.durationMs).toBe(plain.durationMs);
    expect(info.tag?.kind).toMatch(/^(Info|Xing)$/);
    expect([...info.bitrates]).toEqual([32]);
  });

  it('reports MPEG-1 at 44100 Hz and stereo', () => {
    const path = join(dir, 'mpeg1.mp3');
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-i',
      join(dir, 'speech.wav'),
      '-ar',
      '44100',
      '-ac',
      '2',
      '-b:a',
      '128k',
      path,
    ]);
    const info = parseMp3(new Uint8Array(readFileSync(path)));
    expect(info).toMatchObject({ version: 'MPEG1', sampleRate: 44100, channels: 2, samplesPerFrame: 1152 });
    expect(Math.abs(info.durationMs - (speech.length / RATE) * 1000)).toBeLessThan(100);
  });

  it('throws on garbage, truncation, junk between frames and other formats', () => {
    const noise = new Uint8Array(4000).map((_, i) => (i * 7919 + 13) % 251);
    expect(() => parseMp3(noise)).toThrow(AppError);
    expect(() => parseMp3(new Uint8Array(0))).toThrow(/no audio frames/);
    expect(() => parseMp3(encodeWav(speech.subarray(0, 1000), RATE))).toThrow(/not a valid MP3/);
    expect(() => parseMp3(ours.subarray(0, ours.length - 10))).toThrow(/truncated/);
    const junk = new Uint8Array(ours.length + 3);
    const cut = 50 * 104; // a frame boundary is not needed: any junk breaks the chain
    junk.set(ours.subarray(0, cut));
    junk.set([1, 2, 3], cut);
    junk.set(ours.subarray(cut), cut + 3);
    expect(() => parseMp3(junk)).toThrow(/no frame sync/);
  });
});
