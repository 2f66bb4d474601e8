/**
 * Events between instances on one PostgreSQL database: what one instance emits, another hears,
 * in order, batched into few notifications (bursts of progress collapsed to the latest), and
 * split below PostgreSQL's 8,000-byte payload limit. On SQLite there is no other instance and
 * sharing does nothing; these tests run on the PostgreSQL run (`npm run test:postgres`).
 */

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJobEvents, type JobEventMap } from '../../../electron/core/jobs/events';
import { EVENTS_CHANNEL, shareEvents, type SharedEvents } from '../../../electron/core/jobs/shared-events';
import { silentLog } from '../../../electron/core/platform/log';
import type { Store } from '../../../electron/core/store';
import { openReopenableTestStore, type ReopenableTestStore } from '../../fixtures/reopenable-store';
import { onPostgres } from '../../fixtures/test-store';

type RequestEvent = JobEventMap['request'][0];

const waitFor = async (what: string, done: () => boolean, ms = 5_000) => {
  const until = Date.now() + ms;
  while (!done()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe.runIf(onPostgres)('events shared between instances (PostgreSQL)', () => {
  let t: ReopenableTestStore;
  let other: Store;
  const shared: SharedEvents[] = [];

  beforeEach(async () => {
    t = await openReopenableTestStore();
    other = await t.openAnother();
  });
  afterEach(async () => {
    for (const s of shared.splice(0)) await s.close();
    await t.close();
  });

  const instance = async (store: Store, instanceId: string) => {
    const events = createJobEvents();
    const s = shareEvents({ store, events, instanceId, log: silentLog, onWake() {}, onCancel() {} });
    await s.start();
    shared.push(s);
    return events;
  };

  it('relays a burst of events in order in a few notifications, progress collapsed to the latest', async () => {
    const a = await instance(t.store, 'a');
    const b = await instance(other, 'b');
    const heard: RequestEvent[] = [];
    b.on('request', (event) => heard.push(event));
    let notifications = 0;
    const stop = await other.listen(EVENTS_CHANNEL, () => notifications++);

    // 300 requests accepted at once, then one of them reports progress 50 times.
    for (let i = 0; i < 300; i++) {
      a.emit('request', { keyId: 'k', request_id: `r${i}`, status: 'new', progress: 0 });
    }
    for (let p = 1; p <= 50; p++) {
      a.emit('request', { keyId: 'k', request_id: 'r0', status: 'processing', progress: p / 50 });
    }
    a.emit('request', { keyId: 'k', request_id: 'r0', status: 'SUCCESS', progress: 1 });
    await waitFor('the last event', () => heard.at(-1)?.status === 'SUCCESS');
    stop();

    expect(heard.slice(0, 300).map((e) => e.request_id)).toEqual(
      Array.from({ length: 300 }, (_, i) => `r${i}`),
    );
    // The 50 progress reports arrive as the latest one.
    expect(heard.slice(300)).toEqual([
      { keyId: 'k', request_id: 'r0', status: 'processing', progress: 1 },
      { keyId: 'k', request_id: 'r0', status: 'SUCCESS', progress: 1 },
    ]);
    // ~80 bytes an event: a few notifications of under 8,000 bytes, not 351.
    expect(notifications).toBeGreaterThan(1);
    expect(notifications).toBeLessThan(20);
  });

  it('does not hear its own events back, and sends what is queued when it closes', async () => {
    const a = await instance(t.store, 'a');
    const b = await instance(other, 'b');
    const heardByA: RequestEvent[] = [];
    const heardByB: RequestEvent[] = [];
    a.on('request', (event) => heardByA.push(event));
    b.on('request', (event) => heardByB.push(event));
    a.emit('request', { keyId: 'k', request_id: 'last', status: 'new', progress: 0 });
    await shared[0]!.close();
    await waitFor('the event queued before close', () => heardByB.length === 1);
    expect(heardByB[0]!.request_id).toBe('last');
    // A's own emit is the only one A saw: nothing came back over the database.
    expect(heardByA).toHaveLength(1);
  });
});
