/**
 * The PostgreSQL backend's low layer against a real, throwaway server (`test/fixtures/postgres.ts`):
 * placeholders and value types, transactions (commit, rollback, a real deadlock retried), the
 * migrated schema against SQLite's, several instances migrating at once, start-up errors, and
 * notifications between instances, across a killed notification connection too.
 */

import sqlite from 'node-sqlite3-wasm';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../electron/core/store/migrations';
import {
  openPostgresDatabase,
  POSTGRES_SCHEMA_VERSION,
  redactPostgresUrl,
  toPostgresPlaceholders,
  type OpenPostgresOptions,
} from '../../../electron/core/store/postgres-database';
import { POSTGRES_MIGRATIONS } from '../../../electron/core/store/postgres-migrations';
import type { Db } from '../../../electron/core/store/sql';
import { AppError } from '../../../electron/shared/errors';
import { createTestDatabase, freePort, postgresSkipReason, withClient } from '../../fixtures/postgres';

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A new database on the test server, dropped after the test. */
async function database(): Promise<string> {
  const created = await createTestDatabase();
  cleanups.push(() => created.drop());
  return created.url;
}

/** Opens (and migrates) `url`, closed after the test. */
async function open(url: string, options?: OpenPostgresOptions): Promise<Db> {
  const db = await openPostgresDatabase(url, options);
  cleanups.push(() => db.close());
  return db;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a rejection');
}

const recordingLog = () => {
  const lines: string[] = [];
  return {
    lines,
    log: { info: (m: string) => lines.push(`info: ${m}`), warn: (m: string) => lines.push(`warn: ${m}`) },
  };
};

describe('PostgreSQL migrations list', () => {
  it('has one entry per SQLite migration, so one schema version covers both', () => {
    expect(POSTGRES_MIGRATIONS.length).toBe(MIGRATIONS.length);
    expect(POSTGRES_SCHEMA_VERSION).toBe(MIGRATIONS.length);
  });
});

describe('placeholders and redaction (no server)', () => {
  it('numbers ? outside literals, quoted names and comments', () => {
    expect(toPostgresPlaceholders(`SELECT a FROM t WHERE b = ? AND c IN (?, ?)`)).toBe(
      `SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)`,
    );
    expect(
      toPostgresPlaceholders(`SELECT 'what?', 'it''s ?', "odd?name", ? -- really?\n, ? /* ? */, ?`),
    ).toBe(`SELECT 'what?', 'it''s ?', "odd?name", $1 -- really?\n, $2 /* ? */, $3`);
    expect(toPostgresPlaceholders('SELECT 1')).toBe('SELECT 1');
  });

  it('hides the password of a URL', () => {
    expect(redactPostgresUrl('postgres://narrator:s3cr%40t@db.example:5432/studio?sslmode=require')).toBe(
      'postgres://narrator:***@db.example:5432/studio?sslmode=require',
    );
    expect(redactPostgresUrl('postgres://postgres@127.0.0.1:5432/postgres')).toBe(
      'postgres://postgres@127.0.0.1:5432/postgres',
    );
    expect(redactPostgresUrl('postgresql://h/db?user=u&password=p')).toBe(
      'postgresql://h/db?user=u&password=***',
    );
    expect(redactPostgresUrl('host=h password=secret dbname=d')).toBe('host=h password=*** dbname=d');
  });
});

const skip = postgresSkipReason();

