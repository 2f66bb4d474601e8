/**
 * `project render <id> [--chapter <cid>]` and `project export <id> --format m4b|mp3|folder --out
 * <path>`: a project's render through the same durable queue the server runs (so a render an
 * earlier run left unfinished, even killed, resumes first), waiting, with progress lines on stderr
 * and the outcome as JSON on stdout; an export renders what is missing, then writes the book to
 * `--out` (for `folder`, a directory of files). Charges go to the projects' key (the studio's).
 */

import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { BOOK_FORMATS, FOLDER_FORMATS, type BookFormat, type FolderFormat } from '../../shared/book-exports';
import type { ModelId } from '../../shared/options';
import { createJobEvents, newInstanceId } from '../jobs';
import { systemClock } from '../platform/clock';
import { stderrLog } from '../platform/log';
import { dataPaths } from '../platform/paths';
import { createProjectExports, createProjectRenders, type ProjectRenders } from '../projects';
import type { Store } from '../store';
import { findNeuralVoice } from './voice-options';
import { readLexicon } from './lexicon-option';
import { sentenceCacheOption } from './sentence-cache-option';
import { UsageError } from './usage';
import type { ProjectCommandContext, ProjectSubcommand } from './project-subcommand';

/** Usage lines of the two subcommands (project-command.ts shows them). */
export const PROJECT_RENDER_USAGE = `  project render <project id> [--chapter <chapter id>]   (waits; progress on stderr)
  project export <project id> --format m4b|mp3|folder [--folder-format mp3|wav] --out <path>`;

const string = (value: string | boolean | undefined) => (typeof value === 'string' ? value : undefined);

/** The engine (with the data directory's sentence cache) and the render queue on `store`. */
async function openRenders(context: ProjectCommandContext, store: Store) {
  const { createEngine } = await import('../engine');
  const engine = await createEngine({ sentenceCache: sentenceCacheOption({ 'data-dir': context.dataDir }) });
  const renders = createProjectRenders({
    engine,
    store,
    events: createJobEvents(),
    filesDir: dataPaths(context.dataDir).files,
    instanceId: newInstanceId(),
    clock: systemClock,
    log: stderrLog,
    pollMs: 500,
    neuralVoice: (code: string, model: ModelId) => findNeuralVoice(context.dataDir, code, model),
    lexicon: (language) => readLexicon(context.dataDir, language),
    service: context.projects,
  });
  return { engine, renders };
}

