/**
 * Where the keyboard focus is, for the browser tests that walk the studio by keyboard: what
 * holds it (tag and name) and whether its focus ring shows; Tab until a control has it; and a
 * wait for the focus on an expected control, failing with where it was instead (the page's body).
 */

import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

export interface Focused {
  /** `<tag> <name>`, `body` when nothing has the focus. */
  what: string;
  ring: boolean;
}

/** What has the focus: its role-ish tag, its name, and whether a focus ring shows. */
export async function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { what: 'body', ring: false };
    const label =
      el.getAttribute('aria-label') ??
      (el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null) ??
      el.closest('label')?.textContent ??
      el.textContent ??
      '';
    // The ring is the element's outline, or (a hidden input in a styled label) the label's.
    // (No named helper in here: the bundler would wrap it in a function the page lacks.)
    const ring = [el, el.closest('label')].some(
      (node) =>
        node !== null &&
        getComputedStyle(node).outlineStyle !== 'none' &&
        parseFloat(getComputedStyle(node).outlineWidth) > 0,
    );
    return { what: `${el.tagName.toLowerCase()} ${label.trim().replace(/\s+/g, ' ').slice(0, 40)}`, ring };
  });
}

/** Presses Tab (Shift+Tab with `back`) until the focused control's `what` matches; at most `max` times. */
export async function tabTo(page: Page, what: RegExp, { back = false, max = 80 } = {}): Promise<Focused> {
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const now = await focused(page);
    if (what.test(now.what)) return now;
    seen.push(now.what);
  }
  throw new Error(`no Tab stop matched ${what} in ${max} presses: ${seen.join(' → ')}`);
}

/**
 * Waits (up to `timeout` ms) for the focus on a control whose `what` matches: never the page's
 * body. Fails naming where the focus is.
 */
export async function expectFocus(page: Page, what: RegExp, step: string, timeout = 5_000): Promise<Focused> {
  const until = Date.now() + timeout;
  for (;;) {
    const now = await focused(page);
    if (now.what !== 'body' && what.test(now.what)) return now;
    if (Date.now() > until) assert.fail(`${step}: the focus should be on ${what}, it is on ${now.what}`);
    // The next frame: the studio moves the focus after a render or in an animation frame.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  }
}
