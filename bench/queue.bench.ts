/**
 * Job queue benchmark: prints figures, never fails on time.
 *   npm run bench:queue [-- --rows 20000]
 * `requests.oldestQueuedPerKey()` (the runner asks at every render start) on a SQLite store with
 * two keys' requests queued: the fastest of 10 calls with 2 requests queued, then with `rows`
 * more (half each key's). An index lookup per key does not grow with the queue; reading the
 * whole queue did (13 ms at 20,000 rows, 100× the 2-row time, before issue 36). Moved here from
 * test/core/jobs/leases.test.ts (issue 41): a unit test checks what it answers, not how fast.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApiKey } from '../electron/core/jobs/keys';
import { systemClock } from '../electron/core/platform/clock';
import { openStore } from '../electron/core/store';
import { queuedRequestRow } from '../test/fixtures/request-row';

const argValue = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const ROWS = Number(argValue('rows') ?? 20_000);

const dir = mkdtempSync(join(tmpdir(), 'bench-queue-'));
try {
  const store = await openStore({ path: join(dir, 'studio.db') });
  try {
    const keys = [
      (await createApiKey(store, systemClock, { balanceMilli: 1000 })).row.id,
      (await createApiKey(store, systemClock, { balanceMilli: 1000 })).row.id,
    ];
    const row = (i: number) => queuedRequestRow(keys[i % 2]!);
    /** The fastest of 10 calls, ms (the least disturbed by whatever else the machine does). */
    const fastest = async () => {
      let best = Infinity;
      for (let i = 0; i < 10; i++) {
        const t0 = performance.now();
        const oldest = await store.requests.oldestQueuedPerKey();
        best = Math.min(best, performance.now() - t0);
        if (oldest.length !== 2) throw new Error(`expected 2 keys' oldest, got ${oldest.length}`);
      }
      return best;
    };
    await store.requests.insertMany([row(0), row(1)]);
    const few = await fastest();
    for (let done = 0; done < ROWS; done += 1000) {
      const batch = Array.from({ length: Math.min(1000, ROWS - done) }, (_, i) => row(i));
      await store.transaction((tx) => tx.requests.insertMany(batch));
    }
    const many = await fastest();
    console.log(`oldestQueuedPerKey, fastest of 10 calls (SQLite):`);
    console.log(`  2 requests queued:      ${few.toFixed(3)} ms`);
    console.log(
      `  ${(ROWS + 2).toLocaleString('en-US')} requests queued: ${many.toFixed(3)} ms (${(many / few).toFixed(1)}×)`,
    );
  } finally {
    await store.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