/** Time left in words: "about 40 s left", "about 2 min left", "about 1 h 5 min left". */
export function aboutLeft(seconds: number): string {
  if (seconds < 60) return `about ${Math.max(1, Math.ceil(seconds))} s left`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min left`;
  return `about ${Math.floor(minutes / 60)} h ${minutes % 60} min left`;
}

/** An export's progress line while it masters and encodes: "encoding 42 %, about 2 min left". */
export function exportProgressLine(fraction: number, etaSeconds: number | null): string {
  const left = etaSeconds !== null && fraction < 1 ? `, ${aboutLeft(etaSeconds)}` : '';
  return `encoding ${Math.floor(fraction * 100)} %${left}`;
}

/** A callback that prints the line `lineOf` makes on stderr when it differs from the last one. */
function printChanged<A extends unknown[]>(lineOf: (...args: A) => string): (...args: A) => void {
  let last = '';
  return (...args) => {
    const line = lineOf(...args);
    if (line !== last) process.stderr.write(`${line}\n`);
    last = line;
  };
}

/** Prints a render's progress on stderr as it moves, until it settles. */
function showProgress(renders: ProjectRenders, store: Store, renderId: string): () => void {
  let last = '';
  const timer = setInterval(() => {
    store.projectRenders.get(renderId).then(
      (row) => {
        if (!row) return;
        const r = renders.record(row);
        const line = `${r.status} ${r.segments_done}/${r.segments_total} segments, ${Math.round(r.progress * 100)} %${r.eta_seconds !== null ? `, about ${Math.ceil(r.eta_seconds)} s left` : ''}`;
        if (line !== last) process.stderr.write(`${line}\n`);
        last = line;
      },
      () => undefined,
    );
  }, 500);
  return () => clearInterval(timer);
}

export const PROJECT_RENDER_SUBCOMMANDS: [string, ProjectSubcommand][] = [
  [
    'render',
    {
      options: { chapter: { type: 'string' } },
      positionals: 1,
      async run(context) {
        const { store, keyId, positionals, values } = context;
        const projectId = positionals[0]!;
        await context.projects.detail(keyId, projectId);
        const chapter = string(values.chapter);
        const { engine, renders } = await openRenders(context, store);
        try {
          // A render a killed run left behind goes on first (this process is the store's only user).
          await renders.start();
          const row = await renders.submit(projectId, keyId, chapter ? { chapterIds: [chapter] } : {});
          const stop = showProgress(renders, store, row.id);
          const open = await store.projectRenders.open(projectId);
          try {
            for (const earlier of open) if (earlier.id !== row.id) await renders.settled(earlier.id);
            const settled = await renders.settled(row.id);
            process.stdout.write(`${JSON.stringify(renders.record(settled), null, 2)}\n`);
            if (settled.status !== 'done') process.exitCode = 1;
          } finally {
            stop();
          }
        } finally {
          await renders.close();
          await engine.close();
        }
      },
    },
  ],
  [
    'export',
    {
      options: { format: { type: 'string' }, 'folder-format': { type: 'string' }, out: { type: 'string' } },
      positionals: 1,
      async run(context) {
        const { store, keyId, positionals, values } = context;
        const format = string(values.format) as BookFormat | undefined;
        if (!format || !BOOK_FORMATS.includes(format)) {
          throw new UsageError(`project export needs --format ${BOOK_FORMATS.join('|')}`);
        }
        const folderFormat = string(values['folder-format']) as FolderFormat | undefined;
        if (folderFormat !== undefined && (!FOLDER_FORMATS.includes(folderFormat) || format !== 'folder')) {
          throw new UsageError(
            `--folder-format must be ${FOLDER_FORMATS.join(' or ')}, with --format folder`,
          );
        }
        const out = string(values.out);
        if (!out) throw new UsageError('project export needs --out <path>');
        const projectId = positionals[0]!;
        await context.projects.detail(keyId, projectId);
        const outPath = resolve(out);
        await mkdir(format === 'folder' ? outPath : dirname(outPath), { recursive: true });
        const { engine, renders } = await openRenders(context, store);
        try {
          await renders.start();
          const exports = createProjectExports({
            engine,
            store,
            renders,
            filesDir: dataPaths(context.dataDir).files,
            clock: systemClock,
            log: stderrLog,
            markExported: (id, chapterIds) => context.projects.markExported(id, chapterIds),
          });
          const started = performance.now();
          const { result, renderId } = await exports.exportTo(projectId, keyId, {
            format,
            folderFormat,
            outPath,
            onStatus: (status) => process.stderr.write(`${status}…\n`),
            onProgress: printChanged((fraction, eta) => exportProgressLine(fraction, eta)),
          });
          process.stdout.write(
            `${JSON.stringify(
              {
                project_id: projectId,
                format,
                render_id: renderId,
                files: result.files.map((f) => f.path),
                report: result.reportPath,
                chapters: result.chapters.map((c) => ({
                  title: c.title,
                  start_ms: Math.round(c.startMs),
                  end_ms: Math.round(c.endMs),
                })),
                duration_ms: Math.round(result.durationMs),
                seconds: Math.round((performance.now() - started) / 100) / 10,
              },
              null,
              2,
            )}\n`,
          );
        } finally {
          await renders.close();
          await engine.close();
        }
      },
    },
  ],
];