describe.skipIf(skip !== undefined)('PostgreSQL database (real server)', () => {
  it('translates placeholders and gives BIGINT, COUNT, NUMERIC and DOUBLE PRECISION as numbers', async () => {
    const db = await open(await database());
    expect(db.dialect).toBe('postgres');
    expect(db.exclusive).toBe(false);
    await db.run(
      'CREATE TABLE sample (at BIGINT NOT NULL, rate DOUBLE PRECISION NOT NULL, note TEXT, flag INTEGER NOT NULL)',
    );
    const at = 1_795_000_000_123;
    await db.run(`INSERT INTO sample (at, rate, note, flag) VALUES (?, ?, 'what?', ?)`, [at, 1.25, 1]);
    await db.run('INSERT INTO sample (at, rate, note, flag) VALUES (?, ?, ?, ?)', [at + 1, 0.5, null, 0]);
    const row = await db.get<{ at: unknown; rate: unknown; note: unknown; flag: unknown }>(
      'SELECT at, rate, note, flag FROM sample WHERE at = ?',
      [at],
    );
    expect(row).toEqual({ at, rate: 1.25, note: 'what?', flag: 1 });
    const counts = await db.get<{ n: unknown; total: unknown; mean: unknown }>(
      'SELECT COUNT(*) AS n, SUM(at) AS total, AVG(rate) AS mean FROM sample',
    );
    expect(counts).toEqual({ n: 2, total: 2 * at + 1, mean: 0.875 });
    expect(await db.get('SELECT at FROM sample WHERE at = ?', [0])).toBeUndefined();
    expect(await db.all<{ at: number }>('SELECT at FROM sample ORDER BY at')).toEqual([
      { at },
      { at: at + 1 },
    ]);
    // Booleans go through as booleans (for PostgreSQL's own boolean expressions).
    expect(await db.get('SELECT ? AS yes', [true])).toEqual({ yes: 'true' });
    expect(await db.get('SELECT (?::boolean) AS yes', [true])).toEqual({ yes: true });
  });

  it('reports the rows a write changed', async () => {
    const db = await open(await database());
    await db.run('CREATE TABLE items (id INTEGER PRIMARY KEY, state TEXT NOT NULL)');
    expect((await db.run(`INSERT INTO items VALUES (1, 'a'), (2, 'a'), (3, 'b')`)).changes).toBe(3);
    expect((await db.run('UPDATE items SET state = ? WHERE state = ?', ['c', 'a'])).changes).toBe(2);
    expect((await db.run('DELETE FROM items WHERE id = ?', [42])).changes).toBe(0);
    const inserted = await db.get<{ id: number }>(`INSERT INTO items VALUES (?, ?) RETURNING id`, [4, 'd']);
    expect(inserted).toEqual({ id: 4 });
  });

  it('commits a transaction that resolves and rolls back one that rejects', async () => {
    const db = await open(await database());
    await db.run('CREATE TABLE entries (name TEXT PRIMARY KEY)');
    const result = await db.transaction(async (tx) => {
      await tx.run('INSERT INTO entries VALUES (?)', ['kept']);
      return (await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM entries'))!.n;
    });
    expect(result).toBe(1);

    const failure = new Error('changed my mind');
    let attempts = 0;
    let leaked: ReturnType<typeof db.transaction> | undefined;
    await expect(
      db.transaction(async (tx) => {
        attempts++;
        await tx.run('INSERT INTO entries VALUES (?)', ['dropped']);
        // Inside the transaction the row is there; beside it, on the pool, it is not (yet).
        expect(await tx.get('SELECT name FROM entries WHERE name = ?', ['dropped'])).toEqual({
          name: 'dropped',
        });
        expect(await db.get('SELECT name FROM entries WHERE name = ?', ['dropped'])).toBeUndefined();
        leaked = Promise.resolve(tx) as never;
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(attempts).toBe(1); // an ordinary error is not retried
    expect(await db.all('SELECT name FROM entries ORDER BY name')).toEqual([{ name: 'kept' }]);
    // A statement on a transaction that has ended is refused, never run outside it.
    const tx = (await leaked) as unknown as { run(sql: string): Promise<unknown> };
    await expect(tx.run(`INSERT INTO entries VALUES ('late')`)).rejects.toThrow(/transaction that has ended/);
    expect(await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM entries')).toEqual({ n: 1 });
  });

  it('re-runs the transaction PostgreSQL chose as a deadlock victim; both commit', async () => {
    const db = await open(await database());
    await db.run('CREATE TABLE pair (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)');
    await db.run('INSERT INTO pair VALUES (1, 0), (2, 0)');
    // Each locks one row, waits until the other has locked the other row, then wants it:
    // a real deadlock on the first run; the re-run goes through once the survivor commits.
    // The error that ended each run that did not commit (a run may also meet the other's locks
    // again when it starts before the survivor commits, on a loaded machine: each such run must
    // end in an error PostgreSQL says can be retried).
    const ended: string[] = [];
    const runs = { a: 0, b: 0 };
    const holds = { a: deferred(), b: deferred() };
    const crossing = (name: 'a' | 'b', first: number, second: number, add: number) =>
      db.transaction(async (tx) => {
        try {
          runs[name]++;
          await tx.run('UPDATE pair SET v = v + ? WHERE id = ?', [add, first]);
          if (runs[name] === 1) {
            holds[name].resolve();
            await holds[name === 'a' ? 'b' : 'a'].promise;
          }
          await tx.run('UPDATE pair SET v = v + ? WHERE id = ?', [add, second]);
          return name;
        } catch (error) {
          ended.push(String((error as { code?: string }).code));
          throw error;
        }
      });
    const a = crossing('a', 1, 2, 1);
    const b = crossing('b', 2, 1, 10);
    expect(await Promise.all([a, b])).toEqual(['a', 'b']);
    // The first runs deadlocked: PostgreSQL ended one (40P01) and it ran again.
    expect(ended[0]).toBe('40P01');
    expect(ended.every((code) => code === '40P01' || code === '40001')).toBe(true);
    expect(runs.a + runs.b).toBe(2 + ended.length);
    expect(await db.all('SELECT id, v FROM pair ORDER BY id')).toEqual([
      { id: 1, v: 11 },
      { id: 2, v: 11 },
    ]);
  });

  it('migrates to the same tables, columns and indexes as SQLite', async () => {
    const url = await database();
    const db = await open(url);

    const lite = new sqlite.Database();
    const expected: Record<string, { column: string; nullable: boolean | undefined }[]> = {};
    let expectedIndexes: string[];
    try {
      for (const migration of MIGRATIONS) for (const statement of migration) lite.run(statement);
      const tables = lite.all(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`,
      );
      for (const { name } of tables as { name: string }[]) {
        const columns = lite.all(`PRAGMA table_info(${name})`) as {
          name: string;
          notnull: number;
          pk: number;
        }[];
        // SQLite lets a TEXT primary key be NULL (a quirk); PostgreSQL does not: compare the others.
        expected[name] = columns.map((c) => ({
          column: c.name,
          nullable: c.pk > 0 ? undefined : c.notnull === 0,
        }));
      }
      expectedIndexes = (
        lite.all(
          `SELECT tbl_name || '.' || name AS name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex_%'`,
        ) as { name: string }[]
      )
        .map((r) => r.name)
        .sort();
    } finally {
      lite.close();
    }

    const columns = await db.all<{
      table_name: string;
      column_name: string;
      is_nullable: string;
      pk: boolean;
    }>(
      `SELECT c.table_name, c.column_name, c.is_nullable,
              EXISTS (SELECT 1 FROM information_schema.key_column_usage k
                      JOIN information_schema.table_constraints t
                        ON t.constraint_name = k.constraint_name AND t.table_schema = k.table_schema
                      WHERE t.constraint_type = 'PRIMARY KEY' AND k.table_schema = c.table_schema
                        AND k.table_name = c.table_name AND k.column_name = c.column_name) AS pk
       FROM information_schema.columns c
       WHERE c.table_schema = current_schema() AND c.table_name <> 'schema_version'
       ORDER BY c.table_name, c.ordinal_position`,
    );
    const actual: Record<string, { column: string; nullable: boolean | undefined }[]> = {};
    for (const c of columns) {
      (actual[c.table_name] ??= []).push({
        column: c.column_name,
        nullable: c.pk ? undefined : c.is_nullable === 'YES',
      });
    }
    expect(actual).toEqual(expected);
    expect(Object.keys(actual).sort()).toEqual([
      'api_keys',
      'callback_attempts',
      'custom_voices',
      'exports',
      'idempotency_keys',
      'ledger',
      'project_chapters',
      'project_characters',
      'project_history',
      'project_renders',
      'project_segments',
      'projects',
      'requests',
      'studio_sessions',
    ]);

    const indexes = await db.all<{ name: string }>(
      `SELECT i.tablename || '.' || i.indexname AS name FROM pg_indexes i
       WHERE i.schemaname = current_schema()
         AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname)
       ORDER BY 1`,
    );
    expect(indexes.map((r) => r.name).sort()).toEqual(expectedIndexes);
    expect(expectedIndexes).toContain('requests.requests_leased');

    // Epoch-ms and money columns hold more than 32 bits; the id columns are identities.
    const types = await db.all<{ name: string; data_type: string }>(
      `SELECT table_name || '.' || column_name AS name, data_type FROM information_schema.columns
       WHERE table_schema = current_schema() AND data_type IN ('bigint', 'double precision') ORDER BY 1`,
    );
    expect(types).toEqual([
      { name: 'api_keys.balance_milli', data_type: 'bigint' },
      { name: 'callback_attempts.id', data_type: 'bigint' },
      { name: 'exports.cost_milli', data_type: 'bigint' },
      { name: 'exports.duration_ms', data_type: 'bigint' },
      { name: 'exports.file_bytes', data_type: 'bigint' },
      { name: 'exports.lease_until', data_type: 'bigint' },
      { name: 'exports.pitch_rate', data_type: 'double precision' },
      { name: 'exports.progress', data_type: 'double precision' },
      { name: 'exports.seq', data_type: 'bigint' },
      { name: 'exports.speed_rate', data_type: 'double precision' },
      { name: 'ledger.amount_milli', data_type: 'bigint' },
      { name: 'ledger.balance_after_milli', data_type: 'bigint' },
      { name: 'ledger.id', data_type: 'bigint' },
      { name: 'project_characters.pitch_rate', data_type: 'double precision' },
      { name: 'project_characters.speed_rate', data_type: 'double precision' },
      { name: 'project_renders.cost_milli', data_type: 'bigint' },
      { name: 'project_renders.lease_until', data_type: 'bigint' },
      { name: 'project_renders.seq', data_type: 'bigint' },
      { name: 'project_segments.duration_ms', data_type: 'bigint' },
      { name: 'projects.seq', data_type: 'bigint' },
      { name: 'requests.callback_due_at', data_type: 'bigint' },
      { name: 'requests.cost_milli', data_type: 'bigint' },
      { name: 'requests.lease_until', data_type: 'bigint' },
      { name: 'requests.pitch_rate', data_type: 'double precision' },
      { name: 'requests.seq', data_type: 'bigint' },
      { name: 'requests.speed_rate', data_type: 'double precision' },
      { name: 'studio_sessions.last_used_ms', data_type: 'bigint' },
    ]);
    expect(await db.all('SELECT version FROM schema_version')).toEqual([{ version: MIGRATIONS.length }]);
  });

  it('four instances opening an empty database at once all start; it is migrated once', async () => {
    const url = await database();
    const dbs = await Promise.all([1, 2, 3, 4].map(() => open(url, { poolSize: 2 })));
    expect(dbs).toHaveLength(4);
    expect(await dbs[0]!.all('SELECT version FROM schema_version')).toEqual([{ version: MIGRATIONS.length }]);
    // And every one of them sees the schema.
    for (const db of dbs) expect(await db.get('SELECT COUNT(*) AS n FROM requests')).toEqual({ n: 0 });
    // A later start finds it done and changes nothing.
    await open(url);
    expect(await dbs[1]!.all('SELECT version FROM schema_version')).toEqual([{ version: MIGRATIONS.length }]);
  });

  it('refuses a database of a newer version and leaves it untouched', async () => {
    const url = await database();
    const newer = MIGRATIONS.length + 1;
    await withClient(url, async (client) => {
      await client.query('CREATE TABLE schema_version (version INTEGER NOT NULL)');
      await client.query('INSERT INTO schema_version VALUES ($1)', [newer]);
    });
    const error = await rejection(openPostgresDatabase(url));
    expect(error.code).toBe('DATABASE_TOO_NEW');
    expect(error.message).toContain(`schema version ${newer}, newer than this app's ${MIGRATIONS.length}`);
    expect(error.details).toMatchObject({ version: newer, supported: MIGRATIONS.length });
    await withClient(url, async (client) => {
      const tables = await client.query(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`,
      );
      expect(tables.rows).toEqual([{ table_name: 'schema_version' }]);
      expect((await client.query('SELECT version FROM schema_version')).rows).toEqual([{ version: newer }]);
    });
  });

  it('reports a server it cannot reach as DATABASE_UNAVAILABLE, without the password', async () => {
    const port = await freePort();
    const url = `postgres://narrator:s3cret-pw@127.0.0.1:${port}/studio`;
    const error = await rejection(openPostgresDatabase(url, { connectTimeoutMs: 5000 }));
    expect(error.code).toBe('DATABASE_UNAVAILABLE');
    expect(error.message).toMatch(
      new RegExp(
        `^Could not connect to the PostgreSQL database postgres://narrator:\\*\\*\\*@127\\.0\\.0\\.1:${port}/studio: .*ECONNREFUSED.*\\.$`,
      ),
    );
    expect(error.message).not.toContain('s3cret-pw');
    expect(error.details).toEqual({ path: `postgres://narrator:***@127.0.0.1:${port}/studio` });

    // A server that answers but has no such database: the same code, with the server's reason.
    const missing = new URL(await database());
    missing.pathname = '/no_such_database';
    const refused = await rejection(openPostgresDatabase(missing.toString()));
    expect(refused.code).toBe('DATABASE_UNAVAILABLE');
    expect(refused.message).toContain('database "no_such_database" does not exist');
  });

  it('delivers notifications between two instances until the listener stops', async () => {
    const url = await database();
    const a = await open(url);
    const b = await open(url);
    const heard: string[] = [];
    const heardToo: string[] = [];
    const control: string[] = [];
    const stop = await a.listen('requests_new', (payload) => heard.push(payload));
    const stopToo = await a.listen('requests_new', (payload) => heardToo.push(payload));
    await a.listen('control', (payload) => control.push(payload));

    await b.notify('requests_new', 'from b');
    await a.notify('requests_new', 'from a');
    await waitFor(() => heard.length === 2 && heardToo.length === 2, 'both notifications');
    expect(heard).toEqual(['from b', 'from a']);
    expect(heardToo).toEqual(heard);

    // Notified inside a transaction: heard when it commits, never when it rolls back.
    await b.transaction(async (tx) => {
      await tx.run('SELECT pg_notify(?, ?)', ['requests_new', 'committed']);
    });
    await b
      .transaction(async (tx) => {
        await tx.run('SELECT pg_notify(?, ?)', ['requests_new', 'rolled back']);
        throw new Error('no');
      })
      .catch(() => {});
    // The commit's notification is heard before the handler stops (it is delivered after COMMIT
    // returns, so under load it can come later than the next statement).
    await waitFor(() => heard.length === 3, 'the committed notification');

    stop();
    stop(); // a second call does nothing
    await b.notify('requests_new', 'only the second handler');
    await waitFor(() => heardToo.length === 4, 'the notification for the second handler');
    stopToo();
    await b.notify('requests_new', 'nobody');
    await b.notify('control', 'done');
    await waitFor(() => control.length === 1, 'the control notification');
    expect(heard).toEqual(['from b', 'from a', 'committed']);
    expect(heardToo).toEqual(['from b', 'from a', 'committed', 'only the second handler']);

    await expect(a.listen('Bad"Name', () => {})).rejects.toThrow(/invalid notification channel/);
  });

  it('keeps listening after its notification connection is killed', async () => {
    const url = await database();
    const { lines, log } = recordingLog();
    const a = await open(url, { log });
    const b = await open(url);
    const heard: string[] = [];
    await a.listen('requests_new', (payload) => heard.push(payload));
    await b.notify('requests_new', 'before');
    await waitFor(() => heard.includes('before'), 'the first notification');

    const killed = await b.get<{ n: number }>(
      `SELECT COUNT(pg_terminate_backend(pid)) AS n FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = 'Narration Studio (notifications)'`,
    );
    expect(killed).toEqual({ n: 1 });
    await waitFor(
      () => lines.some((l) => l.startsWith('warn: The PostgreSQL notification connection')),
      'the drop',
    );

    // Notifications sent while it is down are lost: keep sending until one arrives.
    let sent = 0;
    const deadline = Date.now() + 15_000;
    while (!heard.some((p) => p.startsWith('after '))) {
      if (Date.now() > deadline)
        throw new Error(`no notification after the reconnect; log: ${lines.join(' | ')}`);
      await b.notify('requests_new', `after ${++sent}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(lines.some((l) => l.startsWith('info: Reconnected'))).toBe(true);

    // Idle pool connections killed too: the pool drops them and opens new ones.
    await withClient(url, (client) =>
      client.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = 'Narration Studio'`,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await a.get('SELECT 1 AS one')).toEqual({ one: 1 });
    expect(await b.get('SELECT 1 AS one')).toEqual({ one: 1 });
  });

  it('closes once, however often asked, and refuses statements afterwards', async () => {
    const db = await openPostgresDatabase(await database());
    await db.listen('requests_new', () => {});
    await Promise.all([db.close(), db.close()]);
    await db.close();
    await expect(db.get('SELECT 1')).rejects.toThrow(/is closed/);
  });
});
