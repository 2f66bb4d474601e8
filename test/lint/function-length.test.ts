/**
 * No function over 150 lines in product code (issue 41): the repository's eslint.config.js turns
 * `max-lines-per-function` on for electron/** and renderer/src/**, except the files listed in
 * eslint-rules/function-length.json (`stillToSplit`). That list only shrinks: a listed file that no longer holds such a
 * function fails here until it leaves the list, so a split cannot be undone unnoticed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import functionLength from '../../eslint-rules/function-length.json';

const root = fileURLToPath(new URL('../..', import.meta.url));
const RULE = 'max-lines-per-function';
const { stillToSplit, ...FUNCTION_LENGTH } = functionLength;

/** The repository's own configuration, only this rule, no type-aware parsing (not needed for it). */
let configured: ESLint;
/** The same rule forced on, for the listed files the configuration leaves out. */
let forced: ESLint;

beforeAll(() => {
  const base = {
    cwd: root,
    ruleFilter: ({ ruleId }: { ruleId: string }) => ruleId === RULE,
  };
  configured = new ESLint({
    ...base,
    overrideConfig: {
      files: ['**/*.ts', '**/*.tsx'],
      languageOptions: { parserOptions: { projectService: false } },
    },
  });
  forced = new ESLint({
    ...base,
    overrideConfig: {
      files: ['**/*.ts', '**/*.tsx'],
      languageOptions: { parserOptions: { projectService: false } },
      rules: { [RULE]: ['error', FUNCTION_LENGTH] },
    },
  });
});

function functionOf(lines: number): string {
  const body = Array.from({ length: lines - 3 }, (_, i) => `  const v${i} = ${i};`).join('\n');
  return `export function long(): number {\n${body}\n  return 0;\n}\n`;
}

async function longFunctions(eslint: ESLint, filePath: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath: join(root, filePath) });
  const messages = result?.messages ?? [];
  expect(messages.filter((m) => m.fatal)).toEqual([]);
  return messages.filter((m) => m.ruleId === RULE).length;
}

describe('functions of at most 150 lines in product code', () => {
  it.each([
    'electron/core/jobs/planted.ts',
    'electron/shared/planted.ts',
    'renderer/src/features/planted.tsx',
  ])('refuses a function of 151 lines in %s and takes one of 150', async (file) => {
    expect(await longFunctions(configured, file, functionOf(151))).toBe(1);
    expect(await longFunctions(configured, file, functionOf(150))).toBe(0);
  });

  it('leaves tests alone', async () => {
    expect(await longFunctions(configured, 'test/core/planted.test.ts', functionOf(400))).toBe(0);
  });

  it('lists each file still to split once, and each still holds a function over the limit', async () => {
    expect(new Set(stillToSplit).size).toBe(stillToSplit.length);
    const done: string[] = [];
    for (const file of stillToSplit) {
      expect(existsSync(join(root, file)), `${file} is listed but does not exist`).toBe(true);
      const count = await longFunctions(forced, file, readFileSync(join(root, file), 'utf8'));
      if (count === 0) done.push(file);
    }
    expect(done, 'split: remove these from stillToSplit in eslint-rules/function-length.json').toEqual([]);
  });
});
