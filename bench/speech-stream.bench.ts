/**
 * Streaming benchmark (npm run bench:stream): OpenAI's `openai` client asks a `serve` process
 * (its own process, loopback) for a 3,000-character English text in each response_format and
 * reads the body as it arrives. Prints, per format, the median over 5 runs of the time to the
 * first audio bytes and to the whole answer, and their ratio (goal: first bytes in under a
 * quarter of the whole). `--baseline <commit | …/narration-studio.js>` runs that build's server
 * beside this one's, run for run alternated (baseline.ts), and prints the ratios.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import OpenAI from 'openai';
import { AUDIO_FORMATS } from '../electron/shared/options';
import { baselineCli, type BaselineCli } from './baseline';
import { fmt, median, runCli, sampleText, startServe, stopServer } from './lib';

const RUNS = 5;
const text = sampleText('en-chapter.txt', 3000);
const { values: args } = parseArgs({ options: { baseline: { type: 'string' } }, strict: true });
const baseline: BaselineCli | undefined = args.baseline ? baselineCli(args.baseline) : undefined;

interface Build {
  label: string;
  client: OpenAI;
  stop(): Promise<void>;
}

/** A server of the build whose CLI is `entry` (this checkout's without), on its own data folder. */
async function startBuild(label: string, entry?: string): Promise<Build> {
  const dataDir = mkdtempSync(join(tmpdir(), 'stream-bench-'));
  const created = await runCli(
    ['keys', 'create', '--name', 'bench', '--balance', '1000000000', '--data-dir', dataDir],
    entry,
  );
  const key = /shown once, store it now\): (\S+)/.exec(created)![1]!;
  const { server, base } = await startServe(['--data-dir', dataDir], entry ? { entry } : {});
  return {
    label,
    client: new OpenAI({ apiKey: key, baseURL: `${base}/v1`, maxRetries: 0 }),
    stop: async () => {
      await stopServer(server);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One request: ms to the response's first audio bytes and to its end, and the bytes received. */
async function timeOne(
  client: OpenAI,
  format: (typeof AUDIO_FORMATS)[number],
): Promise<[number, number, number]> {
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

const builds = [await startBuild('this build')];
try {
  if (baseline) builds.push(await startBuild(`baseline ${baseline.name}`, baseline.entry));
  // Warm-up: the first renders load each worker's voice and each encoder's code.
  for (const build of builds) for (const format of AUDIO_FORMATS) await timeOne(build.client, format);
  console.log(
    `Streaming benchmark (serve in its own process, ${availableParallelism()} cores, loopback, ` +
      `${text.length}-character English text, voice alloy, median of ${RUNS}` +
      `${baseline ? `; beside the baseline ${baseline.label}, runs alternated` : ''})`,
  );
  for (const format of AUDIO_FORMATS) {
    const firsts: number[][] = builds.map(() => []);
    const wholes: number[][] = builds.map(() => []);
    const sizes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      for (const [b, build] of builds.entries()) {
        const [first, whole, bytes] = await timeOne(build.client, format);
        firsts[b]!.push(first);
        wholes[b]!.push(whole);
        sizes[b] = bytes;
      }
    }
    for (const [b, build] of builds.entries()) {
      const f = median(firsts[b]!);
      const w = median(wholes[b]!);
      const versus =
        b === 0
          ? ''
          : `; this build: first bytes ×${fmt(median(firsts[0]!) / f, 2)}, whole ×${fmt(median(wholes[0]!) / w, 2)} the time`;
      console.log(
        `  ${format.padEnd(4)}  ${build.label}: first bytes ${fmt(f)} ms, whole answer ${fmt(w)} ms, ratio ${fmt(f / w, 3)} ` +
          `(${fmt(sizes[b]! / 1024)} KiB)${versus}`,
      );
    }
  }
} finally {
  for (const build of builds) await build.stop();
  baseline?.remove();
}
