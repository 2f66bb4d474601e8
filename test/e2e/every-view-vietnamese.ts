/**
 * Every view in Vietnamese, in both themes: opened by its address in a vi-VN browser (with a
 * project, a generated request and a failed callback to show), each view must say no sentence of
 * the English catalogue, have 0 axe-core violations, scroll no view sideways at 1280×800 and at
 * 800×600, and is screenshot to docs/screenshots/vi/<view>-<theme>.png.
 */

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import en from '../../renderer/src/i18n/messages/en.json';
import vi from '../../renderer/src/i18n/messages/vi.json';
import { PROJECT_BOOK } from '../fixtures/project-book';
import { axeViolations, describeViolations } from './axe';
import { englishProblems, labelNotInName, type NamedControl, type SeenText } from '../fixtures/english-words';
import { SMALL, THEMES, VIEWS as VIEW_NAMES, WIDE } from './every-view';
import { openVietnamese, SAMPLE_TEXT } from './harness';
import { animationsDone, settled } from './waits';

type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

const OUT = join(process.cwd(), 'docs/screenshots/vi');

/** The views by address. */
const VIEWS: readonly { name: string; hash: string }[] = VIEW_NAMES.map((name) => ({
  name,
  hash: `#/${name}`,
}));

/**
 * The English sentences of the catalogue that Vietnamese says otherwise: each message's literal
 * stretches (between its placeholders) of three words or more that its translation does not keep.
 */
export function englishSentences(): string[] {
  const english = en as Record<string, string>;
  const vietnamese = vi as Record<string, string>;
  const found = new Set<string>();
  let translation = '';
  const walk = (elements: MessageFormatElement[]) => {
    for (const e of elements) {
      if (e.type === TYPE.literal) {
        const text = e.value.trim();
        // Names the translation keeps as they are (a command, another app's menu) are not leftovers.
        if (text.split(/\s+/).filter((w) => /\p{L}{2}/u.test(w)).length >= 3 && !translation.includes(text))
          found.add(text);
      } else if (e.type === TYPE.plural || e.type === TYPE.select) {
        for (const option of Object.values(e.options)) walk(option.value);
      } else if (e.type === TYPE.tag) walk(e.children);
    }
  };
  for (const [id, message] of Object.entries(english)) {
    translation = vietnamese[id] ?? '';
    if (translation !== message) walk(parse(message, { ignoreTag: false }));
  }
  return [...found];
}

/** What the page says: its text, and the names and hints of its elements. */
async function pageWords(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts = [document.body.innerText, document.title];
    for (const e of document.querySelectorAll('[aria-label],[placeholder],[title],[alt]'))
      for (const name of ['aria-label', 'placeholder', 'title', 'alt'])
        parts.push(e.getAttribute(name) ?? '');
    return parts.join('\n');
  });
}

/**
 * Everything a person reads or hears in the page (or in the element `root` selects: a dialog), in
 * the interface's language: visible text nodes, the options of selects, titles, aria-labels,
 * placeholders and alt texts; every tooltip, shown or not yet (`title` attributes, `role=tooltip`
 * notes shown on hover or focus); not code (code, pre, kbd, samp), not typed values, not data
 * marked in another language (closest `lang` not vi). And each control's visible label with its
 * accessible name (aria-label or aria-labelledby), for label-in-name. A script string: tsx would
 * wrap functions in a helper the page lacks.
 */
export const seenScript = (root = 'body') => `(() => {
  const root = document.querySelector(${JSON.stringify(root)});
  const CODE = 'code, pre, kbd, samp, script, style, textarea, template, svg';
  const ours = (el) => !el.closest(CODE) && (el.closest('[lang]')?.getAttribute('lang') ?? 'vi').startsWith('vi');
  const shown = (el) => el.closest('option') !== null || el.checkVisibility({ visibilityProperty: true });
  const seen = [{ source: 'document title', text: document.title }];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    const text = node.textContent.trim();
    if (text && el && ours(el) && shown(el)) seen.push({ source: 'text', text });
  }
  const within = (selector) => [...(root.matches(selector) ? [root] : []), ...root.querySelectorAll(selector)];
  for (const el of within('[title],[aria-label],[placeholder],[alt],[aria-description]')) {
    if (!ours(el)) continue;
    const visible = shown(el);
    for (const name of ['title', 'aria-label', 'placeholder', 'alt', 'aria-description']) {
      // A tooltip is judged before it is hovered: its element may be folded away or scrolled off.
      if (name !== 'title' && !visible) continue;
      const text = (el.getAttribute(name) ?? '').trim();
      if (text) seen.push({ source: name + ' of <' + el.tagName.toLowerCase() + '>', text });
    }
  }
  for (const el of within('[role=tooltip]')) {
    const text = el.textContent.trim();
    if (text && ours(el) && !shown(el)) seen.push({ source: 'tooltip (not shown yet)', text });
  }
  const controls = [];
  const CONTROLS = 'button, a[href], summary, input, select, textarea, [role=button], [role=link], [role=tab], [role=checkbox], [role=radio], [role=switch], [role=menuitem], [role=option]';
  for (const el of within(CONTROLS)) {
    if (!shown(el)) continue;
    const by = el.getAttribute('aria-labelledby');
    const name = by
      ? by.split(/\\s+/).map((id) => document.getElementById(id)?.textContent ?? '').join(' ')
      : el.getAttribute('aria-label');
    if (name === null) continue;
    const field = ['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName);
    const label = field ? [...(el.labels ?? [])].map((l) => l.innerText).join(' ') : el.innerText;
    if (label.trim()) controls.push({ what: '<' + el.tagName.toLowerCase() + '> “' + label.trim().slice(0, 60) + '”', label, name });
  }
  return { seen, controls };
})()`;
const SEEN_SCRIPT = seenScript();

