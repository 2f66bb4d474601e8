/**
 * Footprint benchmark (npm run bench:footprint). Prints, in one run:
 *   1. the compiled CLI (`node dist/cli/narration-studio.js …`, package.json "bin"): `say` of one
 *      sentence to WAV, wall and peak RSS, median of 5, beside native `espeak-ng`;
 *      `say --list-voices` and `--help` wall (goals: say ≤ 300 ms and ≤ 150 MB; the others ≤ 150 ms);
 *   2. `serve` in its own process: RSS (the process and its children) at start, after one render
 *      in each of the seven languages, after sitting idle past the engine's idle release, and the
 *      submit → SUCCESS time per language first, warm and after the release (the reload cost)
 *      (goals: ≤ 150 MB at start, ≤ 250 MB after the languages and a minute idle);
 *   3. the free audition of every voice code, warm: request → first audio byte and → whole body,
 *      median of 5 per voice, per language with its slowest voice (goal: first byte ≤ 150 ms).
 * `--idle <s>` sets the idle wait (default 65: a little over the default release after 60 s).
 * `--baseline <commit | …/narration-studio.js>` measures the CLI of that build beside this one,
 * runs alternated (baseline.ts), and prints both with their ratio; `--cli-only` stops after
 * the CLI (for bisecting a start-up regression over commits).
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { VOICES } from '../electron/shared/voices';
import { baselineCli, type BaselineCli } from './baseline';
import { CLI_ENTRY, fmt, hasCommand, median, runCli, startServe } from './lib';

const RUNS = 5;
const { values: args } = parseArgs({
  options: {
    idle: { type: 'string', default: '65' },
    baseline: { type: 'string' },
    'cli-only': { type: 'boolean', default: false },
  },
});
const idleSeconds = Number(args.idle);
const KEY = 'footprint-bench-key-00000000000000';
const dir = mkdtempSync(join(tmpdir(), 'footprint-bench-'));

/** Wall ms and peak RSS MB of one command, through GNU time. */
function measure(command: string, commandArgs: string[]): { ms: number; mb: number } {
  const t0 = performance.now();
  const run = spawnSync('/usr/bin/time', ['-f', '%M', command, ...commandArgs], { encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (run.status !== 0) throw new Error(`${command} ${commandArgs.join(' ')}: ${run.stderr}`);
  const kb = Number(run.stderr.trim().split('\n').at(-1));
  return { ms, mb: kb / 1024 };
}

function medianOf(command: string, commandArgs: string[]): { ms: number; mb: number } {
  measure(command, commandArgs); // warm the file cache
  const runs = Array.from({ length: RUNS }, () => measure(command, commandArgs));
  return { ms: median(runs.map((r) => r.ms)), mb: median(runs.map((r) => r.mb)) };
}

type Figure = { ms: number; mb: number };
/** The CLI's commands measured, by name, with their arguments after the entry. */
const CLI_MEASURES = (out: string): [string, string[], string][] => [
  ['say "Hi." to WAV', ['say', '--voice', 'en_female_emily_us', '--out', out, 'Hi.'], '≤ 300 ms, ≤ 150 MB'],
  ['say --list-voices', ['say', '--list-voices'], '≤ 150 ms'],
  ['--help', ['--help'], '≤ 150 ms'],
];

/**
 * Each measure of each build, median of RUNS, the builds alternated run by run (a shared
 * machine's load moves from minute to minute) after one warm-up run of each.
 */
function measureBuilds(entries: string[], out: string): Figure[][] {
  const measures = CLI_MEASURES(out);
  for (const entry of entries) for (const [, argv] of measures) measure(process.execPath, [entry, ...argv]);
  const runs = entries.map(() => measures.map((): Figure[] => []));
  for (let run = 0; run < RUNS; run++) {
    entries.forEach((entry, b) =>
      measures.forEach(([, argv], m) => runs[b]![m]!.push(measure(process.execPath, [entry, ...argv]))),
    );
  }
  return runs.map((build) =>
    build.map((figures) => ({ ms: median(figures.map((f) => f.ms)), mb: median(figures.map((f) => f.mb)) })),
  );
}

/** Resident memory of `pid` and its descendants, MB (threads share the process's). */
function rssMb(pid: number): number {
  const kb = (p: number): number => {
    let total = 0;
    try {
      total += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
      for (const task of readdirSync(`/proc/${p}/task`)) {
        const children = readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim();
        for (const child of children ? children.split(/\s+/) : []) total += kb(Number(child));
      }
    } catch {
      // The process or thread ended while it was read.
    }
    return total;
  };
  return kb(pid) / 1024;
}

/** One sentence per language, with what exercises each language's text path (kanji for ja). */
const LANGUAGES: [string, string, string][] = [
  ['vi', 'vi_female_thuytrang_mb', 'Xin chào, hôm nay trời đẹp quá.'],
  ['en', 'en_female_emily_us', 'Hello there, the weather is lovely today.'],
  ['zh', 'zh_female_liu-ying_default', '你好，今天天气很好。'],
  ['ja', 'jp_female_yuki_default', '今日は良い天気ですね。東京へ行きます。'],
  ['ko', 'kr_female_seo-yeon_default', '안녕하세요, 오늘 날씨가 좋네요.'],
  ['fr', 'fr_female_camille_default', 'Bonjour, il fait beau aujourd’hui.'],
  ['es', 'es_female_elana_default', 'Hola, hoy hace muy buen tiempo.'],
];

try {
  // 1. The CLI. The launcher builds dist/cli first when a source is newer.
  await runCli(['--help']);
  const out = join(dir, 'hi.wav');
  const baseline: BaselineCli | undefined = args.baseline ? baselineCli(args.baseline) : undefined;
  try {
    const [current, before] = measureBuilds(baseline ? [CLI_ENTRY, baseline.entry] : [CLI_ENTRY], out);
    const bare = medianOf(process.execPath, ['-e', '0']);
    console.log(`Footprint benchmark (${availableParallelism()} cores; median of ${RUNS})`);
    console.log('CLI (node dist/cli/narration-studio.js):');
    if (baseline) console.log(`  this build beside ${baseline.label}`);
    CLI_MEASURES(out).forEach(([name, , goal], m) => {
      const now = current![m]!;
      const figures = `${fmt(now.ms)} ms, peak ${fmt(now.mb)} MB`;
      const then = before?.[m];
      const beside = then
        ? `   baseline ${fmt(then.ms)} ms, ${fmt(then.mb)} MB (×${(now.ms / then.ms).toFixed(2)} time)`
        : '';
      console.log(`  ${name.padEnd(20)} ${figures}${beside}   (goal ${goal})`);
    });
    console.log(
      `  ${'node -e 0'.padEnd(20)} ${fmt(bare.ms)} ms, peak ${fmt(bare.mb)} MB   (Node's own start)`,
    );
  } finally {
    baseline?.remove();
  }
  if (hasCommand('espeak-ng')) {
    const native = medianOf('espeak-ng', ['-v', 'en-us', '-w', join(dir, 'native.wav'), 'Hi.']);
    console.log(`  ${'native espeak-ng'.padEnd(20)} ${fmt(native.ms)} ms, peak ${fmt(native.mb)} MB`);
  }
  // With --cli-only, the CLI alone.
  if (!args['cli-only']) {
    // 2. The server's memory over its life.
    const dataDir = join(dir, 'serve');
    const t0 = performance.now();
    const { server, base } = await startServe(['--data-dir', dataDir, '--api-key', KEY]);
    const readyMs = performance.now() - t0;
    const pid = server.pid!;
    const api = async (path: string, body?: unknown): Promise<Record<string, unknown>> => {
      const response = await request(`${base}${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return (await response.body.json()) as Record<string, unknown>;
    };
    /** Submits one render and polls until it is final; resolves with submit → SUCCESS, ms. */
    const renderOnce = async (voice: string, text: string): Promise<number> => {
      const start = performance.now();
      const submitted = await api('/api/v1/tts', { input_text: text, voice_code: voice, audio_type: 'wav' });
      const id = (submitted.result as { request_id?: string } | undefined)?.request_id;
      if (!id) throw new Error(`submit failed: ${JSON.stringify(submitted)}`);
      for (;;) {
        const detail = (await api(`/api/v1/tts/${id}`)).result as { status: string } | undefined;
        if (detail?.status === 'SUCCESS') return performance.now() - start;
        if (detail?.status === 'FAILURE') throw new Error(`${voice} failed: ${JSON.stringify(detail)}`);
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    try {
      await new Promise((r) => setTimeout(r, 500));
      const atStart = rssMb(pid);
      const first: number[] = [];
      const warm: number[] = [];
      const reload: number[] = [];
      for (const [, voice, text] of LANGUAGES) first.push(await renderOnce(voice, text));
      const afterLanguages = rssMb(pid);
      for (const [, voice, text] of LANGUAGES) warm.push(await renderOnce(voice, text));
      await new Promise((r) => setTimeout(r, idleSeconds * 1000));
      const afterIdle = rssMb(pid);
      for (const [, voice, text] of LANGUAGES) reload.push(await renderOnce(voice, text));
      console.log(`serve (compiled, listening after ${fmt(readyMs)} ms):`);
      console.log(`  RSS at start                         ${fmt(atStart)} MB   (goal ≤ 150 MB)`);
      console.log(`  RSS after one render per language    ${fmt(afterLanguages)} MB`);
      console.log(
        `  RSS after ${idleSeconds} s idle                  ${fmt(afterIdle)} MB   (goal ≤ 250 MB)`,
      );
      console.log('  submit → SUCCESS, ms: first / warm / after the idle release (reload)');
      LANGUAGES.forEach(([lang], i) =>
        console.log(`    ${lang}  ${fmt(first[i]!)} / ${fmt(warm[i]!)} / ${fmt(reload[i]!)}`),
      );

      // 3. Auditions, warm: one audition of a voice first, then the timed ones.
      const timeAudition = async (code: string): Promise<[number, number]> => {
        const start = performance.now();
        const response = await request(`${base}/api/v1/voices/${encodeURIComponent(code)}/audition`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: '{}',
        });
        if (response.statusCode !== 200) throw new Error(`${code}: HTTP ${response.statusCode}`);
        let firstByte = NaN;
        for await (const piece of response.body) {
          if (Number.isNaN(firstByte) && (piece as Buffer).length > 0) firstByte = performance.now() - start;
        }
        return [firstByte, performance.now() - start];
      };
      console.log('audition, warm: request → first audio byte / whole body, ms (goal: first byte ≤ 150 ms)');
      for (const language of [...new Set(VOICES.map((v) => v.language))]) {
        const rows: { code: string; first: number; whole: number }[] = [];
        for (const voice of VOICES.filter((v) => v.language === language)) {
          await timeAudition(voice.voice_code);
          const runs: [number, number][] = [];
          for (let i = 0; i < RUNS; i++) runs.push(await timeAudition(voice.voice_code));
          rows.push({
            code: voice.voice_code,
            first: median(runs.map((r) => r[0])),
            whole: median(runs.map((r) => r[1])),
          });
        }
        const slowest = rows.reduce((a, b) => (b.first > a.first ? b : a));
        console.log(
          `    ${language}  ${fmt(median(rows.map((r) => r.first)))} / ${fmt(median(rows.map((r) => r.whole)))} ` +
            `(${rows.length} voices; slowest ${slowest.code}: ${fmt(slowest.first)} / ${fmt(slowest.whole)})`,
        );
      }
    } finally {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
