/**
 * Streaming benchmark (npm run bench:stream): OpenAI's `openai` client asks a `serve` process
 * (its own process, loopback) for a 3,000-character English text in each response_format and
 * reads the body as it arrives. Prints, per format, the median over 5 runs of the time to the
 * first audio bytes and to the whole answer, and their ratio (goal: first bytes in under a
 * quarter of the whole).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { AUDIO_FORMATS } from '../electron/shared/options';
import { fmt, median, runCli, sampleText, startServe } from './lib';

const RUNS = 5;
const text = sampleText('en-chapter.txt', 3000);
const dataDir = mkdtempSync(join(tmpdir(), 'stream-bench-'));
const created = await runCli([
  'keys',
  'create',
  '--name',
  'bench',
  '--balance',
  '1000000000',
  '--data-dir',
  dataDir,
]);
const key = /shown once, store it now\): (\S+)/.exec(created)![1]!;
const { server, base } = await startServe(['--data-dir', dataDir]);
const client = new OpenAI({ apiKey: key, baseURL: `${base}/v1`, maxRetries: 0 });

/** One request: ms to the response's first audio bytes and to its end, and the bytes received. */
async function timeOne(format: (typeof AUDIO_FORMATS)[number]): Promise<[number, number, number]> {
  const t0 = performance.now();
  const response = await client.audio.speech.create({
    model: 'tts-1',
    voice: 'alloy',
    input: text,
    response_format: format,
  });
  const reader = response.body!.getReader();
  let first = NaN;
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (Number.isNaN(first) && value.length > 0) first = performance.now() - t0;
    bytes += value.length;
  }
  return [first, performance.now() - t0, bytes];
}

try {
  // Warm-up: the first renders load each worker's voice and each encoder's code.
  for (const format of AUDIO_FORMATS) await timeOne(format);
  console.log(
    `Streaming benchmark (serve in its own process, ${availableParallelism()} cores, loopback, ` +
      `${text.length}-character English text, voice alloy, median of ${RUNS})`,
  );
  for (const format of AUDIO_FORMATS) {
    const firsts: number[] = [];
    const wholes: number[] = [];
    let size = 0;
    for (let i = 0; i < RUNS; i++) {
      const [first, whole, bytes] = await timeOne(format);
      firsts.push(first);
      wholes.push(whole);
      size = bytes;
    }
    const f = median(firsts);
    const w = median(wholes);
    console.log(
      `  ${format.padEnd(4)}  first bytes ${fmt(f)} ms, whole answer ${fmt(w)} ms, ratio ${fmt(f / w, 3)} ` +
        `(${fmt(size / 1024)} KiB)`,
    );
  }
} finally {
  server.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
}
