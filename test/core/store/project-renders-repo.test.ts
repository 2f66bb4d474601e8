/**
 * The project renders repository on this run's database (SQLite, or PostgreSQL with
 * `npm run test:postgres`): the queue under a lease, pause/resume, progress, the end of a render,
 * recovery after a crash, and the segment audio columns.
 */

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../electron/core/store';
import { storedDetails, storedErrorDetails } from '../../../electron/core/platform/error-details';
import { segmentRecord } from '../../../electron/core/projects';
import { AppError } from '../../../electron/shared/errors';
import { openTestStore, type TestStore } from '../../fixtures/test-store';
import { createTestProject, type TestProject } from '../../fixtures/test-project';

let db: TestStore;
let store: Store;
let project: TestProject;

beforeEach(async () => {
  db = await openTestStore();
  store = db.store;
  project = await createTestProject(store);
});
afterEach(() => db.close());

const at = '2026-01-02T00:00:00.000Z';
const insert = (id: string) =>
  store.projectRenders.insert({
    id,
    project_id: project.projectId,
    key_id: project.keyId,
    chapter_ids: JSON.stringify([project.chapters[0]!.id]),
    segment_ids: JSON.stringify([
      {
        id: project.segments[0]!.id,
        chapter_id: project.chapters[0]!.id,
        characters: 10,
        cost_milli: 100,
        done: false,
      },
    ]),
    segments_total: 1,
    characters_total: 10,
    cost_milli: 100,
    created_at: at,
  });

describe('project renders repository', () => {
  it('queues, claims under a lease, renews, records progress and finishes only for its owner', async () => {
    await insert('r1');
    await insert('r2');
    expect((await store.projectRenders.queued()).map((r) => r.id)).toEqual(['r1', 'r2']);
    const claimed = await store.projectRenders.claim('r1', at, { owner: 'a', until: 1000 });
    expect(claimed).toMatchObject({ status: 'rendering', lease_owner: 'a', run_attempts: 1 });
    expect(await store.projectRenders.claim('r1', at, { owner: 'b', until: 1000 })).toBeUndefined();
    expect(await store.projectRenders.renewLease('r1', { owner: 'b', until: 5000 })).toBeUndefined();
    expect((await store.projectRenders.renewLease('r1', { owner: 'a', until: 5000 }))!.lease_until).toBe(
      5000,
    );
    expect(
      await store.projectRenders.progress('r1', 'b', { items: '[]', segmentsDone: 1, charactersDone: 10 }),
    ).toBe(false);
    expect(
      await store.projectRenders.progress('r1', 'a', { items: '[]', segmentsDone: 1, charactersDone: 10 }),
    ).toBe(true);
    expect(await store.projectRenders.request('r1', 'cancel')).toBe(true);
    expect((await store.projectRenders.get('r1'))!.cancel_requested).toBe(1);
    expect(await store.projectRenders.finish('r1', 'b', { status: 'done', finishedAt: at })).toBe(false);
    expect(
      await store.projectRenders.finish('r1', 'a', {
        status: 'cancelled',
        finishedAt: at,
        errorCode: 'CANCELLED',
      }),
    ).toBe(true);
    expect(await store.projectRenders.get('r1')).toMatchObject({
      status: 'cancelled',
      segments_done: 1,
      lease_owner: null,
    });
    expect((await store.projectRenders.list(project.projectId, 10)).map((r) => r.id)).toEqual(['r2', 'r1']);
    expect((await store.projectRenders.open(project.projectId)).map((r) => r.id)).toEqual(['r2']);
  });

  it('pauses and resumes, queued or running', async () => {
    await insert('r1');
    expect(await store.projectRenders.pauseQueued('r1')).toBe(true);
    expect(await store.projectRenders.claim('r1', at, { owner: 'a', until: 1000 })).toBeUndefined();
    expect(await store.projectRenders.resume('r1')).toBe(true);
    await store.projectRenders.claim('r1', at, { owner: 'a', until: 1000 });
    expect(await store.projectRenders.pause('r1', 'a')).toBe(true);
    expect(await store.projectRenders.get('r1')).toMatchObject({
      status: 'paused',
      lease_owner: null,
      run_attempts: 0,
    });
    expect(await store.projectRenders.finishWaiting('r1', { status: 'cancelled', finishedAt: at })).toBe(
      true,
    );
  });

  it('requeues the renders of a dead instance: every one on SQLite, expired leases on a shared database', async () => {
    await insert('r1');
    await insert('r2');
    await store.projectRenders.claim('r1', at, { owner: 'a', until: 1000 });
    await store.projectRenders.claim('r2', at, { owner: 'b', until: 9000 });
    expect(await store.projectRenders.requeueExpired(5000)).toBe(1);
    expect((await store.projectRenders.get('r1'))!.status).toBe('queued');
    expect(await store.projectRenders.requeueRendering()).toBe(1);
    expect((await store.projectRenders.get('r2'))!.status).toBe('queued');
  });

  it("writes the segments' audio columns and releases unrendered ones", async () => {
    const [a, b, c] = project.segments.map((s) => s.id);
    await store.projectRenders.setSegmentStates([a!, b!, c!], 'queued');
    await store.projectRenders.setSegmentAudio(a!, {
      state: 'done',
      audio_key: 'k'.repeat(64),
      duration_ms: 1234,
      error: null,
      checks: '[]',
      rendered_at: at,
    });
    await store.projectRenders.setSegmentAudio(b!, { state: 'failed', error: 'boom' });
    await store.projectRenders.releaseSegments([a!, b!, c!]);
    const rows = await store.projects.segments(project.projectId);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(a!)).toMatchObject({
      state: 'done',
      audio_key: 'k'.repeat(64),
      duration_ms: 1234,
      checks: '[]',
    });
    expect(byId.get(b!)).toMatchObject({ state: 'failed', error: 'boom' });
    expect(byId.get(c!)!.state).toBe('not_rendered');
  });
});

