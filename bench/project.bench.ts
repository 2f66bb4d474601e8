/**
 * `npm run bench:project`: a 100,000-character book (a DOCX of 20 chapters of varied English
 * prose, every sentence different so the sentence cache cannot flatter the first render) through
 * a book project: import, full render (eSpeak NG, the sentence cache on), M4B export (ACX), and
 * the re-render after editing one paragraph (goal: at most 5 % of the full render). Prints figures.
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../electron/core/engine/create-engine';
import { createJobEvents } from '../electron/core/jobs/events';
import { createApiKey } from '../electron/core/jobs/keys';
import { readManuscript } from '../electron/core/manuscripts';
import { systemClock } from '../electron/core/platform/clock';
import { silentLog } from '../electron/core/platform/log';
import { createProjectExports } from '../electron/core/projects/project-export';
import { createProjectRenders } from '../electron/core/projects/project-renders';
import { createProjectService } from '../electron/core/projects/project-service';
import { openStore } from '../electron/core/store';
import { writeDocx, type BookDescription } from '../test/fixtures/manuscripts';
import { pick, random } from '../test/fixtures/random';

const CHARACTERS = 100_000;
const rand = random(25);
const subjects = [
  'The keeper',
  'Anna',
  'The old fisherman',
  'A gull',
  'The wind',
  'Her brother',
  'The lamp',
  'Nobody in the village',
];
const verbs = ['watched', 'remembered', 'carried', 'followed', 'answered', 'measured', 'forgot', 'painted'];
const objects = [
  'the grey harbour',
  'a letter from the mainland',
  'the broken oar',
  'every step of the tower',
  'the last boat',
  'the smell of rain',
  'a song about winter',
  'the narrow road',
];
const tails = [
  'before dawn',
  'without a word',
  'as the tide turned',
  'for the third time that week',
  'while the bells rang',
  'until the light came back',
];
const sentence = () =>
  `${pick(rand, subjects)} ${pick(rand, verbs)} ${pick(rand, objects)} ${pick(rand, tails)}, and ${pick(rand, subjects).toLowerCase()} ${pick(rand, verbs)} ${pick(rand, objects)} ${Math.floor(rand() * 1000)} times.`;
const paragraph = () => Array.from({ length: 4 }, sentence).join(' ');

const chapters: BookDescription['chapters'] = [];
let total = 0;
for (let c = 0; total < CHARACTERS; c++) {
  const paragraphs: string[] = [];
  for (let p = 0; p < 10 && total < CHARACTERS; p++) {
    const text = paragraph();
    paragraphs.push(text);
    total += text.length;
  }
  chapters.push({ title: `Chapter ${c + 1}`, paragraphs });
}

const dir = await mkdtemp(join(tmpdir(), 'bench-project-'));
const store = await openStore({ path: join(dir, 'studio.db') });
const engine = await createEngine({
  sentenceCache: { dir: join(dir, 'cache'), maxBytes: 1024 * 1024 * 1024 },
});
try {
  const { row: key } = await createApiKey(store, systemClock, {});
  const service = createProjectService({ store, filesDir: join(dir, 'files') });
  const docx = join(dir, 'book.docx');
  await writeFile(
    docx,
    await writeDocx({ title: 'The Lighthouse', author: 'A. Keeper', language: 'en', chapters }),
  );

  let t = performance.now();
  const manuscript = await readManuscript({ fileName: 'book.docx', path: docx });
  const detail = await service.createFromManuscript(key.id, manuscript, {
    voice_code: 'en_male_onyx_default',
  });
  const importMs = performance.now() - t;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`import (DOCX → project): ${seconds(importMs)}`);
  const projectId = detail.project.id;
  const segments = detail.chapters.reduce((n, c) => n + c.segment_count, 0);

  const renders = createProjectRenders({
    engine,
    store,
    events: createJobEvents(),
    filesDir: join(dir, 'files'),
    instanceId: 'bench',
    clock: systemClock,
    log: silentLog,
    pollMs: 100,
    service,
  });
  await renders.start();
  t = performance.now();
  const full = await renders.settled((await renders.submit(projectId, key.id, {})).id);
  const renderMs = performance.now() - t;
  if (full.status !== 'done') throw new Error(`render ${full.status}: ${full.error_message}`);
  console.log(`book: ${total} characters, ${chapters.length} chapters, ${segments} segments`);
  console.log(
    `full render: ${seconds(renderMs)} (${Math.round(total / (renderMs / 1000))} characters/s, ${engine.poolSize} workers)`,
  );

  const target = (await store.projects.segments(projectId))[Math.floor(segments / 2)]!;
  await service.editSegment(key.id, projectId, target.id, {
    text: `${target.text} The keeper smiled at last.`,
  });
  t = performance.now();
  const again = await renders.settled((await renders.submit(projectId, key.id, {})).id);
  const rerenderMs = performance.now() - t;
  console.log(
    `re-render after editing one paragraph: ${seconds(rerenderMs)} (${again.segments_total} segment) = ${((rerenderMs / renderMs) * 100).toFixed(2)} % of the full render (goal ≤ 5 %)`,
  );
  const exports = createProjectExports({
    engine,
    store,
    renders,
    filesDir: join(dir, 'files'),
    clock: systemClock,
    log: silentLog,
  });
  t = performance.now();
  const { result } = await exports.exportTo(projectId, key.id, {
    format: 'm4b',
    outPath: join(dir, 'The Lighthouse.m4b'),
  });
  const exportMs = performance.now() - t;

  await renders.close();

  console.log(`export M4B (ACX): ${seconds(exportMs)}; audio ${(result.durationMs / 60000).toFixed(1)} min`);
} finally {
  await engine.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
}
