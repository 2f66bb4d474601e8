/**
 * Rendering a book project with the real engine on a real SQLite file: every segment done with a
 * WAV ffprobe decodes and its word timings; a re-render after one edit renders exactly that one
 * (the other files untouched); pause and resume; cancel refunds what it did not render; the charge
 * equals the API's price for the same characters; regenerate with another voice.
 */

import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createJobEvents, type JobEventMap } from '../../../electron/core/jobs/events';
import type { ProjectRenders } from '../../../electron/core/projects/project-renders';
import { segmentInput } from '../../../electron/core/projects/segment-render';
import type { SegmentRow, Store } from '../../../electron/core/store';
import { costMilli } from '../../../electron/shared/pricing';
import { findVoice } from '../../../electron/shared/voices';
import { startEngine, type EngineFixture } from '../../fixtures/engine';
import { probeAudio } from '../../fixtures/ffprobe';
import { openTestStore, type TestStore } from '../../fixtures/test-store';
import { createTestProject, startTestRenders, type TestProject } from '../../fixtures/test-project';

let fixture: EngineFixture;
let db: TestStore;
let store: Store;
let renders: ProjectRenders;
let project: TestProject;
const projectEvents: JobEventMap['project'][0][] = [];

beforeAll(async () => {
  fixture = await startEngine(2);
});
afterAll(() => fixture?.close());

beforeEach(async () => {
  db = await openTestStore();
  store = db.store;
  project = await createTestProject(store);
  const events = createJobEvents();
  events.on('project', (e) => projectEvents.push(e));
  renders = await startTestRenders({ engine: fixture.engine, store, events, dir: db.dir });
});
afterEach(async () => {
  await renders.close();
  await db.close();
  projectEvents.length = 0;
});

const audioDir = () => join(db.dir, 'files', 'projects', project.projectId);
const balance = async () => (await store.keys.findById(project.keyId))!.balance_milli;
const segmentsOf = async () => store.projects.segments(project.projectId);

/** What the API would charge for these segments (speaker's voice, per character). */
function apiPrice(segments: readonly SegmentRow[]): number {
  return segments.reduce((n, s) => {
    const speaker = project.characters.find((c) => c.id === s.speaker) ?? project.characters[0]!;
    return n + costMilli(Array.from(s.text).length, findVoice(speaker.voice_code)!, 'std-v1.6');
  }, 0);
}

