import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SYNTHESIS, type AudioFormat } from '../../../../electron/shared/options';
import { rmsOf as rms } from '../../../fixtures/audio-analysis';
import { createEncoderSink } from '../../../../electron/core/engine/audio/encoder-sink';
import { createResampler } from '../../../../electron/core/engine/audio/resampler';
import { createStreamEncoder, PCM_RATE } from '../../../../electron/core/engine/audio/stream-encoder';
import type { RenderRequest } from '../../../../electron/core/engine/engine';
import { openRenderOutputs } from '../../../../electron/core/engine/render/outputs';
import { speechPcm } from '../../../fixtures/espeak';
import { partialsOf } from './partials';

const TEXT = 'The old lighthouse keeper climbed the stairs every evening, counting each step.';
/** Uneven chunks, as the renderer's are. */
const CHUNK = 777;
const RATES = [22050, 16000, 24000];

interface Expected {
  codec: string;
  /** ffprobe's sample_rate for an input rate. */
  probedRate(input: number): number;
  /** Rate of the stream's samples (what the encoder reports). */
  outputRate(input: number): number;
  /** Allowed extra decoded length, ms, beyond ±TOLERANCE_MS (codec priming/padding). */
  extraMs(input: number): number;
  /** Largest relative RMS difference between decoded and input. */
  rmsTolerance: number;
  /** Decoded samples equal the input's exactly (lossless at the same rate). */
  exact: (input: number) => boolean;
}

const TOLERANCE_MS = 25;
const EXPECTED: Record<AudioFormat, Expected> = {
  wav: {
    codec: 'pcm_s16le',
    probedRate: (r) => r,
    outputRate: (r) => r,
    extraMs: () => 0,
    rmsTolerance: 0,
    exact: () => true,
  },
  pcm: {
    codec: 'pcm_s16le',
    probedRate: () => PCM_RATE,
    outputRate: () => PCM_RATE,
    extraMs: () => 0,
    rmsTolerance: 0.02,
    exact: (r) => r === PCM_RATE,
  },
  flac: {
    codec: 'flac',
    probedRate: (r) => r,
    outputRate: (r) => r,
    extraMs: () => 0,
    rmsTolerance: 0,
    exact: () => true,
  },
  // LAME: encoder delay + padding to a whole frame (576 samples), as the MP3 sink documents.
  mp3: {
    codec: 'mp3',
    probedRate: (r) => r,
    outputRate: (r) => r,
    extraMs: (r) => ((3 * 576) / r) * 1000,
    rmsTolerance: 0.1,
    exact: () => false,
  },
  // ffprobe reports Opus at its 48 kHz decoding rate; pre-skip and granule make the length exact.
  opus: {
    codec: 'opus',
    probedRate: () => 48000,
    outputRate: (r) => (r === 16000 || r === 24000 ? r : 24000),
    extraMs: () => 0,
    rmsTolerance: 0.1,
    exact: () => false,
  },
  // ADTS cannot signal the encoder delay: 1024 priming samples plus padding to a 1024 frame.
  aac: {
    codec: 'aac',
    probedRate: (r) => r,
    outputRate: (r) => r,
    extraMs: (r) => ((2 * 1024) / r) * 1000,
    rmsTolerance: 0.1,
    exact: () => false,
  },
};
const FORMATS = Object.keys(EXPECTED) as AudioFormat[];

function inputArgs(format: AudioFormat): string[] {
  return format === 'pcm' ? ['-f', 's16le', '-ar', String(PCM_RATE), '-ac', '1'] : [];
}

/** ffmpeg's complaints while decoding the whole file (empty when it decodes cleanly). */
function decodeErrors(path: string, format: AudioFormat): string {
  const result = spawnSync('ffmpeg', ['-v', 'error', ...inputArgs(format), '-i', path, '-f', 'null', '-']);
  return result.stderr.toString() + (result.status === 0 ? '' : `exit ${result.status}`);
}

function probe(path: string, format: AudioFormat): { codec_name: string; sample_rate: string } {
  const result = spawnSync(
    'ffprobe',
    [
      '-v',
      'error',
      ...inputArgs(format),
      '-select_streams',
      'a:0',
      '-show_entries',
      'stream=codec_name,sample_rate',
      '-of',
      'json',
      path,
    ],
    { encoding: 'utf8' },
  );
  return (JSON.parse(result.stdout) as { streams: { codec_name: string; sample_rate: string }[] })
    .streams[0]!;
}

/**
 * Decodes to mono s16le at `rate` Hz (ffmpeg resamples when the stream's rate differs), with what
 * ffmpeg reported while decoding the whole file (decodeErrors' check, in the same run).
 */
function decode(path: string, format: AudioFormat, rate: number): { pcm: Int16Array; errors: string } {
  const result = spawnSync(
    'ffmpeg',
    ['-v', 'error', ...inputArgs(format), '-i', path, '-f', 's16le', '-ac', '1', '-ar', String(rate), '-'],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const bytes = new Uint8Array(result.stdout);
  return {
    pcm: new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)),
    errors: result.stderr.toString() + (result.status === 0 ? '' : `exit ${result.status}`),
  };
}

