/**
 * The pronunciation lexicon of a data directory: `<data-dir>/lexicon.json`, read and written
 * by this module alone. The file holds `{ "format", "version", "entries" }`; `version` grows
 * by one with every change, so speech made with the lexicon can tell it is stale.
 *
 * Writes go to a temporary file renamed over the old one (StagedFile), one at a time. The file
 * is read again whenever it changed on disk (its size or modification time), so an edit by the
 * `lexicon` command reaches a running server at its next render; every change starts from the
 * file as it is on disk. A damaged file never fails a render (it counts as empty and is
 * reported on the log), but it is never overwritten either: changes are refused with
 * LEXICON_FILE_INVALID until it is repaired or removed.
 */

import { randomUUID } from 'node:crypto';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import {
  entryKey,
  LexiconEntrySchema,
  LexiconEntryInputSchema,
  MAX_LEXICON_ENTRIES,
  prepareEntry,
  type Lexicon,
  type LexiconEntry,
  type LexiconEntryInput,
  type LexiconImportResult,
} from '../../shared/lexicon';
import type { ImportedEntry } from '../../shared/lexicon-files';
import { AppError } from '../../shared/errors';
import type { LanguageCode } from '../../shared/voices';
import { silentLog, type Log } from '../platform/log';
import { StagedFile } from '../platform/staged-file';
import { lexiconPath } from './layout';

export { LEXICON_FILE, lexiconPath } from './layout';

const FORMAT = 'narration-studio-lexicon/1';

const LexiconFileSchema = Type.Object({
  format: Type.Literal(FORMAT),
  version: Type.Integer({ minimum: 0 }),
  entries: Type.Array(LexiconEntrySchema),
});
type LexiconFile = Static<typeof LexiconFileSchema>;

export interface LexiconStore {
  /** The file this store keeps. */
  readonly path: string;
  /** All entries and the version (what GET /api/v1/lexicon answers). Never rejects for a damaged file: it reads as empty. */
  read(): Promise<Lexicon>;
  /**
   * The entries of one language, for a render (`RenderRequest.lexicon`). Never rejects: a file
   * that cannot be read counts as empty, and the log says why.
   */
  entriesFor(language: LanguageCode): Promise<LexiconEntry[]>;
  /** One entry; LEXICON_ENTRY_NOT_FOUND when there is none with this id. */
  get(id: string): Promise<LexiconEntry>;
  /**
   * Adds an entry. INVALID_FIELD when it breaks a rule (`prepareEntry`) or when the language
   * already has an entry for the same match and case rule (edit that one instead).
   */
  add(input: LexiconEntryInput): Promise<{ version: number; entry: LexiconEntry }>;
  /** Replaces an entry's fields (all of them, as `add` takes them); the id stays. */
  update(id: string, input: LexiconEntryInput): Promise<{ version: number; entry: LexiconEntry }>;
  remove(id: string): Promise<{ version: number; id: string }>;
  /**
   * Adds entries read from a file (`parseLexicon` of lexicon-file-reader.ts): one with the same
   * language, case rule and match as a stored entry replaces that entry's fields (its id stays);
   * with `replace`, stored entries of the file's languages that the file does not have are
   * removed (other languages stay: a PLS file holds one language).
   */
  importEntries(
    entries: readonly ImportedEntry[],
    options?: { replace?: boolean },
  ): Promise<LexiconImportResult>;
}

function sameEntry(a: LexiconEntry, b: LexiconEntry): boolean {
  return (
    a.language === b.language &&
    a.match === b.match &&
    a.kind === b.kind &&
    a.replacement === b.replacement &&
    a.case_sensitive === b.case_sensitive &&
    a.whole_word === b.whole_word &&
    (a.note ?? '') === (b.note ?? '')
  );
}

export interface LexiconStoreOptions {
  /** The data directory; the file is `<dataDir>/lexicon.json`. */
  dataDir: string;
  log?: Log;
}

