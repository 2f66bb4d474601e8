/**
 * The interface's message catalogues (renderer/src/i18n/messages): every message the code uses
 * is in en.json as written in the code, vi.json has every message of en.json and no other, with
 * the same placeholders, and `formatjs verify` (the check CONTRIBUTING.md tells a translator to
 * run) fails on a catalogue that lacks a message.
 */

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const FORMATJS = join(ROOT, 'node_modules', '.bin', 'formatjs');
const MESSAGES = join(ROOT, 'renderer', 'src', 'i18n', 'messages');

type Catalogue = Record<string, string>;
const readCatalogue = async (path: string): Promise<Catalogue> =>
  JSON.parse(await readFile(path, 'utf8')) as Catalogue;

/** A message's placeholders, "name:kind" (plural, select, number, date, tag…), nested ones too. */
function placeholders(message: string): string[] {
  const found = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const e of elements) {
      if (e.type === TYPE.literal || e.type === TYPE.pound) continue;
      found.add(`${e.value}:${TYPE[e.type]}`);
      if (e.type === TYPE.plural || e.type === TYPE.select)
        for (const option of Object.values(e.options)) walk(option.value);
      if (e.type === TYPE.tag) walk(e.children);
    }
  };
  walk(parse(message));
  return [...found].sort();
}

async function verify(...files: string[]): Promise<{ code: number; output: string }> {
  try {
    const r = await run(FORMATJS, [
      'verify',
      '--source-locale',
      'en',
      '--missing-keys',
      '--extra-keys',
      '--structural-equality',
      ...files,
    ]);
    return { code: 0, output: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : 1, output: `${err.stdout}${err.stderr}` };
  }
}

describe('message catalogues', () => {
  let dir: string;
  let used: Catalogue;
  let en: Catalogue;
  let vi: Catalogue;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'i18n-'));
    const extracted = join(dir, 'extracted.json');
    await run(
      FORMATJS,
      ['extract', 'renderer/src/**/*.{ts,tsx}', '--format', 'simple', '--out-file', extracted],
      { cwd: ROOT },
    );
    used = await readCatalogue(extracted);
    en = await readCatalogue(join(MESSAGES, 'en.json'));
    vi = await readCatalogue(join(MESSAGES, 'vi.json'));
  }, 60_000);
  afterAll(async () => dir && rm(dir, { recursive: true, force: true }));

  it('en.json is what the code says: every id used, as written, and no id left over', () => {
    expect(Object.keys(used).length).toBeGreaterThan(100);
    // `npx formatjs extract 'renderer/src/**/*.{ts,tsx}' --format simple --out-file renderer/src/i18n/messages/en.json`
    expect(en).toEqual(used);
  });

  it('vi.json has every id used in code, no other, each with the same placeholders as English', () => {
    expect(Object.keys(vi).sort()).toEqual(Object.keys(used).sort());
    for (const [id, message] of Object.entries(used)) {
      expect({ id, placeholders: placeholders(vi[id]!) }).toEqual({
        id,
        placeholders: placeholders(message),
      });
    }
  });

  it('Vietnamese messages are translated (with Vietnamese letters), not copies of the English', () => {
    const same = Object.keys(en).filter(
      (id) => vi[id] === en[id] && /[a-z]{4}/i.test(en[id]!.replace(/{[^}]*}|<[^>]*>/g, '')),
    );
    // Names, formats and symbols may stay as they are; sentences may not.
    expect(same.filter((id) => en[id]!.split(' ').length > 3)).toEqual([]);
    const withVietnamese = Object.values(vi).filter((m) =>
      /[ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]/i.test(m),
    );
    expect(withVietnamese.length / Object.keys(vi).length).toBeGreaterThan(0.8);
  });

  it('formatjs verify passes on the catalogues and fails on one that lacks a message or a placeholder', async () => {
    const en = join(MESSAGES, 'en.json');
    expect(await verify(en, join(MESSAGES, 'vi.json'))).toMatchObject({ code: 0 });

    const missing = { ...vi };
    delete missing['settings.title'];
    const missingFile = join(dir, 'vi.json');
    await writeFile(missingFile, JSON.stringify(missing));
    const r = await verify(en, missingFile);
    expect(r.code).toBe(1);
    expect(r.output).toContain('settings.title');

    const wrongDir = await mkdtemp(join(dir, 'vi-'));
    const wrongFile = join(wrongDir, 'vi.json');
    await writeFile(wrongFile, JSON.stringify({ ...vi, 'lexicon.editHeading': 'Sửa “{word}”' }));
    expect((await verify(en, wrongFile)).code).toBe(1);
  }, 60_000);
});
