/**
 * The compiled CLI (dist/cli/narration-studio.js, package.json "bin"), built into a temp folder
 * laid out as a clone (package.json, node_modules, dist/renderer) and run for real under plain
 * Node: help, the voice list, a say to WAV, serve with the studio UI. And the launcher of
 * `npm run say|serve|…` (electron/launch/cli.mjs): it builds a missing or stale bundle, and
 * only then.
 */

import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, ROOT } from '../../electron/launch/build';
import { CLI_ENTRY, CLI_SOURCES, isOutputStale } from '../../electron/launch/freshness.mjs';
import { rmsOf, wavSamples } from '../fixtures/audio-analysis';
import { PDF_BOOK, writePdfBook } from '../fixtures/pdf-files';
import { archiveOf, largestArchiveJson } from '../fixtures/project-archives';
import { signInStudio } from '../fixtures/studio-session';

const UI_INDEX = '<!doctype html><title>studio fixture</title>';

/** A folder laid out as a clone: package.json and node_modules (the repository's, linked). */
function makeApp(prefix: string): string {
  const app = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(app, 'package.json'), JSON.stringify({ type: 'module', bin: CLI_ENTRY }));
  symlinkSync(join(ROOT, 'node_modules'), join(app, 'node_modules'), 'junction');
  return app;
}

