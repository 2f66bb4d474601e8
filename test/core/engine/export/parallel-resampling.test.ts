import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeWav } from '../../../../electron/core/engine/audio/wav';
import { createLoudnessMeter } from '../../../../electron/core/engine/export/loudness';
import type { ResampleJob } from '../../../../electron/core/engine/export/chapter-audio';
import {
  resampleChapters,
  runningResamplingWorkers,
} from '../../../../electron/core/engine/export/parallel-resampling';
import { speechPcm } from '../../../fixtures/espeak';

const dir = mkdtempSync(join(tmpdir(), 'parallel-resampling-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Three chapters of real speech (eSpeak NG, 22.05 kHz), the second of two WAVs. */
const wavs: string[][] = [];

beforeAll(async () => {
  const lines = [
    'The old lighthouse keeper climbed the stairs every evening, counting each step.',
    'The sea was loud below him, and the lamp turned slowly above.',
    'Ông lão gác hải đăng leo cầu thang mỗi tối.',
    'In the morning the fog lifted and the boats came home.',
  ];
  const files = await Promise.all(
    lines.map(async (text, i) => {
      const path = join(dir, `speech-${i}.wav`);
      writeFileSync(path, encodeWav(await speechPcm(text, i === 2 ? 'vi' : 'en-us'), 22050));
      return path;
    }),
  );
  wavs.push([files[0]!], [files[1]!, files[2]!], [files[3]!]);
});

/** The chapters as jobs writing into `dir` under `prefix`, to 44.1 kHz with 0.2 s between two WAVs. */
const jobsOf = (prefix: string, paths = wavs): ResampleJob[] =>
  paths.map((wavPaths, i) => ({
    wavPaths,
    gapSamples: 8820,
    rawPath: join(dir, `${prefix}-${i}.raw`),
    rate: 44100,
  }));

const samplesOf = (path: string) => {
  const bytes = readFileSync(path);
  return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length >> 1);
};

describe('resampling an export’s chapters on worker threads', () => {
  it('writes the same samples as one thread, ends its workers and reports progress up to 1', async () => {
    const serial = await resampleChapters(jobsOf('serial'), { threads: 1 });
    const fractions: number[] = [];
    const parallel = await resampleChapters(jobsOf('parallel'), {
      threads: 2,
      onFraction: (f) => fractions.push(f),
    });
    expect(runningResamplingWorkers()).toBe(0);
    expect(parallel).toEqual(serial);
    for (let i = 0; i < wavs.length; i++) {
      const one = samplesOf(join(dir, `serial-${i}.raw`));
      const two = samplesOf(join(dir, `parallel-${i}.raw`));
      expect(two.length).toBe(serial[i]);
      expect(
        Buffer.compare(
          Buffer.from(two.buffer, two.byteOffset, two.byteLength),
          Buffer.from(one.buffer, one.byteOffset, one.byteLength),
        ),
      ).toBe(0);
      // And so the same loudness, to the last digit.
      const meter = (pcm: Int16Array) => {
        const m = createLoudnessMeter(44100);
        m.add(pcm);
        return m.result();
      };
      expect(meter(two)).toEqual(meter(one));
      expect(meter(two).rmsDbfs).not.toBeNull();
    }
    expect(fractions.at(-1)).toBe(1);
    expect(fractions.every((f, i) => f >= 0 && f <= 1 && (i === 0 || f >= fractions[i - 1]! - 1e-12))).toBe(
      true,
    );
  });

  it('rejects with the first chapter that fails, and ends its workers', async () => {
    const jobs = jobsOf('failing', [...wavs, [join(dir, 'missing.wav')]]);
    await expect(resampleChapters(jobs, { threads: 2 })).rejects.toThrow(/missing\.wav/);
    expect(runningResamplingWorkers()).toBe(0);
  });

  it('stops with the signal’s reason once aborted, and ends its workers', async () => {
    const controller = new AbortController();
    const done = resampleChapters(jobsOf('aborted'), {
      threads: 2,
      signal: controller.signal,
      onFraction: () => controller.abort(new Error('cancelled by the user')),
    });
    await expect(done).rejects.toThrow('cancelled by the user');
    expect(runningResamplingWorkers()).toBe(0);
  });
});
