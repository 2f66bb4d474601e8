/**
 * The lexicon file of a data directory: entries added, edited, removed and imported with the
 * version growing each time, written whole (temp file, rename), read again when another process
 * changed it, and a damaged file never failing a render nor being overwritten.
 */

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLexiconStore, lexiconPath } from '../../../electron/core/lexicon/lexicon-store';
import type { Log } from '../../../electron/core/platform/log';
import { parseLexicon } from '../../../electron/core/lexicon/lexicon-file-reader';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexicon-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const siobhan = { language: 'en', match: 'Siobhan', kind: 'ipa', replacement: 'ʃɪˈvɔːn' } as const;

describe('the lexicon store', () => {
  it('starts empty at version 0, without a file', async () => {
    const store = createLexiconStore({ dataDir: dir });
    expect(await store.read()).toEqual({ version: 0, items: [] });
    expect(await store.entriesFor('en')).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('adds, edits and removes entries, the version growing with each change', async () => {
    const store = createLexiconStore({ dataDir: dir });
    const added = await store.add(siobhan);
    expect(added.version).toBe(1);
    expect(added.entry).toMatchObject({ ...siobhan, case_sensitive: false, whole_word: true });
    const vi = await store.add({ language: 'vi', match: 'HN', kind: 'respell', replacement: 'Hà Nội' });
    expect(vi.version).toBe(2);
    expect((await store.entriesFor('en')).map((e) => e.match)).toEqual(['Siobhan']);

    const edited = await store.update(added.entry.id, {
      ...siobhan,
      replacement: 'ʃəˈvoʊn',
      note: 'her way',
    });
    expect(edited).toMatchObject({
      version: 3,
      entry: { id: added.entry.id, replacement: 'ʃəˈvoʊn', note: 'her way' },
    });
    expect(await store.get(added.entry.id)).toEqual(edited.entry);

    expect(await store.remove(vi.entry.id)).toEqual({ version: 4, id: vi.entry.id });
    expect(await store.read()).toEqual({ version: 4, items: [edited.entry] });

    // All of it is in the file, in full, and nothing temporary is left beside it.
    const file = JSON.parse(readFileSync(lexiconPath(dir), 'utf8'));
    expect(file).toEqual({ format: 'narration-studio-lexicon/1', version: 4, entries: [edited.entry] });
    expect(readdirSync(dir)).toEqual(['lexicon.json']);
  });

  it('refuses a second entry for the same match, bad entries and unknown ids, and changes nothing then', async () => {
    const store = createLexiconStore({ dataDir: dir });
    const { entry } = await store.add(siobhan);
    await expect(store.add({ ...siobhan, match: 'SIOBHAN', replacement: 'x' })).rejects.toMatchObject({
      code: 'INVALID_FIELD',
      details: { field: 'match', id: entry.id },
    });
    // Case-sensitive, it is another entry.
    await store.add({ ...siobhan, case_sensitive: true });
    await expect(store.add({ ...siobhan, match: 'X', replacement: 'ʘ' })).rejects.toMatchObject({
      code: 'INVALID_FIELD',
      details: { field: 'replacement' },
    });
    await expect(store.add({ ...siobhan, language: 'de' } as never)).rejects.toMatchObject({
      code: 'INVALID_FIELD',
      details: { field: 'language' },
    });
    await expect(store.update('nope', siobhan)).rejects.toMatchObject({ code: 'LEXICON_ENTRY_NOT_FOUND' });
    await expect(store.remove('nope')).rejects.toMatchObject({ code: 'LEXICON_ENTRY_NOT_FOUND' });
    await expect(store.get('nope')).rejects.toMatchObject({ code: 'LEXICON_ENTRY_NOT_FOUND' });
    expect((await store.read()).version).toBe(2);
  });

  it('keeps every change of many at once, one after another', async () => {
    const store = createLexiconStore({ dataDir: dir });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.add({ language: 'en', match: `word${i}`, kind: 'respell', replacement: `say ${i}` }),
      ),
    );
    const { version, items } = await store.read();
    expect(version).toBe(20);
    expect(items).toHaveLength(20);
  });

  it('reads the file again when another process changed it', async () => {
    const server = createLexiconStore({ dataDir: dir });
    const command = createLexiconStore({ dataDir: dir });
    await server.add(siobhan);
    expect(await server.entriesFor('en')).toHaveLength(1);
    await command.add({ language: 'en', match: 'GIF', kind: 'respell', replacement: 'jif' });
    expect((await server.entriesFor('en')).map((e) => e.match)).toEqual(['Siobhan', 'GIF']);
    // The server's next change starts from the file as it is now.
    await server.add({ language: 'en', match: 'SQL', kind: 'respell', replacement: 'sequel' });
    expect((await command.read()).items.map((e) => e.match)).toEqual(['Siobhan', 'GIF', 'SQL']);
    expect((await command.read()).version).toBe(3);
  });

  it('imports a file: new entries added, the same match updated, the rest of its languages removed with replace', async () => {
    const store = createLexiconStore({ dataDir: dir });
    const kept = (await store.add(siobhan)).entry;
    await store.add({ language: 'en', match: 'GIF', kind: 'respell', replacement: 'gif' });
    await store.add({ language: 'fr', match: 'SNCF', kind: 'respell', replacement: 'ès ène cé èf' });
    const csv =
      'language,match,kind,replacement\nen,siobhan,ipa,ʃɪˈvɔːn\nen,gif,respell,jif\nen,SQL,respell,sequel\n';
    const merged = await store.importEntries(parseLexicon(csv, 'csv'));
    expect(merged).toEqual({ version: 4, added: 1, updated: 2, unchanged: 0, removed: 0 });
    // The matched entry keeps its id; its match is now as the file writes it.
    expect(await store.get(kept.id)).toMatchObject({ match: 'siobhan' });
    const again = await store.importEntries(parseLexicon(csv, 'csv'));
    expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 3 });

    const replaced = await store.importEntries(
      parseLexicon('language,match,kind,replacement\nen,SQL,respell,S Q L\n', 'csv'),
      {
        replace: true,
      },
    );
    // The English entries the file lacks go; the French one stays.
    expect(replaced).toEqual({ version: 6, added: 0, updated: 1, unchanged: 0, removed: 2 });
    expect((await store.read()).items.map((e) => e.replacement)).toEqual(['ès ène cé èf', 'S Q L']);
  });

  it('counts a damaged file as empty for renders, and refuses to overwrite it', async () => {
    const warnings: string[] = [];
    const log: Log = { info: () => undefined, warn: (m) => warnings.push(m) };
    writeFileSync(lexiconPath(dir), '{"format": "narration-studio-lexicon/1", "version": 3, "entries": [');
    const store = createLexiconStore({ dataDir: dir, log });
    expect(await store.entriesFor('en')).toEqual([]);
    expect(warnings.join('\n')).toMatch(/lexicon\.json: not JSON .*counts as empty until it is repaired/);
    await expect(store.add(siobhan)).rejects.toMatchObject({
      code: 'LEXICON_FILE_INVALID',
      message: expect.stringContaining('repair or remove it'),
    });
    expect(readFileSync(lexiconPath(dir), 'utf8')).toMatch(/"entries": \[$/);
    // Repaired by hand: it is read again.
    writeFileSync(
      lexiconPath(dir),
      JSON.stringify({ format: 'narration-studio-lexicon/1', version: 3, entries: [] }),
    );
    expect((await store.add(siobhan)).version).toBe(4);
  });
});
