/**
 * What the browser suites and screenshot scripts walk: every view (by its sidebar label or its
 * address), both themes, the two window sizes; and the one screenshot helper they take shots with.
 */

import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { VIEWS, type View } from '../../renderer/src/stores/ui-slice';
import { animationsDone } from './waits';

export { VIEWS, type View };

/** The sidebar's label of each view (also its page heading). */
export const NAV_LABELS: Record<View, string> = {
  projects: 'Projects',
  studio: 'Studio',
  voices: 'Voices',
  library: 'Voice library',
  lexicon: 'Lexicon',
  reading: 'How it will be read',
  export: 'Export',
  history: 'History',
  callbacks: 'Callbacks',
  api: 'API',
  settings: 'Settings',
};

export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** The ordinary window and the small one. */
export const WIDE = { width: 1280, height: 800 } as const;
export const SMALL = { width: 800, height: 600 } as const;

export type WindowSize = { readonly width: number; readonly height: number };

/**
 * Runs `body` once per theme × size (themes outer, sizes in the order given), each in a fresh
 * context with that colour scheme and viewport (plus `options`), closed afterwards.
 */
export async function inEachThemeAndSize<S extends WindowSize>(
  browser: Browser,
  sizes: readonly S[],
  options: BrowserContextOptions,
  body: (page: Page, theme: Theme, size: S) => Promise<void>,
): Promise<void> {
  for (const theme of THEMES)
    for (const size of sizes) {
      const context = await browser.newContext({
        ...options,
        viewport: { width: size.width, height: size.height },
        colorScheme: theme,
      });
      try {
        await body(await context.newPage(), theme, size);
      } finally {
        await context.close();
      }
    }
}

export interface ShotOptions {
  /** The file of a shot's name. */
  path(name: string): string;
  /** Done before settling, e.g. moving the pointer away. */
  beforeSettle?(page: Page): Promise<void>;
  /** Done after settling, just before the shot, e.g. scrolling to the top. */
  afterSettle?(page: Page): Promise<void>;
  /** A note printed after the path, e.g. when the page scrolls sideways. */
  note?(page: Page): Promise<string>;
}

/** A function that takes a named shot of `page`: settles (transitions ended), screenshots and prints the file's path. */
export function shooter(page: Page, options: ShotOptions): (name: string) => Promise<string> {
  return async (name) => {
    await options.beforeSettle?.(page);
    await animationsDone(page);
    await options.afterSettle?.(page);
    const path = options.path(name);
    await page.screenshot({ path });
    process.stdout.write(`${path}${options.note ? await options.note(page) : ''}\n`);
    return path;
  };
}
