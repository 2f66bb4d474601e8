/**
 * Waiting on conditions in the browser tests, never for a fixed time: until the page's CSS
 * transitions and animations have ended (a colour scheme switched, a bar's width), until the
 * page has loaded what it asked for, or until a condition read from outside holds.
 */

import { setTimeout as delay } from 'node:timers/promises';
import type { Page } from 'playwright-core';

/**
 * Resolves after the next two frames (styles applied, transitions started) once every finite
 * CSS transition and animation on the page has finished; endless ones (a spinner) are not waited for.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    await Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    );
  });
}

/** No request in flight (lists that load on opening a view), then no transition running. */
export async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await animationsDone(page);
}

/**
 * Checks `condition` every `everyMs` until it holds and resolves to its value, or fails after
 * `timeoutMs` saying what it waited for (for what only Node can read: the API, files).
 */
export async function until<T>(
  what: string,
  condition: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 60_000, everyMs = 100 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(everyMs);
  }
}
