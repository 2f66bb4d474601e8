/**
 * Giving memory back once a large structure is dropped. V8 collects garbage when JavaScript
 * allocates; an idle engine allocates nothing, so a dropped dictionary would stay resident
 * until the next request. Measured with kuromoji's (~320 MB resident): dropping it and
 * waiting left the thread's RSS unchanged; a full collection freed ~230 MB at once.
 */

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/**
 * Runs full garbage collections on this thread (again after a turn of the event loop, once
 * the dropped buffers' finalisers have run, to free their memory). Costs a few ms on an idle
 * heap; call it after dropping something large, not on a hot path.
 */
export async function collectGarbage(): Promise<void> {
  if (!gc) {
    // `gc` exists only with --expose-gc; setting the flag now makes a new context expose it.
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
  await new Promise((resolve) => setTimeout(resolve, 10));
  gc();
}
