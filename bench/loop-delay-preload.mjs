// @ts-check
/**
 * Loaded into a benchmarked server with `NODE_OPTIONS=--import <this file>` (api.bench.ts): the
 * main thread's event-loop delay (perf_hooks.monitorEventLoopDelay, 10 ms resolution). On
 * SIGUSR2 it writes what it saw since the last SIGUSR2 to $NARRATION_BENCH_LOOP_DELAY as JSON
 * (`{ seq, p50, p99, max }`, ms) and starts again, so the bench measures its load window alone.
 * The product does not load it.
 */
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import process from 'node:process';
import { isMainThread } from 'node:worker_threads';

const out = process.env.NARRATION_BENCH_LOOP_DELAY;
if (isMainThread && out) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let seq = 0;
  process.on('SIGUSR2', () => {
    const ms = (/** @type {number} */ ns) => ns / 1e6;
    writeFileSync(
      out,
      JSON.stringify({
        seq: ++seq,
        p50: ms(histogram.percentile(50)),
        p99: ms(histogram.percentile(99)),
        max: ms(histogram.max),
      }),
    );
    histogram.reset();
  });
}