export function createLexiconStore({ dataDir, log = silentLog }: LexiconStoreOptions): LexiconStore {
  const path = lexiconPath(dataDir);
  const { load, change } = openLexiconFile(path, log);
  return {
    path,
    async read() {
      const { file } = await load();
      return { version: file.version, items: file.entries };
    },
    async entriesFor(language) {
      try {
        const { file } = await load();
        return file.entries.filter((e) => e.language === language);
      } catch (error) {
        log.warn(`${(error as Error).message}; speaking without the lexicon`);
        return [];
      }
    },
    async get(id) {
      const { file } = await load();
      const entry = file.entries.find((e) => e.id === id);
      if (!entry) throw notFound(id);
      return entry;
    },
    async add(input) {
      const prepared = prepare(input);
      return change((entries) => {
        refuseDuplicate(entries, prepared);
        const entry: LexiconEntry = { id: randomUUID(), ...prepared };
        return { entries: [...entries, entry], result: (version) => ({ version, entry }) };
      });
    },
    async update(id, input) {
      const prepared = prepare(input);
      return change((entries) => {
        const at = entries.findIndex((e) => e.id === id);
        if (at < 0) throw notFound(id);
        refuseDuplicate(entries, prepared, id);
        const entry: LexiconEntry = { id, ...prepared };
        entries[at] = entry;
        return { entries, result: (version) => ({ version, entry }) };
      });
    },
    remove(id) {
      return change((entries) => {
        if (!entries.some((e) => e.id === id)) throw notFound(id);
        return { entries: entries.filter((e) => e.id !== id), result: (version) => ({ version, id }) };
      });
    },
    importEntries(imported, { replace = false } = {}) {
      return change((entries) => mergeImported(entries, imported, replace));
    },
  };
}

