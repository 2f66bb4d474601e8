/**
 * `project render <id> [--chapter <cid>]` and `project export <id> --format m4b|mp3|folder --out
 * <path>`: a project's render through the same durable queue the server runs (so a render an
 * earlier run left unfinished, even killed, resumes first), waiting, with progress lines on stderr
 * and the outcome as JSON on stdout (the render, the resumed ones, and the segments that were
 * already done and rendered now, so a run after a kill tells what it finished); an export renders what is missing, then writes the book to
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
  project export <project id> --format ${BOOK_FORMATS.join('|')} [--folder-format ${FOLDER_FORMATS.join('|')}] --out <path>`;

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

/**
 * Prints on stderr the progress of the first of `renderIds` not settled yet (a render an earlier
 * run left, resumed, before this run's own), as it moves, until stopped.
 */
function showProgress(renders: ProjectRenders, store: Store, renderIds: readonly string[]): () => void {
  let last = '';
  const show = () => {
    (async () => {
      for (const [index, id] of renderIds.entries()) {
        const row = await store.projectRenders.get(id);
        if (!row) continue;
        const r = renders.record(row);
        const resumed = index < renderIds.length - 1;
        if (resumed && r.status !== 'queued' && r.status !== 'rendering') continue;
        const line = `${resumed ? 'resumed render: ' : ''}${r.status} ${r.segments_done}/${r.segments_total} segments, ${Math.round(r.progress * 100)} %${r.eta_seconds !== null ? `, about ${Math.ceil(r.eta_seconds)} s left` : ''}`;
        if (line !== last) process.stderr.write(`${line}\n`);
        last = line;
        return;
      }
    })().catch(() => undefined);
  };
  // At once (a resumed render shows before its first half second), then every 500 ms.
  show();
  const timer = setInterval(show, 500);
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
        const before = (await context.projects.detail(keyId, projectId)).project;
        const chapter = string(values.chapter);
        const { engine, renders } = await openRenders(context, store);
        try {
          // A render a killed run left behind goes on first (this process is the store's only user).
          const earlier = await store.projectRenders.open(projectId);
          await renders.start();
          const row = await renders.submit(projectId, keyId, chapter ? { chapterIds: [chapter] } : {});
          const stop = showProgress(renders, store, [...earlier.map((r) => r.id), row.id]);
          try {
            const resumed = [];
            for (const r of earlier) resumed.push(renders.record(await renders.settled(r.id)));
            const settled = await renders.settled(row.id);
            const after = (await context.projects.detail(keyId, projectId)).project;
            const summary = {
              // Segments with audio before this run (a killed run's included), and rendered by it.
              segments_already_done: before.segments_done,
              segments_rendered_now: after.segments_done - before.segments_done,
              segments_done: after.segments_done,
              segment_count: after.segment_count,
            };
            process.stdout.write(
              `${JSON.stringify({ ...renders.record(settled), resumed, ...summary }, null, 2)}\n`,
            );
            process.stderr.write(
              `${settled.status}: ${summary.segments_rendered_now} segments rendered now${resumed.length > 0 ? ` (resuming ${resumed.length === 1 ? 'a render' : `${resumed.length} renders`} an earlier run left)` : ''}, ${summary.segments_already_done} already done; ${summary.segments_done}/${summary.segment_count} segments of the project have audio\n`,
            );
            if (settled.status !== 'done' || resumed.some((r) => r.status !== 'done')) process.exitCode = 1;
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
                subtitles: result.subtitles ? [result.subtitles.srtPath, result.subtitles.vttPath] : [],
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
