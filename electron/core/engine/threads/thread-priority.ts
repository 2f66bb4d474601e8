/**
 * The render threads' scheduling priority. Synthesis workers and the engine host thread lower
 * their own priority when they start, so on a busy machine the thread that answers HTTP (and,
 * in the desktop app, the window's main process) gets the CPU first and renders take what is
 * left; on an idle machine nothing changes. On Linux `setpriority(PRIO_PROCESS, 0, n)`
 * (`os.setPriority(0, n)`) applies to the calling thread alone, threads being tasks; on macOS
 * and Windows it would change the whole process, so elsewhere this does nothing.
 */

import { getPriority, setPriority } from 'node:os';

/**
 * The nice value render threads take (0 = the process's own, 19 = the lowest). 10: a render
 * thread gets about a tenth of a core that the HTTP thread also wants (CFS weights 110 : 1024).
 */
export const RENDER_THREAD_NICE = 10;

/**
 * `NARRATION_RENDER_NICE` (0–19) overrides the default; 0 leaves the render threads at the
 * process's priority (the benchmark's baseline).
 */
export function renderThreadNice(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.NARRATION_RENDER_NICE;
  if (raw === undefined || raw === '') return RENDER_THREAD_NICE;
  const value = Number(raw);
  return Number.isInteger(value) && value >= 0 && value <= 19 ? value : RENDER_THREAD_NICE;
}

/**
 * Lowers the calling thread's priority to `nice` (never raises it: an unprivileged thread
 * cannot). Linux only; returns the thread's nice value afterwards, or undefined where it
 * did nothing.
 */
export function lowerThreadPriority(nice = renderThreadNice()): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const current = getPriority(0);
    if (nice > current) setPriority(0, nice);
    return getPriority(0);
  } catch {
    // A sandbox that forbids setpriority: the thread runs at the process's priority.
    return undefined;
  }
}
