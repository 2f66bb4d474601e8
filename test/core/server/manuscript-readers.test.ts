// test-tier: slow (hostile manuscripts and PDF bombs read over HTTP, each in a reader child process)
/**
 * Issue 36's attacks on the manuscript readers, over real HTTP on 127.0.0.1 against the real
 * core (on the fake engine: nothing is spoken): hostile files (nesting that was quadratic, a million tiny paragraphs, an entity
 * declaration after a comment) refused with the limit they pass; PDF bombs at once never read by
 * more than MANUSCRIPT_LIMITS.readers children, the server answering meanwhile; reads past the
 * queue refused with 429 and Retry-After; a read whose client hangs up dropped from the queue, or
 * its child killed (its pid gone), on both routes that read a manuscript.
 */

import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manuscriptReaderLoad } from '../../../electron/core/manuscripts';
import { MANUSCRIPT_LIMITS } from '../../../electron/shared/manuscript';
import {
  VIETNAMESE_BOOK,
  billionLaughs,
  epub3Files,
  tinyParagraphs,
  writeDeepDocx,
  writeDeepOdt,
  writeNestedInlineHtml,
  zipEpub,
} from '../../fixtures/manuscripts';
import { writeFlateBombPdf, writeSlowPdf } from '../../fixtures/pdf-files';
import { isRunning, readerChildren, watchReaderChildren } from '../../fixtures/reader-children';
import { eventually, startFakeEngineCore, type TestCore } from './helpers';

let t: TestCore;
beforeAll(async () => {
  t = await startFakeEngineCore();
});
afterAll(async () => {
  await t?.close();
});

const READ = '/api/v1/manuscripts/read';
const IMPORT = '/api/v1/projects/import';

const read = (fileName: string, bytes: Uint8Array | string, route = READ) =>
  t.call('POST', `${route}?file_name=${encodeURIComponent(fileName)}`, {
    raw: typeof bytes === 'string' ? bytes : Buffer.from(bytes),
    headers: { 'content-type': 'application/octet-stream' },
  });

interface Answer {
  status: number;
  errorCode: string | undefined;
  message: string | undefined;
  /** When it came, by the order answers and other events came in. */
  at: number;
}

let events = 0;