describe('a failure kept with its particulars (issue 38)', () => {
  it('a failed segment keeps its code and details; a later render clears them', async () => {
    const segmentId = project.segments[0]!.id;
    const failure = new AppError('UNKNOWN_VOICE', 'Unknown voice_code "vi_khong_co".', {
      field: 'voice_code',
      voice_code: 'vi_khong_co',
      path: '/home/ana/secret',
    });
    await store.projectRenders.setSegmentAudio(segmentId, {
      state: 'failed',
      error: failure.message,
      error_code: failure.code,
      error_details: storedErrorDetails(failure),
    });
    const failed = segmentRecord((await store.projects.getSegment(segmentId))!);
    expect(failed).toMatchObject({
      state: 'failed',
      error: 'Unknown voice_code "vi_khong_co".',
      error_code: 'UNKNOWN_VOICE',
      error_details: { field: 'voice_code', voice_code: 'vi_khong_co' },
    });
    expect(JSON.stringify(failed)).not.toContain('/home/ana');
    await store.projectRenders.setSegmentAudio(segmentId, { state: 'rendering', error: null });
    const again = segmentRecord((await store.projects.getSegment(segmentId))!);
    expect(again.error).toBeNull();
    expect(again).not.toHaveProperty('error_code');
    expect(again).not.toHaveProperty('error_details');
  });

  it('a failed render keeps its details', async () => {
    await insert('r9');
    await store.projectRenders.claim('r9', at, { owner: 'a', until: 1000 });
    const failure = new AppError('VOICE_PACK_NOT_FOUND', 'The voice pack "vi-pack" is not installed.', {
      id: 'vi-pack',
    });
    await store.projectRenders.finish('r9', 'a', {
      status: 'failed',
      finishedAt: at,
      errorCode: failure.code,
      errorMessage: failure.message,
      errorDetails: storedErrorDetails(failure),
    });
    const row = (await store.projectRenders.get('r9'))!;
    expect(row).toMatchObject({ status: 'failed', error_code: 'VOICE_PACK_NOT_FOUND' });
    expect(storedDetails(row.error_details)).toEqual({ error_details: { id: 'vi-pack' } });
  });
});
