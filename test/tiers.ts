/**
 * Which test files run in the fast tier (`npm run test:fast`) and which in the slow one
 * (`npm run test:slow`): a rule over each file's own text, read by both vitest configs, so a new
 * test lands in a tier without anyone keeping a list. A file is SLOW when its text shows one of
 * SLOW_SIGNS (it starts the real engine or the full core, runs eSpeak or onnxruntime, spawns a
 * process, starts worker threads, a browser or a PostgreSQL server, or says `// test-tier: slow`
 * because it was measured slow for another reason); every other file is FAST. The two are a
 * partition: no file is in both, none in neither. See CONTRIBUTING.md "Tests".
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export interface SlowSign {
  /** Why a file with this sign belongs to the slow tier. */
  why: string;
  pattern: RegExp;
}

export const SLOW_SIGNS: readonly SlowSign[] = [
  {
    why: 'starts the real engine or the full core',
    pattern: /\b(startEngine|createEngine|createEngineHost|createCore|startTestCore|startSignedIn\w*)\(/,
  },
  {
    why: 'runs the real synthesisers in this process (eSpeak, ONNX Runtime)',
    pattern:
      /espeak-ng-emscripten|espeak-ng-wasm|onnxruntime|fixtures\/(espeak|reading-accuracy|phoneme-reference)'|fixtures\/onnx\//,
  },
  {
    why: 'spawns a process',
    pattern:
      /node:child_process|\b(startServerProcess|runEntry)\(|fixtures\/(compiled-cli|project-cli|proxy-process|ffprobe|reverse-proxies|nginx|text-encodings)'/,
  },
  {
    why: 'spawns a process (every manuscript read runs in a child)',
    pattern: /\b(readManuscript|readInChild|runInChild)\(/,
  },
  {
    why: 'starts worker threads',
    pattern: /node:worker_threads|\bnew Worker\(|\bcreateWorkerPool\(|fixtures\/(faulty-worker|opus-encode)/,
  },
  { why: 'starts a browser', pattern: /fixtures\/browser'/ },
  { why: 'starts a PostgreSQL server', pattern: /fixtures\/postgres'/ },
  { why: 'measured slow (the marker says why)', pattern: /^\/\/ test-tier: slow\b/m },
];

/** Test files live under test/ (not test/e2e, which has its own runner), named *.test.ts(x). */
export const TEST_ROOT = 'test';
const EXCLUDED_DIRS = new Set(['e2e', 'node_modules']);
const TEST_FILE = /\.test\.tsx?$/;

/** The first sign a test file's text shows, or undefined when it belongs to the fast tier. */
export function slowSignOf(text: string): SlowSign | undefined {
  return SLOW_SIGNS.find((sign) => sign.pattern.test(text));
}

function testFilesUnder(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!EXCLUDED_DIRS.has(entry.name)) files.push(...testFilesUnder(path));
    } else if (TEST_FILE.test(entry.name)) files.push(path);
  }
  return files;
}

export interface Tiers {
  /** Repository-relative paths with forward slashes, sorted. */
  fast: string[];
  slow: string[];
}

/** Every test file under `root`/test, split into the two tiers. */
export function testTiers(root: string = process.cwd()): Tiers {
  const tiers: Tiers = { fast: [], slow: [] };
  for (const file of testFilesUnder(join(root, TEST_ROOT)).sort()) {
    const path = relative(root, file).split(sep).join('/');
    (slowSignOf(readFileSync(file, 'utf8')) ? tiers.slow : tiers.fast).push(path);
  }
  return tiers;
}