async function resample(pcm: Int16Array, from: number, to: number): Promise<Int16Array> {
  const r = await createResampler(from, to);
  const a = r.process(pcm);
  const b = r.flush();
  const out = new Int16Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

describe('stream encoders', () => {
  let dir: string;
  /** About 3 s of real eSpeak speech at each input rate. */
  const speech = new Map<number, Int16Array>();
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'stream-encoders-'));
    const espeak = await speechPcm(TEXT);
    expect(espeak.length / 22050).toBeGreaterThan(2.5);
    for (const rate of RATES) speech.set(rate, rate === 22050 ? espeak : await resample(espeak, 22050, rate));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe.each(FORMATS)('%s', (format) => {
    const expected = EXPECTED[format];
    it.each(RATES)('streams a valid file from %i Hz input, in order, with the input length', async (rate) => {
      const pcm = speech.get(rate)!;
      const encoder = await createStreamEncoder(format, { sampleRate: rate });
      expect(encoder.outputRate).toBe(expected.outputRate(rate));
      expect(encoder.contentType).toMatch(/^audio\//);
      const parts: Uint8Array[] = [];
      let bytesAfterTwoSeconds = 0;
      for (let offset = 0; offset < pcm.length; offset += CHUNK) {
        parts.push(await encoder.encode(pcm.subarray(offset, offset + CHUNK)));
        if (offset + CHUNK <= 2 * rate) bytesAfterTwoSeconds += parts.at(-1)!.length;
      }
      // A live client has audio before the end.
      expect(bytesAfterTwoSeconds).toBeGreaterThan(0);
      parts.push(await encoder.finish());
      const path = join(dir, `stream-${rate}.${format}`);
      writeFileSync(path, Buffer.concat(parts));

      const outRate = encoder.outputRate;
      const { pcm: decoded, errors } = decode(path, format, outRate);
      expect(errors).toBe('');
      const probed = probe(path, format);
      expect(probed.codec_name).toBe(expected.codec);
      expect(Number(probed.sample_rate)).toBe(expected.probedRate(rate));

      const inputMs = (pcm.length / rate) * 1000;
      const decodedMs = (decoded.length / outRate) * 1000;
      expect(decodedMs).toBeGreaterThanOrEqual(inputMs - TOLERANCE_MS);
      expect(decodedMs).toBeLessThanOrEqual(inputMs + TOLERANCE_MS + expected.extraMs(rate));
      if (expected.exact(rate)) {
        expect(decoded).toEqual(pcm);
      } else {
        const reference = outRate === rate ? pcm : await resample(pcm, rate, outRate);
        expect(Math.abs(rms(decoded) - rms(reference)) / rms(reference)).toBeLessThanOrEqual(
          expected.rmsTolerance,
        );
      }
    });
  });

  it('writes a WAV stream header with unknown sizes', async () => {
    const encoder = await createStreamEncoder('wav', { sampleRate: 22050 });
    const head = await encoder.encode(new Int16Array(10));
    const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
    expect(view.getUint32(4, true)).toBe(0xffffffff);
    expect(view.getUint32(40, true)).toBe(0xffffffff);
    await encoder.finish();
  });

  it('writes FLAC STREAMINFO with unknown total samples when streaming', async () => {
    const encoder = await createStreamEncoder('flac', { sampleRate: 22050 });
    const parts = [await encoder.encode(speech.get(22050)!), await encoder.finish()];
    const bytes = Buffer.concat(parts);
    // 36-bit total samples: low nibble of byte 21 and bytes 22-25.
    expect(bytes[21]! & 0x0f).toBe(0);
    expect(bytes.readUInt32BE(22)).toBe(0);
  });

  describe.each(['opus', 'aac', 'flac', 'pcm'] as const)('%s file sink', (format) => {
    it('writes a valid file through openRenderOutputs, with no .partial left', async () => {
      const pcm = speech.get(22050)!;
      const audioPath = join(dir, `render.${format}`);
      const request = {
        ...DEFAULT_SYNTHESIS,
        voice_code: 'test',
        audio_type: format,
        text: TEXT,
        audioPath,
      } as RenderRequest;
      const outputs = await openRenderOutputs(request, 22050);
      for (let offset = 0; offset < pcm.length; offset += CHUNK) {
        await outputs.writeAudio(pcm.subarray(offset, offset + CHUNK));
      }
      const done = await outputs.finish();
      expect(done.durationMs).toBeCloseTo((pcm.length / 22050) * 1000, 6);
      expect(done.bytes).toBe(readFileSync(audioPath).length);
      expect(readdirSync(dir).filter((name) => name.endsWith('.partial'))).toEqual([]);
      expect(decodeErrors(audioPath, format)).toBe('');
      if (format === 'flac') {
        // The file's STREAMINFO states the exact length and MD5, which ffmpeg then checks.
        const bytes = readFileSync(audioPath);
        expect(bytes.readUInt32BE(22)).toBe(pcm.length);
        expect(bytes.subarray(26, 42).equals(Buffer.alloc(16))).toBe(false);
        const check = spawnSync('ffmpeg', [
          '-v',
          'error',
          '-err_detect',
          'crccheck+bitstream',
          '-i',
          audioPath,
          '-f',
          'null',
          '-',
        ]);
        expect(check.stderr.toString()).toBe('');
        const duration = spawnSync(
          'ffprobe',
          ['-v', 'error', '-show_entries', 'stream=duration_ts', '-of', 'csv=p=0', audioPath],
          {
            encoding: 'utf8',
          },
        );
        expect(Number(duration.stdout.trim())).toBe(pcm.length);
      }
    });

    it('removes the temporary file on abort', async () => {
      const audioPath = join(dir, `aborted.${format}`);
      const sink = await createEncoderSink(audioPath, format, { sampleRate: 22050 });
      await sink.write(speech.get(22050)!.subarray(0, 22050));
      expect(partialsOf(audioPath)).toHaveLength(1);
      await sink.abort();
      expect(partialsOf(audioPath)).toEqual([]);
      expect(existsSync(audioPath)).toBe(false);
    });
  });
});