function run(app: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, args, {
    cwd: app,
    env: { ...process.env, NODE_OPTIONS: '', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Packages the static imports of `output` reach (chunks followed, `import()` not). */
function staticPackages(metafile: Metafile, output: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of metafile.outputs[file]?.imports ?? []) {
      if (imported.kind === 'dynamic-import') continue;
      if (imported.external) {
        if (!imported.path.startsWith('node:')) packages.add(imported.path);
      } else visit(imported.path);
    }
  };
  visit(output);
  return packages;
}

/** The output file built from `source` (an entry, or a module loaded with `import()`). */
function outputOf(metafile: Metafile, source: string): string {
  const found = Object.entries(metafile.outputs).find(([, o]) => o.entryPoint === source);
  if (!found) throw new Error(`no output for ${source}`);
  return found[0];
}

describe('the compiled CLI', () => {
  let app: string;
  let entry: string;
  let metafile: Metafile;

  beforeAll(async () => {
    // A space in the path, as under "Application Support" or "Program Files": eSpeak's files are found by path.
    app = makeApp('ns cli-');
    metafile = await buildCli(ROOT, app);
    entry = join(app, CLI_ENTRY);
    mkdirSync(join(app, 'dist/renderer'), { recursive: true });
    writeFileSync(join(app, 'dist/renderer/index.html'), UI_INDEX);
  });
  afterAll(() => rmSync(app, { recursive: true, force: true }));

  it('is an executable ESM file with a node shebang, its workers and eSpeak NG beside it', () => {
    const text = readFileSync(entry, 'utf8');
    expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(statSync(entry).mode & 0o111).not.toBe(0);
    for (const worker of [
      'espeak-worker.js',
      'engine-host-worker.js',
      'manuscript-reader-child.js',
      'project-archive-child.js',
      'resampling-worker.js',
      'espeak-ng.wasm',
      'espeak-ng.cjs',
      'espeak-ng-data-files.json',
    ]) {
      expect(statSync(join(app, 'dist/cli', worker)).size).toBeGreaterThan(500);
    }
  });

  it('loads no package for --help, and say and export none of the server, store, installer or codecs', () => {
    const main = outputOf(metafile, 'electron/core/cli/index.ts');
    expect([...staticPackages(metafile, main)]).toEqual([]);
    // say loads the engine (and SSML's saxes with it) once its arguments are read.
    const say = [...staticPackages(metafile, outputOf(metafile, 'electron/core/cli/say-command.ts'))];
    expect(say).toEqual([]);
    // export reads SSML's chapter text with saxes (shared/ssml-markup.ts), which is bundled.
    const exportCommand = [
      ...staticPackages(metafile, outputOf(metafile, 'electron/core/cli/export-command.ts')),
    ];
    expect(exportCommand).toEqual([]);
    const engine = [...staticPackages(metafile, outputOf(metafile, 'electron/core/engine/create-engine.ts'))];
    for (const heavy of [
      'fastify',
      'node-sqlite3-wasm',
      'onnxruntime-node',
      'kuromoji',
      'wasm-media-encoders',
      'speex-resampler',
    ]) {
      expect(engine).not.toContain(heavy);
    }
    // A server holds, idle, only what it needs to answer: PostgreSQL's client, the lexicon file
    // readers, the zip writer and the resampler load when first used (serve's idle memory).
    const serve = [...staticPackages(metafile, outputOf(metafile, 'electron/core/cli/serve-command.ts'))];
    for (const later of ['pg', 'fast-xml-parser', 'csv-parse', 'fflate', 'speex-resampler']) {
      expect(serve).not.toContain(later);
    }
    const library = [...staticPackages(metafile, outputOf(metafile, 'electron/core/voices/index.ts'))];
    for (const heavy of ['undici', 'tar', 'yauzl', 'fastify', 'node-sqlite3-wasm']) {
      expect(library).not.toContain(heavy);
    }
    // The lexicon command reads and writes one JSON file: its schemas (TypeBox, compiled into the
    // bundle: BUNDLED_PACKAGES in build.ts), nothing of the engine or server.
    const lexicon = [...staticPackages(metafile, outputOf(metafile, 'electron/core/cli/lexicon-command.ts'))];
    expect(lexicon).toEqual([]);
    // TypeBox is in the bundle, not loaded module by module from node_modules.
    const everything = new Set(Object.values(metafile.outputs).flatMap((o) => o.imports.map((i) => i.path)));
    expect([...everything].filter((path) => path.startsWith('@sinclair/typebox'))).toEqual([]);
  });

  it('prints its usage with --help', () => {
    const r = run(app, [entry, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^usage: narration-studio <command>/);
    expect(r.stdout).toContain('say');
  });

  it('lists the voices', () => {
    const r = run(app, [entry, 'say', '--list-voices']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^en_female_emily_us\s+English/m);
  });

  it('says a sentence to a WAV file with eSpeak from its worker beside the bundle', () => {
    const out = join(app, 'hi.wav');
    // No neural voices: the per-user data folder is an empty one of this test's.
    const r = run(app, [entry, 'say', '--voice', 'en_female_emily_us', '--out', out, 'Hello there.'], {
      XDG_DATA_HOME: join(app, 'user-data'),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('spoken by espeak');
    const { pcm, sampleRate } = wavSamples(new Uint8Array(readFileSync(out)));
    expect(sampleRate).toBe(22050);
    expect(pcm.length / sampleRate).toBeGreaterThan(0.4);
    expect(rmsOf(pcm)).toBeGreaterThan(500);
  });

  it('exports a book to an M4B with chapters, its codecs loaded from the bundle’s chunks', () => {
    const out = join(app, 'book.m4b');
    writeFileSync(join(app, 'book.md'), '# One\n\nHello there.\n\n# Two\n\nGoodbye.\n');
    const r = run(
      app,
      [
        entry,
        'export',
        '--voice',
        'en_female_emily_us',
        '--preset',
        'podcast',
        '--out',
        out,
        '--file',
        'book.md',
      ],
      { XDG_DATA_HOME: join(app, 'user-data') },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('2 chapters');
    const probed = spawnSync('ffprobe', ['-v', 'error', '-show_chapters', '-of', 'json', out], {
      encoding: 'utf8',
    });
    const chapters = (JSON.parse(probed.stdout) as { chapters: Array<{ tags: { title: string } }> }).chapters;
    expect(chapters.map((c) => c.tags.title)).toEqual(['One', 'Two']);
    expect(statSync(join(app, 'book.loudness.json')).size).toBeGreaterThan(100);
  });

  it('serves the studio UI from dist/renderer of its own package, and stops on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [
        entry,
        'serve',
        '--port',
        '0',
        '--data-dir',
        join(app, 'data'),
        '--settings-dir',
        join(app, 'settings'),
      ],
      { cwd: app, env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const [url, loginUrl] = await new Promise<[string, string]>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)\nopen (\S+)$/m.exec(out);
          if (match) resolve([match[1]!, match[2]!]);
        });
        void exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
      });
      const index = await fetch(`${url}/`);
      expect(index.status).toBe(200);
      expect(await index.text()).toBe(UI_INDEX);
      // The engine runs in its host thread (engine-host-worker.js), its eSpeak workers beside it.
      const { headers: studio } = await signInStudio(loginUrl);
      const audition = await fetch(`${url}/api/v1/voices/en_female_emily_us/audition`, {
        method: 'POST',
        headers: { ...studio, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(audition.status).toBe(200);
      const wav = new Uint8Array(await audition.arrayBuffer());
      expect(Buffer.from(wav.subarray(0, 4)).toString('ascii')).toBe('RIFF');
      expect(wav.length).toBeGreaterThan(10_000);
      // A PDF is read by manuscript-reader-child.js, started beside the bundle's chunks.
      const read = await fetch(`${url}/api/v1/manuscripts/read?file_name=book.pdf`, {
        method: 'POST',
        headers: { ...studio, 'content-type': 'application/octet-stream' },
        body: new Uint8Array(await writePdfBook()),
      });
      const answer = (await read.json()) as { result: { chapters: Array<{ title: string }> } };
      expect(read.status, JSON.stringify(answer)).toBe(200);
      expect(answer.result.chapters.map((c) => c.title)).toEqual(PDF_BOOK.chapters.map((c) => c.title));
      // A project archive is read by project-archive-child.js, beside it.
      const imported = await fetch(`${url}/api/v1/projects/import-archive?file_name=book.narration.zip`, {
        method: 'POST',
        headers: { ...studio, 'content-type': 'application/zip' },
        body: new Uint8Array(archiveOf(largestArchiveJson({ segments: 40 }))),
      });
      const project = (await imported.json()) as { result: { project: { segment_count: number } } };
      expect(imported.status, JSON.stringify(project)).toBe(201);
      expect(project.result.project.segment_count).toBe(40);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited, stderr).toBe(0);
  });
});

describe('the launcher of npm run say|serve|keys|voices', () => {
  let app: string;
  beforeAll(() => {
    // A clone without dist/: the sources the CLI is built from, and the build itself.
    app = makeApp('ns-launch-');
    for (const path of [
      'electron/core',
      'electron/shared',
      'electron/launch',
      'electron/main',
      'native/espeak-ng',
      'electron/tsconfig.json',
      'tsconfig.json',
      'tsconfig.base.json',
    ]) {
      cpSync(join(ROOT, path), join(app, path), { recursive: true });
    }
  });
  afterAll(() => rmSync(app, { recursive: true, force: true }));

  const launch = (args: string[]) => run(app, [join(app, 'electron/launch/cli.mjs'), ...args]);

  it('builds a missing bundle, then runs it', () => {
    const r = launch(['--help']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Building the CLI');
    expect(r.stdout).toMatch(/^usage: narration-studio <command>/);
    expect(isOutputStale(app, CLI_ENTRY, CLI_SOURCES)).toBe(false);
  });

  it('runs a fresh bundle as it is; a source edited after the build makes it stale', () => {
    const fresh = launch(['say', '--list-voices']);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stderr).not.toContain('Building');
    expect(fresh.stdout).toContain('en_female_emily_us');

    // As if the sources had been edited after the build: the bundle is older than they are. A
    // stale bundle is rebuilt by the same step as a missing one (cli.mjs: isOutputStale, then
    // buildCli), which the test above runs end to end; building again here would show it twice.
    const past = new Date(Date.now() - 600_000);
    utimesSync(join(app, CLI_ENTRY), past, past);
    expect(isOutputStale(app, CLI_ENTRY, CLI_SOURCES)).toBe(true);
    const now = new Date();
    utimesSync(join(app, CLI_ENTRY), now, now);
    expect(isOutputStale(app, CLI_ENTRY, CLI_SOURCES)).toBe(false);
  });

  it('counts every file under the source folders, skipping node_modules', () => {
    const built = statSync(join(app, CLI_ENTRY)).mtimeMs;
    const later = new Date(built + 60_000);
    mkdirSync(join(app, 'electron/core/node_modules/x'), { recursive: true });
    writeFileSync(join(app, 'electron/core/node_modules/x/index.js'), '');
    utimesSync(join(app, 'electron/core/node_modules/x/index.js'), later, later);
    expect(isOutputStale(app, CLI_ENTRY, CLI_SOURCES)).toBe(false);
    utimesSync(join(app, 'electron/core/engine/espeak/protocol.ts'), later, later);
    expect(isOutputStale(app, CLI_ENTRY, CLI_SOURCES)).toBe(true);
  });
});
