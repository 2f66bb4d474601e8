/**
 * The database's side of submitting, in its own process, as one instance does it: the submitter
 * (jobs/submit.ts) on its own pool to the database at argv[2], for the key argv[3], with
 * argv[5] submits in flight, from the start time argv[6] (ms since the epoch) for argv[4] s.
 * No HTTP and no rendering, so the figure is what the database path takes. Prints one JSON line:
 * { accepted, seconds, p50, p99 }. Run by api.bench.ts.
 */

import { createSubmitter } from '../electron/core/jobs/submit';
import { systemClock } from '../electron/core/platform/clock';
import { openStore } from '../electron/core/store';
import { submitInput } from '../test/fixtures/submit-input';

const [url, keyId, seconds, inFlight, startAt] = process.argv.slice(2);
const store = await openStore({ url: url! });
const submitter = createSubmitter({
  store,
  clock: systemClock,
  maxQueuedPerKey: Number.MAX_SAFE_INTEGER,
  onAccepted: () => undefined,
});
const text = 'The quick brown fox jumps over the lazy dog near the riverbank, and a bird sings.';
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
const t0 = performance.now();
const end = t0 + Number(seconds) * 1000;
const latencies: number[] = [];
await Promise.all(
  Array.from({ length: Number(inFlight) }, async () => {
    while (performance.now() < end) {
      const at = performance.now();
      await submitter.submit(submitInput(keyId!, { text, audio_type: 'mp3' }));
      latencies.push(performance.now() - at);
    }
  }),
);
const elapsed = (performance.now() - t0) / 1000;
await submitter.close();
await store.close();
latencies.sort((a, b) => a - b);
const at = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
console.log(JSON.stringify({ accepted: latencies.length, seconds: elapsed, p50: at(50), p99: at(99) }));