/** A read in flight (of `key`, by default the test's) that the test can hang up on (the client goes away mid-read). */
function startRead(fileName: string, bytes: Uint8Array, route = READ, key = t.key) {
  const controller = new AbortController();
  const answer = request(`${t.core.url}${route}?file_name=${encodeURIComponent(fileName)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/octet-stream' },
    body: Buffer.from(bytes),
    signal: controller.signal,
  }).then(
    async (response): Promise<Answer | 'hung up'> => {
      const body = (await response.body.json()) as { error_code?: string; error_message?: string };
      return {
        status: response.statusCode,
        errorCode: body.error_code,
        message: body.error_message,
        at: ++events,
      };
    },
    () => 'hung up' as const,
  );
  return { answer, hangUp: () => controller.abort() };
}

const waitFor = (condition: () => boolean, timeoutMs?: number) =>
  eventually(() => (condition() ? true : undefined), timeoutMs);

describe('hostile manuscripts are refused at their limit, fast', () => {
  it('refuses the small DOCX nesting 50,000 elements (minutes of saxes before), naming the part and the limit', async () => {
    const docx = writeDeepDocx(50_000);
    expect(docx.length).toBeLessThan(2048);
    const res = await read('deep.docx', docx);
    expect(res.status, res.text).toBe(413);
    expect(res.json.error_code).toBe('MANUSCRIPT_TOO_LARGE');
    expect(res.json.error_message).toBe(
      `"deep.docx" is too large: word/document.xml nests elements more than ${MANUSCRIPT_LIMITS.nestingDepth} deep (the limit is ${MANUSCRIPT_LIMITS.nestingDepth} elements deep).`,
    );
  });

  it('refuses the small ODT nesting 50,000 spans, and imports no project from either', async () => {
    const res = await read('deep.odt', writeDeepOdt(50_000));
    expect(res.status, res.text).toBe(413);
    expect(res.json.error_message).toMatch(
      /^"deep\.odt" is too large: content\.xml nests elements more than 256 deep/,
    );

    const imported = await read('deep.docx', writeDeepDocx(50_000), IMPORT);
    expect(imported.status, imported.text).toBe(413);
    expect(imported.json.error_message).toContain('nests elements more than 256 deep');
  });

  it('refuses nested HTML (70 s and 1.5 GB for 16 MB before) by its depth or by the elements it makes', async () => {
    const depth = MANUSCRIPT_LIMITS.nestingDepth;
    const deep = await read('deep.html', `${'<div>'.repeat(1_000_000)}sâu`);
    expect(deep.status, deep.text).toBe(413);
    expect(deep.json.error_message).toBe(
      `"deep.html" is too large: it nests elements more than ${depth} deep (the limit is ${depth} elements deep).`,
    );
    // Each paragraph reopens the formatting elements left open before it: parse5 makes ever more.
    const elements = MANUSCRIPT_LIMITS.htmlElements.toLocaleString('en-US');
    const inline = await read('inline.html', writeNestedInlineHtml(100_000));
    expect(inline.status, inline.text).toBe(413);
    expect(inline.json.error_message).toBe(
      `"inline.html" is too large: it holds more than ${elements} elements (the limit is ${elements} elements a document).`,
    );
  });

  it('refuses a million tiny paragraphs, as text and as Markdown, by the paragraph limit', async () => {
    const limit = MANUSCRIPT_LIMITS.paragraphs.toLocaleString('en-US');
    for (const fileName of ['tiny.txt', 'tiny.md']) {
      const res = await read(fileName, tinyParagraphs(1_000_000));
      expect(res.status, res.text.slice(0, 200)).toBe(413);
      expect(res.json.error_code).toBe('MANUSCRIPT_TOO_LARGE');
      expect(res.json.error_message).toBe(
        `"${fileName}" is too large: it holds more than ${limit} paragraphs (the limit is ${limit} paragraphs).`,
      );
    }
    const imported = await read('tiny.md', tinyParagraphs(1_000_000), IMPORT);
    expect(imported.status, imported.text.slice(0, 200)).toBe(413);
  });

  it('refuses an EPUB whose entity declarations follow a comment the strict parser stops at', async () => {
    const files = epub3Files(VIETNAMESE_BOOK);
    const opf = (files['OEBPS/content.opf'] as string)
      .replace(/^<\?xml[^>]*>\n/, '')
      .replace('<dc:title>', '<dc:title>LOL');
    // `--` inside a comment is not XML: saxes stopped there, and the guard with it.
    files['OEBPS/content.opf'] = billionLaughs(opf).replace('<!DOCTYPE', '<!-- a -- b -->\n<!DOCTYPE');
    const res = await read('lol.epub', zipEpub(files));
    expect(res.status, res.text).toBe(422);
    expect(res.json.error_code).toBe('MANUSCRIPT_INVALID');
    expect(res.json.error_message).toBe(
      '"lol.epub" cannot be read as EPUB: OEBPS/content.opf declares entities in a DOCTYPE (refused: entity expansion such as "billion laughs").',
    );
  });
});

describe('reading off the HTTP thread, a few at a time', () => {
  it('reads six PDF bombs at most two at a time, each stopped at its memory cap, answering health meanwhile', async () => {
    const watch = watchReaderChildren();
    const bomb = writeFlateBombPdf();
    // From two keys: one key has at most MANUSCRIPT_LIMITS.readerQueuePerKey reads waiting.
    const keys = [t.key, await t.newKey()];
    const reads = Array.from({ length: 6 }, (_, i) => startRead(`bomb-${i}.pdf`, bomb, READ, keys[i % 2]));
    await waitFor(() => readerChildren().length > 0);
    const health = await t.call('GET', '/api/v1/health', { key: null });
    const healthAt = ++events;
    expect(health.status).toBe(200);
    const answers = await Promise.all(reads.map((r) => r.answer));
    watch.stop();
    const mib = MANUSCRIPT_LIMITS.readerMaxRssBytes / 1024 / 1024;
    for (const [i, answer] of answers.entries()) {
      expect(answer).toMatchObject({ status: 413, errorCode: 'MANUSCRIPT_TOO_LARGE' });
      expect((answer as Answer).message).toContain(`"bomb-${i}.pdf" needs more than ${mib} MiB of memory`);
    }
    // The event loop was free: health answered while bombs were still being read.
    expect(healthAt).toBeLessThan(Math.max(...answers.map((a) => (a as Answer).at)));
    expect(watch.most).toBe(MANUSCRIPT_LIMITS.readers);
    expect(watch.seen.size).toBe(6);
  }, 120_000);

  it('queues reads past the readers, refuses one past the queue with 429, and drops those whose client left', async () => {
    const slow = writeSlowPdf();
    const watch = watchReaderChildren();
    const running = Array.from({ length: MANUSCRIPT_LIMITS.readers }, (_, i) =>
      startRead(`slow-${i}.pdf`, slow),
    );
    await waitFor(() => readerChildren().length === MANUSCRIPT_LIMITS.readers);
    const pids = readerChildren();
    // A key has at most MANUSCRIPT_LIMITS.readerQueuePerKey places in the queue: three keys fill it.
    const keys = [t.key, await t.newKey(), await t.newKey()];
    const waiting = Array.from({ length: MANUSCRIPT_LIMITS.readerQueue }, (_, i) =>
      startRead(`waiting-${i}.pdf`, slow, READ, keys[i % keys.length]),
    );
    await waitFor(() => manuscriptReaderLoad().waiting === MANUSCRIPT_LIMITS.readerQueue);

    // Both readers busy with reads that would last minutes: the server still answers at once.
    const health = await t.call('GET', '/api/v1/health', { key: null });
    expect(health.status).toBe(200);
    expect(pids.every(isRunning)).toBe(true);

    // A fourth key, with no read of its own waiting, is refused too: the queue is full.
    const refused = await t.call('POST', `${READ}?file_name=one-more.pdf`, {
      raw: Buffer.from(slow),
      headers: { 'content-type': 'application/octet-stream' },
      key: await t.newKey(),
    });
    expect(refused.status, refused.text).toBe(429);
    expect(refused.json.error_code).toBe('TOO_MANY_REQUESTS');
    expect(refused.json.error_message).toBe(
      `"one-more.pdf" cannot be read now: ${MANUSCRIPT_LIMITS.readers} files are being read and ${MANUSCRIPT_LIMITS.readerQueue} wait, the most the server takes; try again in 5 s.`,
    );
    expect(refused.headers['retry-after']).toBe('5');

    // The waiting reads' clients hang up: they leave the queue, and none of them ever starts.
    for (const r of waiting) r.hangUp();
    await waitFor(() => manuscriptReaderLoad().waiting === 0);
    expect(readerChildren().sort()).toEqual([...pids].sort());

    // The running reads' clients hang up: their children are killed, long before their time limit.
    for (const r of running) r.hangUp();
    await waitFor(() => pids.every((pid) => !isRunning(pid)), MANUSCRIPT_LIMITS.readerTimeoutMs / 3);
    await waitFor(() => manuscriptReaderLoad().running === 0);
    watch.stop();
    expect(watch.most).toBe(MANUSCRIPT_LIMITS.readers);
    expect([...watch.seen].sort()).toEqual([...pids].sort());
    for (const r of [...running, ...waiting]) expect(await r.answer).toBe('hung up');
  }, 120_000);

  it.each([
    ['reading a manuscript', READ],
    ['importing a project', IMPORT],
  ])(
    'kills the reader child when the client hangs up while %s',
    async (_what, route) => {
      const slow = startRead('slow.pdf', writeSlowPdf(), route);
      await waitFor(() => readerChildren().length === 1);
      const [pid] = readerChildren();
      slow.hangUp();
      await waitFor(() => !isRunning(pid!), MANUSCRIPT_LIMITS.readerTimeoutMs / 3);
      expect(await slow.answer).toBe('hung up');
      await waitFor(() => manuscriptReaderLoad().running === 0);
      // The server reads on as before.
      const next = await read('after.txt', 'Một đoạn sau.\n');
      expect(next.status, next.text).toBe(200);
    },
    60_000,
  );
});
