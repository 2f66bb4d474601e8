// test-tier: slow (archives of 50,000 segments and slow PDFs read over HTTP, each in a child process)
/**
 * Issue 36's attacks on project archive imports and on the readers' queue, over real HTTP on
 * 127.0.0.1 against the real core (the fake engine, real SQLite, zips written by fflate, PDFs by pdfkit): an
 * archive's project.json is read, checked and unpacked in a child process (the server answers
 * meanwhile), nested JSON is refused before it is parsed, a client that hangs up has the child
 * killed and its staging folder removed, and one key filling the readers' queue leaves another
 * key's read accepted and served first.
 */

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manuscriptReaderLoad } from '../../../electron/core/manuscripts';
import { MANUSCRIPT_LIMITS } from '../../../electron/shared/manuscript';
import { archiveOf, largestArchiveJson, nestedArchiveJson } from '../../fixtures/project-archives';
import { writeSlowPdf } from '../../fixtures/pdf-files';
import { isRunning, readerChildren } from '../../fixtures/reader-children';
import { eventually, startFakeEngineCore, type TestCore } from './helpers';

let t: TestCore;
/** An archive of a project of 50,000 segments: seconds to parse and check, well within the limits. */
let large: Buffer;
beforeAll(async () => {
  t = await startFakeEngineCore({ authThrottle: { baseDelayMs: 0 } });
  large = archiveOf(largestArchiveJson({ segments: 50_000 }));
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const ARCHIVE = '/api/v1/projects/import-archive';
const READ = '/api/v1/manuscripts/read';
const archiveChildren = () => readerChildren(['project-archive-child']);
const stagingDir = () => join(t.dir, 'audio', 'project-uploads');
const waitFor = (condition: () => boolean, timeoutMs?: number) =>
  eventually(() => (condition() ? true : undefined), timeoutMs);

interface Answer {
  status: number;
  errorCode: string | undefined;
  message: string | undefined;
  projectId: string | undefined;
  /** When it came, by the order answers and other events came in. */
  at: number;
}

let events = 0;

/** A request in flight (of `key`) that the test can hang up on. */
function start(route: string, fileName: string, bytes: Uint8Array, key = t.key) {
  const controller = new AbortController();
  const answer = request(`${t.core.url}${route}?file_name=${encodeURIComponent(fileName)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/octet-stream' },
    body: Buffer.from(bytes),
    signal: controller.signal,
  }).then(
    async (response): Promise<Answer | 'hung up'> => {
      const body = (await response.body.json()) as {
        error_code?: string;
        error_message?: string;
        result?: { project: { id: string } };
      };
      return {
        status: response.statusCode,
        errorCode: body.error_code,
        message: body.error_message,
        projectId: body.result?.project.id,
        at: ++events,
      };
    },
    () => 'hung up' as const,
  );
  return { answer, hangUp: () => controller.abort() };
}

/** Health, answered now; its place among the answers. */
async function health(): Promise<number> {
  const res = await t.call('GET', '/api/v1/health');
  expect(res.status, res.text).toBe(200);
  return ++events;
}

describe('project archives read off the HTTP thread (issue 36, point 1)', () => {
  it('imports a project of 50,000 segments read in a child process, the server answering meanwhile', async () => {
    const imported = start(ARCHIVE, 'large.narration.zip', large);
    await waitFor(() => archiveChildren().length === 1);
    const healthAt = await health();
    const answer = (await imported.answer) as Answer;
    expect(answer.status, answer.message).toBe(201);
    expect(healthAt).toBeLessThan(answer.at);
    const detail = await t.call('GET', `/api/v1/projects/${answer.projectId}`);
    expect(detail.json.result.project.segment_count).toBe(50_000);
    expect((await t.call('DELETE', `/api/v1/projects/${answer.projectId}`)).status).toBe(200);
    await waitFor(() => archiveChildren().length === 0);
    expect(readdirSync(stagingDir())).toEqual([]);
  }, 120_000);

  it('refuses project.json nesting 5,000,000 arrays (10 MB: seconds and 370 MB parsed) before parsing it', async () => {
    // Stored, not deflated: an archive unpacks to at most 50 times its size.
    const zip = archiveOf(nestedArchiveJson(5_000_000), 0);
    const imported = start(ARCHIVE, 'nested.narration.zip', zip);
    await waitFor(() => archiveChildren().length === 1);
    const healthAt = await health();
    const answer = (await imported.answer) as Answer;
    expect(answer).toMatchObject({ status: 422, errorCode: 'MANUSCRIPT_INVALID' });
    expect(answer.message).toBe(
      '"nested.narration.zip" is not a project archive we can import: project.json nests values more than 8 deep.',
    );
    expect(healthAt).toBeLessThan(answer.at);
  }, 60_000);

  it('kills the child and removes its staging folder when the client hangs up mid-import', async () => {
    const before = (await t.call('GET', '/api/v1/projects')).json.result.items.length;
    const imported = start(ARCHIVE, 'gone.narration.zip', large);
    await waitFor(() => archiveChildren().length === 1);
    const [pid] = archiveChildren();
    // The upload and the child's staging folder are there while it reads.
    expect(readdirSync(stagingDir()).some((name) => name.startsWith('archive-'))).toBe(true);
    imported.hangUp();
    expect(await imported.answer).toBe('hung up');
    await waitFor(() => !isRunning(pid!));
    await waitFor(() => readdirSync(stagingDir()).length === 0);
    await waitFor(() => manuscriptReaderLoad().running === 0);
    expect((await t.call('GET', '/api/v1/projects')).json.result.items.length).toBe(before);
    const projects = join(t.dir, 'audio', 'projects');
    expect(existsSync(projects) ? readdirSync(projects) : []).toEqual([]);
  }, 60_000);
});

describe("the readers' queue is fair between keys (issue 36, point 8)", () => {
  it("refuses a key past its places in the queue, and serves another key's archive before it", async () => {
    const slow = writeSlowPdf();
    const greedy = await t.newKey();
    const running = Array.from({ length: MANUSCRIPT_LIMITS.readers }, (_, i) =>
      start(READ, `slow-${i}.pdf`, slow, greedy),
    );
    await waitFor(() => readerChildren().length === MANUSCRIPT_LIMITS.readers);
    const waiting = Array.from({ length: MANUSCRIPT_LIMITS.readerQueuePerKey }, (_, i) =>
      start(READ, `waiting-${i}.pdf`, slow, greedy),
    );
    await waitFor(() => manuscriptReaderLoad().waiting === MANUSCRIPT_LIMITS.readerQueuePerKey);

    // The greedy key's next read is refused at once; the queue has room for the others.
    const refused = (await start(READ, 'one-more.pdf', slow, greedy).answer) as Answer;
    expect(refused).toMatchObject({ status: 429, errorCode: 'TOO_MANY_REQUESTS' });
    expect(refused.message).toBe(
      `"one-more.pdf" cannot be read now: this key already has ${MANUSCRIPT_LIMITS.readerQueuePerKey} files waiting to be read, the most one key may have waiting; try again in 5 s.`,
    );

    // Another key's archive import is taken: it waits for a reader, after the greedy key's reads.
    const other = start(ARCHIVE, 'other.narration.zip', archiveOf(largestArchiveJson({ segments: 200 })));
    await waitFor(() => manuscriptReaderLoad().waiting === MANUSCRIPT_LIMITS.readerQueuePerKey + 1);
    // A reader frees: it goes to the other key, which runs none, ahead of the greedy key's waiting reads.
    running[0]!.hangUp();
    const served = (await other.answer) as Answer;
    expect(served.status, served.message).toBe(201);
    expect(manuscriptReaderLoad().waiting).toBe(MANUSCRIPT_LIMITS.readerQueuePerKey - 1);

    for (const r of [...running, ...waiting]) r.hangUp();
    await waitFor(() => manuscriptReaderLoad().running === 0 && manuscriptReaderLoad().waiting === 0);
    await waitFor(() => readerChildren().length === 0);
    await t.call('DELETE', `/api/v1/projects/${served.projectId}`);
  }, 120_000);
});
