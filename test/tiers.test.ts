/**
 * The tier rule (test/tiers.ts): every test file is in exactly one tier, and each slow sign
 * sends a file showing it to the slow tier while plain unit-test text stays fast.
 */

import { describe, expect, it } from 'vitest';
import { slowSignOf, testTiers } from './tiers';

/** This file's samples are broken by `¦` so its own text shows no sign (it is a fast test). */
const sample = (text: string): string => text.replaceAll('¦', '');

describe('the test tiers', () => {
  it('put every test file in exactly one tier, this one in the fast tier', () => {
    const { fast, slow } = testTiers();
    expect(fast.filter((file) => slow.includes(file))).toEqual([]);
    expect(fast).toContain('test/tiers.test.ts');
    expect(fast.length).toBeGreaterThan(50);
    expect(slow.length).toBeGreaterThan(50);
    expect([...fast, ...slow].every((file) => /^test\/(?!e2e\/).*\.test\.tsx?$/.test(file))).toBe(true);
  });

  it.each([
    ['const t = await startTestCore¦({ poolSize: 1 });', 'starts the real engine or the full core'],
    ['engine = await createEngine¦({ poolSize: 1 });', 'starts the real engine or the full core'],
    [
      "import { loadEspeak } from '../../fixtures/¦espeak';",
      'runs the real synthesisers in this process (eSpeak, ONNX Runtime)',
    ],
    ["import { spawn } from 'node:¦child_process';", 'spawns a process'],
    [
      'const book = await readManuscript¦(bytes, name);',
      'spawns a process (every manuscript read runs in a child)',
    ],
    ["import { Worker } from 'node:¦worker_threads';", 'starts worker threads'],
    ["import { launchBrowser } from '../fixtures/¦browser';", 'starts a browser'],
    [
      "/¦/ test-tier: slow (renders a whole book)\nimport { it } from 'vitest';",
      'measured slow (the marker says why)',
    ],
  ])('sends %j to the slow tier', (text, why) => {
    expect(slowSignOf(sample(text))?.why).toBe(why);
  });

  it('keeps pure tests, inject apps, the fake engine and fake timers fast', () => {
    const text = [
      "import { buildTestApp } from './inject';",
      "import { createFakeEngine } from '../../fixtures/fake-engine';",
      'vi.useFakeTimers();',
      '// a comment that mentions test-tier: slow is not the marker',
    ].join('\n');
    expect(slowSignOf(sample(text))).toBeUndefined();
  });
});
