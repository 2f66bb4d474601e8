/**
 * The PostgreSQL run's selection (vitest.postgres.config.ts) is a short list, not every server
 * test: a test written to run only on PostgreSQL must be in it, or it never runs anywhere.
 */

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import postgresConfig from '../vitest.postgres.config';
import { testTiers } from './tiers';

const include = postgresConfig.test?.include ?? [];

/** Whether `file` is matched by one of the config's patterns (exact files, or `dir/**\/*.test.ts`). */
function selected(file: string): boolean {
  return include.some((pattern) =>
    pattern.includes('**') ? file.startsWith(pattern.slice(0, pattern.indexOf('**'))) : file === pattern,
  );
}

/** A test (or describe) that runs only when the tests' database is PostgreSQL. */
const ONLY_ON_POSTGRES = /\.(skipIf\(\s*!onPostgres\s*\)|runIf\(\s*onPostgres\s*\))/;

describe('the PostgreSQL run', () => {
  it('reads its selection', () => {
    expect(selected('test/core/store/store.test.ts')).toBe(true);
    expect(selected('test/core/server/api.test.ts')).toBe(true);
    expect(selected('test/core/server/lexicon.test.ts')).toBe(false);
    // Split so this file's own text shows no such test.
    expect(ONLY_ON_POSTGRES.test('it.skipIf' + '(!onPostgres)(')).toBe(true);
    expect(ONLY_ON_POSTGRES.test('describe.skipIf' + '(onPostgres)(')).toBe(false);
  });

  it('includes every file holding a test that runs only on PostgreSQL', () => {
    const { fast, slow } = testTiers();
    const onlyThere = [...fast, ...slow].filter((file) => ONLY_ON_POSTGRES.test(readFileSync(file, 'utf8')));
    expect(onlyThere.length).toBeGreaterThan(0);
    expect(onlyThere.filter((file) => !selected(file))).toEqual([]);
  });
});