/**
 * The data this test's studio holds, in English (prepare() in accessibility.e2e.ts made it): the
 * book imported as a project, its file's name, the sentence generated in Studio. Shown as it is.
 */
export const DATA: readonly string[] = [
  PROJECT_BOOK.title,
  PROJECT_BOOK.author,
  'the-lighthouse.docx',
  SAMPLE_TEXT,
  ...PROJECT_BOOK.chapters.flatMap((c) => [c.title, ...c.paragraphs]),
];

const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

export async function everyViewInVietnamese(
  browser: Browser,
  baseURL: string,
  storageState: StorageState,
  log: (line: string) => void,
): Promise<void> {
  const sentences = englishSentences();
  assert.ok(sentences.length > 200, `${sentences.length} English sentences to look for`);
  mkdirSync(OUT, { recursive: true });
  const problems: string[] = [];
  for (const theme of THEMES) {
    const { context, page, pageErrors } = await openVietnamese(browser, '/#/studio', {
      colorScheme: theme,
      viewport: WIDE,
      baseURL,
      storageState,
    });
    try {
      // The open items too: the first project, and the first request's details in History.
      // (No named functions inside evaluate: tsx would wrap them in a helper the page lacks.)
      const [project, request] = await page.evaluate(async () => {
        const headers = { 'x-studio-session': localStorage.getItem('narration-studio.session') ?? '' };
        const firsts: (Record<string, string> | undefined)[] = [];
        for (const path of ['/api/v1/projects', '/api/v1/tts'])
          firsts.push(
            (
              (await (await fetch(path, { headers })).json()) as {
                result: { items: Record<string, string>[] };
              }
            ).result.items[0],
          );
        return [firsts[0]?.id, firsts[1]?.request_id];
      });
      const items = { project, request };
      assert.ok(items.project && items.request, 'a project and a request to open');
      const views = [
        ...VIEWS,
        { name: 'project-open', hash: `#/projects/${items.project}` },
        { name: 'history-request', hash: `#/history/${items.request}` },
      ];
      for (const view of views) {
        for (const size of [WIDE, SMALL]) {
          await page.setViewportSize(size);
          await page.goto(`/${view.hash}`);
          await page.locator('h1').first().waitFor();
          await settled(page);
          const where = `${view.name} (${theme}, ${size.width}×${size.height})`;
          const overflow = await sideways(page);
          if (overflow > 0) problems.push(`${where} scrolls sideways by ${overflow} px`);
          const violations = await axeViolations(page);
          if (violations.length > 0) problems.push(describeViolations(where, violations));
          if (size === WIDE) {
            const words = await pageWords(page);
            for (const sentence of sentences)
              if (words.includes(sentence)) problems.push(`${where} says in English: “${sentence}”`);
            const { seen, controls } = (await page.evaluate(SEEN_SCRIPT)) as {
              seen: SeenText[];
              controls: NamedControl[];
            };
            problems.push(...englishProblems(where, seen, DATA), ...labelNotInName(where, controls));
            // What is folded away too (book settings, a payload, advanced options): opened, read again.
            if (await page.evaluate(() => document.querySelectorAll('details:not([open])').length)) {
              await page.evaluate(() => {
                for (const d of document.querySelectorAll<HTMLDetailsElement>('details:not([open])')) {
                  d.open = true;
                  d.dataset.unfolded = '';
                }
              });
              await animationsDone(page);
              const unfolded = (await page.evaluate(SEEN_SCRIPT)) as {
                seen: SeenText[];
                controls: NamedControl[];
              };
              const folded = `${where} (unfolded)`;
              problems.push(
                ...englishProblems(folded, unfolded.seen, DATA),
                ...labelNotInName(folded, unfolded.controls),
              );
              // Unfolded, a long payload scrolls: axe wants it reachable by keyboard (scrollable-region-focusable).
              const unfoldedViolations = await axeViolations(page);
              if (unfoldedViolations.length > 0)
                problems.push(describeViolations(folded, unfoldedViolations));
              // Folded again, as the person left them (the smaller window is checked next).
              await page.evaluate(() => {
                for (const d of document.querySelectorAll<HTMLDetailsElement>('details[data-unfolded]')) {
                  d.open = false;
                  delete d.dataset.unfolded;
                }
              });
            }
            await page.screenshot({ path: join(OUT, `${view.name}-${theme}.png`) });
          }
        }
      }
      assert.deepEqual(pageErrors, [], 'no error on the page');
    } finally {
      await context.close();
    }
    log(`✓ every view in Vietnamese, ${theme}: no English sentence, axe 0, no sideways scrolling`);
  }
  if (problems.length > 0) throw new Error(`Vietnamese views:\n${problems.join('\n')}`);
}
