/**
 * An export's progress, recorded from a real export (the real engine, an M4B mastered to ACX):
 * the fraction climbs through the whole job, not only while chapters render. Checked on the
 * sequence of fractions (never on wall time): increasing, and several steps between the end of
 * rendering and the end.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRenderShare } from '../../../../electron/shared/book-formats';
import { DEFAULT_SYNTHESIS } from '../../../../electron/shared/options';
import { exportBook } from '../../../../electron/core/engine/export/book-export';
import { startEngine, type EngineFixture } from '../../../fixtures/engine';

const BOOK = Array.from(
  { length: 3 },
  (_, i) =>
    `# Chapter ${i + 1}\n\n` +
    'The keeper climbed the stairs every evening and lit the lamp above the bay. '.repeat(6) +
    '\n\nShips passed in the night, and he wrote their names in a book.',
).join('\n\n');

let fixture: EngineFixture;
let dir: string;
beforeAll(async () => {
  fixture = await startEngine();
  dir = mkdtempSync(join(tmpdir(), 'export-progress-'));
});
afterAll(async () => {
  await fixture?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('export progress', () => {
  it('advances through rendering, resampling, mastering and encoding, without a long plateau', async () => {
    const events: { fraction: number; at: number }[] = [];
    const started = performance.now();
    await exportBook(fixture.engine, {
      ...DEFAULT_SYNTHESIS,
      voice_code: 'en_female_emily_us',
      text: BOOK,
      title: 'Progress',
      preset: 'acx',
      format: 'm4b',
      outPath: join(dir, 'book.m4b'),
      onProgress: (fraction) => events.push({ fraction, at: performance.now() - started }),
    });
    const total = performance.now() - started;
    const fractions = events.map((e) => e.fraction);
    console.log(
      `export progress: ${events.length} events over ${Math.round(total)} ms:`,
      events.map((e) => `${e.fraction.toFixed(3)}@${Math.round(e.at)}`).join(' '),
    );
    // Never backwards, within [0, 1].
    for (const [i, f] of fractions.entries()) {
      expect(f).toBeGreaterThanOrEqual(0);
      expect(f).toBeLessThanOrEqual(1);
      if (i > 0) expect(f).toBeGreaterThanOrEqual(fractions[i - 1]!);
    }
    expect(fractions.at(-1)).toBe(1);
    // Rendering is not the whole bar: after its share, many further increasing values come
    // (resampling, the level search's passes, the writing pass that feeds the encoder) before 1.
    const share = exportRenderShare('acx');
    const afterRendering = fractions.filter((f) => f > share && f < 1);
    expect(new Set(afterRendering).size).toBeGreaterThanOrEqual(30);
    expect(fractions.filter((f) => f > 0.9 && f < 1).length).toBeGreaterThanOrEqual(10);
    // No step of the bar is larger than a tenth of it: the work between two events is a small share.
    const steps = fractions.map((f, i) => f - (i > 0 ? fractions[i - 1]! : 0));
    expect(Math.max(...steps)).toBeLessThanOrEqual(0.1);
  }, 120_000);
});