describe('project renders', () => {
  it('builds SSML for quotes voiced by another character, plain text otherwise', () => {
    const cast = new Map(project.characters.map((c) => [c.id, c]));
    const narrator = project.characters[0]!;
    const quoted = segmentInput({ segment: project.segments[1]!, cast, narrator, model_id: 'std-v1.6' });
    expect(quoted.ssml).toBe(true);
    expect(quoted.text).toMatch(
      /^<speak><voice name="en_female_emily_us"><prosody rate="110%" pitch="110%" volume="100%">“Will the ships come home tonight\?”<\/prosody><\/voice> asked Anna/,
    );
    const plain = segmentInput({ segment: project.segments[0]!, cast, narrator, model_id: 'std-v1.6' });
    expect(plain).toMatchObject({
      ssml: false,
      text: project.segments[0]!.text,
      voice_code: 'en_male_onyx_default',
    });
    const vi = segmentInput({ segment: project.segments[5]!, cast, narrator, model_id: 'std-v1.6' });
    expect(vi).toMatchObject({ ssml: false, voice_code: 'vi_male_lehoang_mb' });
  });

  it('renders the whole book: every segment done, WAVs that decode, word timings, the API price charged', async () => {
    const before = await balance();
    const row = await renders.submit(project.projectId, project.keyId, {});
    expect(row.segments_total).toBe(7);
    expect(before - (await balance())).toBe(apiPrice(project.segments));
    const done = await renders.settled(row.id);
    expect(done.status).toBe('done');
    const record = renders.record(done);
    expect(record).toMatchObject({ progress: 1, segments_done: 7, cost: apiPrice(project.segments) / 1000 });
    expect(record.chapters.map((c) => c.progress)).toEqual([1, 1, 1]);
    expect(await balance()).toBe(before - apiPrice(project.segments));
    for (const s of await segmentsOf()) {
      expect(s.state).toBe('done');
      const wav = join(audioDir(), `${s.audio_key}.wav`);
      const probed = await probeAudio(wav);
      expect(probed.errors).toBe('');
      expect(Math.abs(probed.durationMs - s.duration_ms!)).toBeLessThan(5);
      const timings = JSON.parse(await readFile(join(audioDir(), `${s.audio_key}.json`), 'utf8')) as {
        text?: string;
      }[];
      expect(timings.filter((t) => t.text).length).toBeGreaterThan(5);
      expect(s.checks).toBeNull();
    }
    expect(projectEvents.some((e) => e.render?.status === 'done')).toBe(true);
    expect(projectEvents.some((e) => e.segments.some((x) => x.state === 'rendering'))).toBe(true);
  }, 120_000);

  it('tells a render of more than 500 segments without listing them: the event stays small (issue 36)', async () => {
    const chapter = project.chapters[0]!;
    const extra = Array.from({ length: 600 }, (_, i) => ({
      ...project.segments[0]!,
      id: `extra${String(i).padStart(27, '0')}`,
      position: 100 + i,
      text: `Line ${i} of a long chapter.`,
      chapter_id: chapter.id,
    }));
    await store.transaction(async (tx) => tx.projects.putSegments(extra));
    const row = await renders.submit(project.projectId, project.keyId, { chapterIds: [chapter.id] });
    // Cancelled at once, even when asked while the worker's claim of it is still settling (it
    // was left "rendering" then, until twice the lease had gone by).
    expect((await renders.cancel(row.id)).status).toBe('cancelled');
    expect(row.segments_total).toBeGreaterThan(600);
    // Every event of the render, the one that queued its segments included, stays small. (Which
    // comes first, the submit's or the worker's "begun" (no segments), depends on how soon the
    // worker claims it: the check holds for both.)
    const events = projectEvents.filter((e) => e.render?.id === row.id);
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      expect(event.segments.length).toBeLessThanOrEqual(1);
      expect(JSON.stringify(event).length).toBeLessThan(4096);
    }
    // A render of a few segments still lists them, as queued. (The last one: the cancelled
    // render may have rendered the chapter's first ones before its cancel.)
    const last = extra.at(-1)!;
    const few = await renders.submit(project.projectId, project.keyId, { segmentIds: [last.id] });
    expect(few.segments_total).toBe(1);
    await renders.cancel(few.id);
    const listed = projectEvents.filter((e) => e.render?.id === few.id).map((e) => e.segments);
    expect(listed).toContainEqual([{ id: last.id, state: 'queued' }]);
  }, 60_000);

  it("keeps an edit made while its segment renders: the old words' audio is not marked done", async () => {
    await renders.close();
    const target = project.segments[0]!;
    let release!: () => void;
    const edited = new Promise<void>((resolve) => (release = resolve));
    // The real engine, with the render of the target's words held until the edit is stored.
    const holding = {
      ...fixture.engine,
      render: async (request: Parameters<typeof fixture.engine.render>[0]) => {
        const result = await fixture.engine.render(request);
        if (request.text.includes(target.text.slice(0, 20))) await edited;
        return result;
      },
    };
    renders = await startTestRenders({ engine: holding, store, dir: db.dir });
    const row = await renders.submit(project.projectId, project.keyId, {});
    for (let i = 0; i < 200 && (await store.projects.getSegment(target.id))!.state !== 'rendering'; i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
    const now = (await store.projects.getSegment(target.id))!;
    expect(now.state).toBe('rendering');
    // What the project service writes for an edit of a segment without audio yet.
    await store.projects.putSegments([
      { ...now, text: `${now.text} And then the tide turned.`, state: 'not_rendered' },
    ]);
    release();
    const done = await renders.settled(row.id);
    expect(done.status).toBe('done');
    const after = (await store.projects.getSegment(target.id))!;
    expect(after.text).toMatch(/the tide turned\.$/);
    expect(after.state).toBe('not_rendered');
    expect(after.audio_key).toBeNull();
    const others = (await segmentsOf()).filter((s) => s.id !== target.id);
    expect(others.every((s) => s.state === 'done')).toBe(true);
  }, 60_000);

  it('re-renders exactly the segment that was edited; the others stay bit for bit', async () => {
    await renders.settled((await renders.submit(project.projectId, project.keyId, {})).id);
    const files = await readdir(audioDir());
    const before = new Map<string, number>();
    for (const f of files) before.set(f, (await stat(join(audioDir(), f))).mtimeMs);
    const edited = (await segmentsOf()).find((s) => s.id === project.segments[3]!.id)!;
    await store.projects.putSegments([
      { ...edited, text: 'By midnight the storm had passed, and the sea lay quiet.', state: 'changed' },
    ]);
    const again = await renders.submit(project.projectId, project.keyId, {});
    expect(again.segments_total).toBe(1);
    expect((await renders.settled(again.id)).status).toBe('done');
    const after = await readdir(audioDir());
    expect(after.length).toBe(files.length + 2);
    for (const [f, mtime] of before) expect((await stat(join(audioDir(), f))).mtimeMs).toBe(mtime);
    const segs = await segmentsOf();
    expect(segs.every((s) => s.state === 'done')).toBe(true);
    expect(segs.find((s) => s.id === edited.id)!.audio_key).not.toBe(edited.audio_key);
    // Nothing changed: a render has nothing to do and costs nothing.
    const idle = await renders.submit(project.projectId, project.keyId, {});
    expect(idle).toMatchObject({ status: 'done', segments_total: 0, cost_milli: 0 });
  }, 120_000);

  it('pauses and resumes', async () => {
    const row = await renders.submit(project.projectId, project.keyId, {});
    const paused = await renders.pause(row.id);
    expect(paused.status).toBe('paused');
    const midway = await segmentsOf();
    expect(midway.some((s) => s.state === 'queued')).toBe(true);
    expect(midway.some((s) => s.state === 'rendering')).toBe(false);
    // The worker passes it by: another key's render submitted after it runs to its end meanwhile.
    const other = await createTestProject(store, { projectId: 'b'.repeat(32) });
    const next = await renders.submit(other.projectId, other.keyId, { segmentIds: [other.segments[0]!.id] });
    expect((await renders.settled(next.id)).status).toBe('done');
    expect((await renders.get(row.id))!.status).toBe('paused');
    // Queued, or already claimed again by the time its row is read back.
    expect(['queued', 'rendering']).toContain((await renders.resume(row.id)).status);
    expect((await renders.settled(row.id)).status).toBe('done');
    expect((await segmentsOf()).every((s) => s.state === 'done')).toBe(true);
  }, 120_000);

  it('pauses a render caught between its claim and its start (CI saw "rendering" answered)', async () => {
    // The claim's commit is held open: the row says rendering, the instance has not begun it yet.
    const claim = store.projectRenders.claim.bind(store.projectRenders);
    let committed!: () => void;
    const claimed = new Promise<void>((resolve) => (committed = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    store.projectRenders.claim = async (...args) => {
      const row = await claim(...args);
      committed();
      await held;
      return row;
    };
    const row = await renders.submit(project.projectId, project.keyId, {});
    await claimed;
    expect((await store.projectRenders.get(row.id))!.status).toBe('rendering');
    const pausing = renders.pause(row.id);
    // Longer than any guess of how long a claim takes to begin.
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    expect((await pausing).status).toBe('paused');
    expect((await segmentsOf()).some((s) => s.state === 'rendering')).toBe(false);
    // Queued, or already claimed again by the time its row is read back.
    expect(['queued', 'rendering']).toContain((await renders.resume(row.id)).status);
    expect((await renders.settled(row.id)).status).toBe('done');
  }, 120_000);

  it('cancel refunds what it did not render and releases the segments', async () => {
    const before = await balance();
    const row = await renders.submit(project.projectId, project.keyId, {});
    const cancelled = await renders.cancel(row.id);
    expect(cancelled.status).toBe('cancelled');
    const segs = await segmentsOf();
    const rendered = segs.filter((s) => s.state === 'done');
    expect(rendered.length).toBeLessThan(7);
    expect(segs.filter((s) => s.state !== 'done').every((s) => s.state === 'not_rendered')).toBe(true);
    expect(before - (await balance())).toBe(apiPrice(rendered));
    const ledger = await store.ledger.forRequest(row.id);
    expect(ledger.map((l) => l.kind)).toEqual(['charge', 'refund']);
  }, 120_000);

  it('regenerates one segment with another voice: a character with that voice speaks it, charged', async () => {
    const before = await balance();
    const seg = await renders.regenerate(project.projectId, project.segments[0]!.id, project.keyId, {
      voice_code: 'en_female_nova_default',
      speed_rate: 1.2,
    });
    expect(seg.state).toBe('done');
    const character = (await store.projects.characters(project.projectId)).find((c) => c.id === seg.speaker)!;
    expect(character).toMatchObject({
      voice_code: 'en_female_nova_default',
      speed_rate: 1.2,
      name: 'Narrator (Nova)',
    });
    expect(before - (await balance())).toBe(
      costMilli(Array.from(seg.text).length, findVoice('en_female_nova_default')!, 'std-v1.6'),
    );
    expect((await probeAudio(join(audioDir(), `${seg.audio_key}.wav`))).errors).toBe('');
  }, 60_000);
});

describe('project renders of several keys (issue 36)', () => {
  it("a key's whole-book render does not make another key's render wait for it", async () => {
    // Key A's book: the fixture's segments and 40 long ones more.
    const long =
      'The keeper counted the ships that passed the point, one by one, until the light came. '.repeat(4);
    await store.projects.putSegments(
      Array.from({ length: 40 }, (_, i) => ({
        ...project.segments[0]!,
        id: `${project.projectId}-long-${i}`,
        position: 100 + i,
        text: long,
        quotes: null,
        speaker: null,
      })),
    );
    const other = await createTestProject(store, { projectId: 'b'.repeat(32) });
    const book = await renders.submit(project.projectId, project.keyId, {});
    for (let i = 0; i < 600 && (await renders.get(book.id))!.status !== 'rendering'; i++)
      await new Promise((r) => setTimeout(r, 50));
    const short = await renders.submit(other.projectId, other.keyId, {
      segmentIds: [other.segments[0]!.id],
    });
    const done = await renders.settled(short.id);
    expect(done.status).toBe('done');
    // Structural, not timed: the other key's render ended while the book still rendered.
    const bookNow = (await renders.get(book.id))!;
    expect(bookNow.status).toBe('rendering');
    console.log(
      `other key's render: done with the book at ${bookNow.segments_done} of ${bookNow.segments_total} segments`,
    );
    expect((await renders.cancel(book.id)).status).toBe('cancelled');
  }, 180_000);
});
