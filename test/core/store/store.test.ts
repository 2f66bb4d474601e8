import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../electron/shared/errors';
import { openStore, SCHEMA_VERSION, type Store } from '../../../electron/core/store';
import { MIGRATIONS } from '../../../electron/core/store/migrations';
import type { Db } from '../../../electron/core/store/sql';
import { openDatabase } from '../../../electron/core/store/sqlite-database';
import { openReopenableTestStore, type ReopenableTestStore } from '../../fixtures/reopenable-store';
import { onPostgres } from '../../fixtures/test-store';

let dir: string;
let dbPath: string;
const open: Store[] = [];

async function openTracked(path = dbPath): Promise<Store> {
  const store = await openStore({ path });
  open.push(store);
  return store;
}

async function expectAppError(promise: Promise<unknown>, code: string): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe(code);
    return error as AppError;
  }
  throw new Error(`expected ${code}`);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'store-test-'));
  dbPath = join(dir, 'studio.db');
});

afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const key = {
  id: 'key_1',
  name: 'test',
  key_hash: 'a'.repeat(64),
  key_prefix: 'nsk_abc',
  prefix_hash: null,
  signing_secret: 'whsec_x',
  balance_milli: 5000,
  queued: 0,
  created_at: '2025-01-01T00:00:00.000Z',
  revoked_at: null,
};

