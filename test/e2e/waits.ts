/**
 * Waiting on conditions in the browser tests, never for a fixed time: until the page's CSS
 * transitions and animations have ended (a colour scheme switched, a bar's width), until the
 * page has loaded what it asked for; a condition read from outside (the API, files) is polled
 * with `waitUntil` (test/faults/harness.ts, shared with the fault and load suites).
 */

import type { Page } from 'playwright-core';

/**
 * Resolves after the next two frames (styles applied, transitions started) once every finite
 * CSS transition and animation on the page has finished; endless ones (a spinner) are not waited for.
 */
export async function animationsDone(page: Page): Promise<void> {
  // A page.evaluate has no time limit of its own: after 15 s this fails, naming what still runs
  // (or that no frame came), rather than holding the suite.
  await page.evaluate(async (limitMs) => {
    const done = (async () => {
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      await Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      );
    })();
    let timer: number | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = window.setTimeout(() => {
        const running = document
          .getAnimations()
          .filter((a) => a.playState !== 'finished')
          .map((a) => {
            const target = (a.effect as KeyframeEffect | null)?.target;
            const name =
              (a as { animationName?: string; transitionProperty?: string }).animationName ??
              (a as { transitionProperty?: string }).transitionProperty ??
              'animation';
            return `${name} (${a.playState}) on ${target ? `${target.tagName.toLowerCase()}.${[...target.classList].join('.')}` : 'nothing'}`;
          });
        reject(
          new Error(
            `animations not done after ${limitMs} ms: ${running.join(', ') || 'none running (no animation frame came)'}`,
          ),
        );
      }, limitMs);
    });
    try {
      await Promise.race([done, late]);
    } finally {
      window.clearTimeout(timer);
    }
  }, 15_000);
}

/** No request in flight (lists that load on opening a view), then no transition running. */
export async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await animationsDone(page);
}
