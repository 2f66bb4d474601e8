/**
 * axe-core in the browser tests: its source is evaluated in the page (DevTools evaluation is not
 * subject to the studio's Content-Security-Policy, where a script tag would be), then `axe.run()`
 * checks the whole document against WCAG 2.x A and AA and axe's best practices.
 */

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
let source: string | undefined;

/** axe.min.js, read once. */
function axeSource(): string {
  source ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  return source;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** One entry per element: its selector and what is wrong with it. */
  nodes: { target: string; summary: string }[];
}

/** Runs axe on the page as it is now; the violations found (none is the goal). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const injected = await page.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object');
  if (!injected) await page.evaluate(axeSource());
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
    const r: AxeResults = await axe.run(document, {
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
      },
      resultTypes: ['violations'],
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary ?? '' })),
    }));
  });
  return results;
}

/** The violations as lines a person can act on: rule, element, what to fix. */
export function describeViolations(where: string, violations: readonly AxeViolation[]): string {
  const lines: string[] = [];
  for (const v of violations) {
    lines.push(`${where}: ${v.id} (${v.impact ?? 'no impact given'}): ${v.help}`);
    for (const n of v.nodes) lines.push(`    ${n.target}\n      ${n.summary.replace(/\n/g, '\n      ')}`);
  }
  return lines.join('\n');
}