describe('store (both backends)', () => {
  let t: ReopenableTestStore;
  beforeEach(async () => {
    t = await openReopenableTestStore();
  });
  afterEach(async () => {
    await t.close();
  });

  it('keeps committed data across a close and reopen', async () => {
    await t.store.keys.insert(key);
    await t.store.keys.addBalance('key_1', -250);
    const again = await t.reopen();
    expect(await again.keys.findByHash(key.key_hash)).toMatchObject({ id: 'key_1', balance_milli: 4750 });
  });

  it('finds a key by hash as the last write left it: charges, revocation, rollbacks, a write during a read', async () => {
    const store = t.store;
    const byHash = async () => (await store.keys.findByHash(key.key_hash))!;
    await store.keys.insert(key);
    expect(await byHash()).toMatchObject({ balance_milli: 5000, revoked_at: null });
    // A caller changing its copy changes nothing stored or found.
    (await byHash()).balance_milli = 1;
    expect((await byHash()).balance_milli).toBe(5000);
    await store.transaction(async (tx) => {
      await tx.keys.adjust('key_1', -1000, 1);
      // Inside, the transaction's own write; outside, nothing yet.
      expect(await tx.keys.findByHash(key.key_hash)).toMatchObject({ balance_milli: 4000, queued: 1 });
    });
    expect(await byHash()).toMatchObject({ balance_milli: 4000, queued: 1 });
    await expect(
      store.transaction(async (tx) => {
        await tx.keys.addBalance('key_1', -3000);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await byHash()).balance_milli).toBe(4000);
    // A read and a write at once: whatever the read saw, the next lookup sees the write.
    await Promise.all([byHash(), store.keys.addBalance('key_1', 5), byHash()]);
    expect((await byHash()).balance_milli).toBe(4005);
    await store.keys.revoke('key_1', '2025-01-02T00:00:00.000Z');
    expect((await byHash()).revoked_at).toBe('2025-01-02T00:00:00.000Z');
    await store.keys.setSigningSecret('key_1', 'whsec_y');
    await store.keys.fillPrefixHash('key_1', 'p'.repeat(64));
    expect(await byHash()).toMatchObject({ signing_secret: 'whsec_y', prefix_hash: 'p'.repeat(64) });
    await store.keys.addQueued('key_1', -1);
    expect((await byHash()).queued).toBe(0);
  });

  it('rolls back a transaction that throws', async () => {
    const store = t.store;
    await store.keys.insert(key);
    await expect(
      store.transaction(async (tx) => {
        await tx.keys.addBalance('key_1', -1000);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await store.keys.findById('key_1'))?.balance_milli).toBe(5000);
  });

  it('commits every statement of a transaction together, visible only once it resolves', async () => {
    const store = t.store;
    await store.keys.insert(key);
    const balance = await store.transaction(async (tx) => {
      const after = await tx.keys.addBalance('key_1', -1000);
      await tx.ledger.insert({
        key_id: 'key_1',
        request_id: null,
        kind: 'grant',
        amount_milli: -1000,
        balance_after_milli: after,
        created_at: key.created_at,
      });
      return after;
    });
    expect(balance).toBe(4000);
    expect((await store.keys.findById('key_1'))?.balance_milli).toBe(4000);
    expect((await store.ledger.list('key_1', 10, 0)).rows).toMatchObject([
      { amount_milli: -1000, balance_after_milli: 4000 },
    ]);
  });
});

describe.skipIf(onPostgres)('store (SQLite file)', () => {
  it('creates the schema at the newest version, in WAL mode, and keeps data across reopen', async () => {
    const store = await openTracked();
    await store.keys.insert(key);
    await store.close();
    open.length = 0;
    // WAL is in effect: the -wal file exists while open.
    const again = await openTracked();
    expect(existsSync(`${dbPath}-wal`)).toBe(true);
    expect((await again.keys.findByHash(key.key_hash))?.id).toBe('key_1');
    await again.close();
    open.length = 0;
    // Closing checkpoints the WAL; user_version is the big-endian integer at byte 60 of the header.
    expect(readFileSync(dbPath).readUInt32BE(60)).toBe(MIGRATIONS.length);
  });

  it('refuses a database written by a newer version and leaves the file untouched', async () => {
    const store = await openTracked();
    await store.close();
    open.length = 0;
    // Closing checkpoints the WAL into the file; then bump user_version past what this build knows.
    const header = readFileSync(dbPath);
    // user_version is the big-endian integer at byte offset 60 of the header.
    header.writeUInt32BE(SCHEMA_VERSION + 5, 60);
    writeFileSync(dbPath, header);
    rmSync(`${dbPath}-wal`, { force: true });
    const before = readFileSync(dbPath);
    const error = await expectAppError(openStore({ path: dbPath }), 'DATABASE_TOO_NEW');
    expect(error.message).toContain(`schema version ${SCHEMA_VERSION + 5}`);
    expect(readFileSync(dbPath).equals(before)).toBe(true);
    // The ownership lock was released: a later open fails the same way, not with DATABASE_LOCKED.
    await expectAppError(openStore({ path: dbPath }), 'DATABASE_TOO_NEW');
  });

  it('moves a corrupt file aside with a clear error, never overwriting it, then starts fresh', async () => {
    writeFileSync(dbPath, 'this is not a database, just some text that was here before'.repeat(100));
    const original = readFileSync(dbPath);
    const error = await expectAppError(openStore({ path: dbPath }), 'DATABASE_CORRUPT');
    const aside = readdirSync(dir).find((f) => f.startsWith('studio.db.corrupt-'));
    expect(aside).toBeDefined();
    expect(error.message).toContain(aside!);
    expect(readFileSync(join(dir, aside!)).equals(original)).toBe(true);
    const fresh = await openTracked();
    expect(await fresh.keys.list()).toEqual([]);
  });

  it('leaves no WAL file or driver lock behind when it refuses a newer database', async () => {
    const store = await openTracked();
    await store.close();
    open.length = 0;
    const header = readFileSync(dbPath);
    header.writeUInt32BE(SCHEMA_VERSION + 1, 60);
    writeFileSync(dbPath, header);
    rmSync(`${dbPath}-wal`, { force: true });
    await expectAppError(openStore({ path: dbPath }), 'DATABASE_TOO_NEW');
    expect(readdirSync(dir).sort()).toEqual(['studio.db']);
  });

  it('moves aside a real database whose pages were overwritten (the damage surfaces while closing too)', async () => {
    const store = await openTracked();
    for (let i = 0; i < 400; i++)
      await store.keys.insert({
        ...key,
        id: `key_${i}`,
        key_hash: i.toString(16).padStart(64, '0'),
        name: `name ${i} `.repeat(8),
      });
    await store.close();
    open.length = 0;
    const bytes = readFileSync(dbPath);
    expect(bytes.length).toBeGreaterThan(12 * 4096);
    let seed = 12345;
    for (let i = 4 * 4096; i < 8 * 4096; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      bytes[i] = seed >>> 24;
    }
    writeFileSync(dbPath, bytes);
    const error = await expectAppError(openStore({ path: dbPath }), 'DATABASE_CORRUPT');
    const aside = readdirSync(dir).find((f) => f.startsWith('studio.db.corrupt-') && !f.endsWith('-wal'));
    expect(aside).toBeDefined();
    expect(error.message).toContain(aside!);
    expect(readFileSync(join(dir, aside!)).equals(bytes)).toBe(true);
    expect(existsSync(dbPath)).toBe(false);
    expect(await (await openTracked()).keys.list()).toEqual([]);
  });

  it('refuses a second open while the first is live', async () => {
    await openTracked();
    await expectAppError(openStore({ path: dbPath }), 'DATABASE_LOCKED');
  });

  it('a statement outside a transaction waits for the transaction in progress, and never joins it', async () => {
    const store = await openTracked();
    await store.keys.insert(key);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    const transaction = store
      .transaction(async (tx) => {
        await tx.keys.addBalance('key_1', -1000);
        order.push('tx: charged');
        await gate;
        throw new Error('rolled back');
      })
      .catch(() => order.push('tx: rolled back'));
    // Let the transaction begin and charge.
    await new Promise((resolve) => setImmediate(resolve));
    const outside = store.keys.findById('key_1').then((row) => {
      order.push(`outside: ${row?.balance_milli}`);
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual(['tx: charged']);
    release();
    await Promise.all([transaction, outside]);
    // The read waited for the transaction's end and saw the balance as the rollback left it,
    // not the charge in its middle.
    expect(order[0]).toBe('tx: charged');
    expect(order.slice(1).sort()).toEqual(['outside: 5000', 'tx: rolled back']);
  });

  it("copies the WAL into the database file itself, after writes (SQLite's automatic copies are off)", async () => {
    /** Rows of `t` in a copy of the database file alone, as a crash would find it without the WAL. */
    const rowsInFileAlone = async (): Promise<number> => {
      const copy = join(dir, `copy-${Date.now()}.db`);
      copyFileSync(dbPath, copy);
      const other = openDatabase(copy);
      try {
        return (await other.get<{ n: number }>('SELECT count(*) AS n FROM t'))?.n ?? -1;
      } catch {
        return 0; // no table t: its creation is still only in the WAL
      } finally {
        await other.close();
      }
    };
    const write = async (db: Db) => {
      await db.run('CREATE TABLE IF NOT EXISTS t (body TEXT)');
      // 1,500 rows of 3 KB: past the 1,000 pages of SQLite's automatic checkpoint.
      await db.transaction(async (tx) => {
        for (let i = 0; i < 1500; i++) await tx.run('INSERT INTO t VALUES (?)', [`${i}`.padEnd(3000, 'x')]);
      });
    };
    const late = openDatabase(dbPath, { checkpointAfterMs: 60 * 60 * 1000 });
    await write(late);
    expect(await rowsInFileAlone()).toBe(0);
    await late.close();
    // Closing copies it all.
    expect(await rowsInFileAlone()).toBe(1500);

    const soon = openDatabase(dbPath, { checkpointAfterMs: 20 });
    await write(soon);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await rowsInFileAlone()).toBe(3000);
    // Writes after the copy (which wait for the file's sync) go on as before.
    await write(soon);
    expect((await soon.get<{ n: number }>('SELECT count(*) AS n FROM t'))?.n).toBe(4500);
    // A copy still due when the database closes is not waited for, and nothing is lost.
    await soon.close();
    expect(await rowsInFileAlone()).toBe(4500);
  });

  it('opens after the owning process was killed with SIGKILL (stale driver lock removed)', async () => {
    const script = `
      import { openStore } from ${JSON.stringify(join(process.cwd(), 'electron/core/store/index.ts'))};
      const store = await openStore({ path: ${JSON.stringify(dbPath)} });
      await store.keys.insert(${JSON.stringify(key)});
      process.stdout.write('ready\\n');
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
      child.on('exit', (code) => reject(new Error(`child exited ${code}`)));
    });
    // While the child lives, its database is locked for us.
    await expectAppError(openStore({ path: dbPath }), 'DATABASE_LOCKED');
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('exit', resolve));
    expect(existsSync(`${dbPath}.lock`)).toBe(true);
    const store = await openTracked();
    expect((await store.keys.findById('key_1'))?.balance_milli).toBe(5000);
  });
});