/** The lexicon's file: read (cached while its size and time stay), and changed one change at a time. */
function openLexiconFile(path: string, log: Log) {
  let cached: { file: LexiconFile; stamp: string; damaged?: string } | undefined;
  /** Changes run one after another. */
  let queue: Promise<unknown> = Promise.resolve();

  /** The file as on disk (cached while its size and time stay); `damaged` says why it could not be read. */
  const load = async (): Promise<{ file: LexiconFile; damaged?: string }> => {
    let stamp: string;
    try {
      const info = await stat(path);
      stamp = `${info.size}:${info.mtimeMs}:${info.ino}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw readError(error);
      stamp = 'none';
    }
    if (cached?.stamp === stamp) return cached;
    let text: string | undefined;
    try {
      text = stamp === 'none' ? undefined : await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw readError(error);
    }
    const next: { file: LexiconFile; stamp: string; damaged?: string } = {
      file: { format: FORMAT, version: 0, entries: [] },
      stamp,
    };
    if (text !== undefined) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        next.damaged = `not JSON (${(error as Error).message})`;
      }
      if (next.damaged === undefined) {
        if (Value.Check(LexiconFileSchema, value)) next.file = value;
        else next.damaged = 'not a lexicon file of this app';
      }
      if (next.damaged)
        log.warn(`${path}: ${next.damaged}; the lexicon counts as empty until it is repaired`);
    }
    cached = next;
    return next;
  };

  const readError = (error: unknown) =>
    new AppError(
      'LEXICON_FILE_INVALID',
      `The lexicon ${path} cannot be read: ${(error as Error).message}`,
      undefined,
      {
        cause: error,
      },
    );

  const write = async (file: LexiconFile): Promise<void> => {
    await mkdir(dirname(path), { recursive: true });
    const staged = await StagedFile.create(path, 'the lexicon');
    try {
      await staged.write(`${JSON.stringify(file, null, 2)}\n`);
      await staged.commit();
    } catch (error) {
      await staged.discard();
      throw error;
    }
    cached = undefined;
  };

  /** Runs a change on the file as on disk, in turn; `change` returns the new entries and its answer. */
  const change = <T>(
    apply: (entries: LexiconEntry[]) => { entries: LexiconEntry[]; result: (version: number) => T },
  ): Promise<T> => {
    const run = queue.then(async () => {
      const { file, damaged } = await load();
      if (damaged)
        throw new AppError(
          'LEXICON_FILE_INVALID',
          `The lexicon file ${path} is damaged (${damaged}); repair or remove it before changing the lexicon.`,
        );
      const { entries, result } = apply(file.entries.map((e) => ({ ...e })));
      if (entries.length > MAX_LEXICON_ENTRIES)
        throw new AppError('INVALID_FIELD', `A lexicon holds ${MAX_LEXICON_ENTRIES} entries at most.`);
      const version = file.version + 1;
      await write({ format: FORMAT, version, entries });
      return result(version);
    });
    queue = run.catch(() => undefined);
    return run;
  };
  return { load, change };
}

/** An entry as given, checked and prepared; an INVALID_FIELD error when it is not valid. */
function prepare(input: LexiconEntryInput): Omit<LexiconEntry, 'id'> {
  if (!Value.Check(LexiconEntryInputSchema, input)) {
    const error = [...Value.Errors(LexiconEntryInputSchema, input)][0];
    const field = error?.path.replace(/^\//, '') || 'entry';
    throw new AppError('INVALID_FIELD', `Invalid lexicon field ${field}: ${error?.message ?? 'not valid'}.`, {
      field,
    });
  }
  return preparedEntry(input);
}

/** An entry as given, prepared by its rules (`prepareEntry`); INVALID_FIELD when it breaks one. */
export function preparedEntry(input: LexiconEntryInput): Omit<LexiconEntry, 'id'> {
  const prepared = prepareEntry(input);
  if (!prepared.ok)
    throw new AppError('INVALID_FIELD', prepared.problem.message, {
      field: prepared.problem.field,
      ...prepared.problem.ipa,
    });
  return prepared.entry;
}

/** The error for an entry the lexicon does not have. */
function notFound(id: string): AppError {
  return new AppError('LEXICON_ENTRY_NOT_FOUND', `The lexicon has no entry "${id}".`, { id });
}

/** Refuses an entry the lexicon has already (under another id than `self`). */
function refuseDuplicate(entries: readonly LexiconEntry[], entry: Omit<LexiconEntry, 'id'>, self?: string) {
  const key = entryKey(entry);
  const other = entries.find((e) => e.id !== self && entryKey(e) === key);
  if (other)
    throw new AppError(
      'INVALID_FIELD',
      `The ${entry.language} lexicon already has an entry for "${other.match}" (${other.id}); edit it instead.`,
      { field: 'match', id: other.id },
    );
}

/** The entries after an import: new ones added, same-key ones updated, and with `replace` the rest of those languages removed. */
function mergeImported(entries: LexiconEntry[], imported: readonly ImportedEntry[], replace: boolean) {
  const byKey = new Map(entries.map((e, i) => [entryKey(e), i]));
  const seen = new Set<string>();
  let added = 0;
  let updated = 0;
  let unchanged = 0;
  const next = [...entries];
  for (const entry of imported) {
    const key = entryKey(entry);
    seen.add(key);
    const at = byKey.get(key);
    if (at === undefined) {
      byKey.set(key, next.length);
      next.push({ id: randomUUID(), ...entry });
      added++;
      continue;
    }
    const old = next[at] as LexiconEntry;
    const merged: LexiconEntry = { id: old.id, ...entry };
    if (sameEntry(merged, old)) unchanged++;
    else {
      next[at] = merged;
      updated++;
    }
  }
  const languages = new Set(imported.map((e) => e.language));
  const kept = replace ? next.filter((e) => !languages.has(e.language) || seen.has(entryKey(e))) : next;
  const removed = next.length - kept.length;
  return {
    entries: kept,
    result: (version: number) => ({ version, added, updated, unchanged, removed }),
  };
}
