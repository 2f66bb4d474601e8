/**
 * The PostgreSQL database, shared by several instances: a pool of connections for statements
 * and transactions, one more connection that LISTENs for the notifications of every instance,
 * and the schema migrated once however many instances start together. The only module that
 * imports the driver (`pg`) besides the test fixtures.
 *
 * Values: BIGINT (`COUNT`, epoch-ms and milli-credit columns) and NUMERIC (`SUM` of BIGINT)
 * come back as JS numbers, as SQLite gives them (our values stay below 2^53); the parsers are
 * this pool's own, never the driver's global ones. Commits are durable: `synchronous_commit`
 * stays the server's default.
 */

import pg from 'pg';
import { AppError } from '../../shared/errors';
import { silentLog, type Log } from '../platform/log';
import { POSTGRES_MIGRATIONS } from './postgres-migrations';
import type { Db, SqlExecutor, SqlParams } from './sql';

/** Newest schema version this build knows (the same number as SQLite's `SCHEMA_VERSION`). */
export const POSTGRES_SCHEMA_VERSION = POSTGRES_MIGRATIONS.length;

/** Key of the advisory lock the migration holds: any fixed number, the same in every build. */
const MIGRATION_LOCK_KEY = 7_461_626_923_001;

/** A transaction PostgreSQL aborted for a conflict with another one is run again this many times. */
const TRANSACTION_RETRIES = 5;

/** serialization_failure, deadlock_detected: the transaction lost a conflict and can be re-run. */
const RETRYABLE = new Set(['40001', '40P01']);

/** Channel names: lower-case identifiers, so LISTEN's quoted name and pg_notify's string agree. */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

export interface OpenPostgresOptions {
  /** Connections in the pool (default 10); the notification connection comes on top. */
  poolSize?: number;
  /** Dropped connections and reconnects are reported here (default: nowhere). */
  log?: Log;
  /** How long opening one connection may take before it counts as failed (default 10 s). */
  connectTimeoutMs?: number;
  /** `application_name` of the connections, seen in `pg_stat_activity` (default "Narration Studio"). */
  applicationName?: string;
}

/**
 * Connects to the PostgreSQL database at `url` (`postgres://user:password@host:port/db`) and
 * migrates it; several instances may do this at the same time (one migrates, the others wait
 * and find it done). Throws AppError DATABASE_UNAVAILABLE when the server cannot be reached or
 * refuses the connection, DATABASE_TOO_NEW for a database a newer version has migrated (left
 * untouched).
 */
export async function openPostgresDatabase(url: string, options: OpenPostgresOptions = {}): Promise<Db> {
  const path = redactPostgresUrl(url);
  const log = options.log ?? silentLog;
  const config: pg.ClientConfig = {
    connectionString: url,
    types: NUMBER_TYPES,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    application_name: options.applicationName ?? 'Narration Studio',
    keepAlive: true,
  };
  const pool = new pg.Pool({ ...config, max: options.poolSize ?? 10 });
  // An idle connection that breaks (server restart, pg_terminate_backend) is dropped by the
  // pool and reported here; without a listener it would be an uncaught 'error' event.
  pool.on('error', (error) =>
    log.warn(
      `An idle connection to the PostgreSQL database ${path} failed (${reasonOf(error, url)}); it was dropped.`,
    ),
  );
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => {});
    throw new AppError(
      'DATABASE_UNAVAILABLE',
      `Could not connect to the PostgreSQL database ${path}: ${reasonOf(error, url)}.`,
      { path },
      { cause: error },
    );
  }
  const db = wrap(
    pool,
    { ...config, application_name: `${config.application_name} (notifications)` },
    path,
    log,
  );
  try {
    await migratePostgres(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

/**
 * Takes the database to `POSTGRES_SCHEMA_VERSION` in one transaction under an advisory lock,
 * so that of several instances starting at once exactly one migrates; the others wait for its
 * commit and then find the new version. The version is the one row of `schema_version`.
 * Throws DATABASE_TOO_NEW (nothing changed) for a version newer than this build's.
 */
async function migratePostgres(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.run(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    // Looked up rather than CREATE … IF NOT EXISTS: a role without CREATE can still open a
    // database that is up to date.
    const table = await tx.get<{ present: boolean }>(
      `SELECT to_regclass('schema_version') IS NOT NULL AS present`,
    );
    let current = 0;
    if (table?.present) {
      current = (await tx.get<{ version: number }>('SELECT version FROM schema_version'))?.version ?? 0;
    } else {
      await tx.run('CREATE TABLE schema_version (version INTEGER NOT NULL)');
    }
    if (current > POSTGRES_SCHEMA_VERSION) {
      throw new AppError(
        'DATABASE_TOO_NEW',
        `The database ${db.path} has schema version ${current}, newer than this app's ${POSTGRES_SCHEMA_VERSION}. Update the app; the database was left untouched.`,
        { path: db.path, version: current, supported: POSTGRES_SCHEMA_VERSION },
      );
    }
    if (current === POSTGRES_SCHEMA_VERSION) return;
    for (let version = current + 1; version <= POSTGRES_SCHEMA_VERSION; version++) {
      for (const statement of POSTGRES_MIGRATIONS[version - 1]!) await tx.run(statement);
    }
    const updated = await tx.run('UPDATE schema_version SET version = ?', [POSTGRES_SCHEMA_VERSION]);
    if (updated.changes === 0) {
      await tx.run('INSERT INTO schema_version (version) VALUES (?)', [POSTGRES_SCHEMA_VERSION]);
    }
  });
}

/** The URL with its password (in the user part or as a `password` parameter) replaced by `***`. */
export function redactPostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    if (parsed.searchParams.has('password')) parsed.searchParams.set('password', '***');
    return parsed.toString();
  } catch {
    // Not a URL (a libpq `key=value` string): redact what looks like a password all the same.
    return url.replace(/(password\s*=\s*)('[^']*'|\S+)/gi, '$1***');
  }
}

/**
 * The SQL with each `?` outside string literals, quoted names and comments numbered `$1…$n`,
 * as PostgreSQL wants them. Translations are kept per SQL string.
 */
export function toPostgresPlaceholders(sql: string): string {
  const cached = translations.get(sql);
  if (cached !== undefined) return cached;
  let out = '';
  let count = 0;
  let i = 0;
  const skipTo = (end: number) => {
    const stop = end < 0 ? sql.length : end;
    out += sql.slice(i, stop);
    i = stop;
  };
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      // A doubled quote inside ('it''s') reads as two literals side by side: same result.
      const close = sql.indexOf(c, i + 1);
      skipTo(close < 0 ? -1 : close + 1);
    } else if (c === '-' && sql[i + 1] === '-') {
      skipTo(sql.indexOf('\n', i));
    } else if (c === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      skipTo(close < 0 ? -1 : close + 2);
    } else if (c === '?') {
      out += `$${++count}`;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  // Statements are written in the code, so this stays small; the bound only guards against
  // SQL built at run time (say, IN lists of varying length).
  if (translations.size >= 2000) translations.clear();
  translations.set(sql, out);
  return out;
}

const translations = new Map<string, string>();

/** int8 (COUNT, BIGINT) and numeric (SUM of BIGINT) as numbers; everything else as the driver parses it. */
const NUMBER_TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if ((format ?? 'text') === 'text' && (oid === 20 || oid === 1700)) return Number;
    return pg.types.getTypeParser(oid, format);
  }) as typeof pg.types.getTypeParser,
};

type Query = (text: string, values?: unknown[]) => Promise<pg.QueryResult>;

function executor(query: Query): SqlExecutor {
  const send = (sql: string, params?: SqlParams) =>
    query(toPostgresPlaceholders(sql), params ? [...params] : undefined);
  return {
    dialect: 'postgres',
    run: async (sql, params) => ({ changes: (await send(sql, params)).rowCount ?? 0 }),
    get: async <T>(sql: string, params?: SqlParams) => (await send(sql, params)).rows[0] as T | undefined,
    all: async <T>(sql: string, params?: SqlParams) => (await send(sql, params)).rows as T[],
  };
}

function wrap(pool: pg.Pool, listenerConfig: pg.ClientConfig, path: string, log: Log): Db {
  let closing: Promise<void> | undefined;
  const open = () => {
    if (closing) throw new Error(`the database ${path} is closed`);
  };
  const onPool = executor((text, values) => (open(), pool.query(text, values)));
  const listener = new Listener(listenerConfig, path, log);

  /** One attempt: a connection of its own, BEGIN, `fn`, COMMIT; ROLLBACK when anything throws. */
  const attempt = async <T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> => {
    open();
    const client = await pool.connect();
    // A checked-out connection has no pool listener: its failure must not be an uncaught
    // 'error' event. The statement in flight fails with it; the connection is then destroyed.
    let broken: Error | undefined;
    const onError = (error: Error) => {
      broken ??= error;
    };
    client.on('error', onError);
    let active = true;
    const tx = executor((text, values) => {
      if (!active) return Promise.reject(new Error('a statement on a transaction that has ended'));
      return client.query(text, values);
    });
    try {
      await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
      const result = await fn(tx);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        // The connection is in an unknown state: it must not go back to the pool.
        broken ??= rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      }
      throw error;
    } finally {
      active = false;
      client.removeListener('error', onError);
      client.release(broken);
    }
  };

  return {
    ...onPool,
    path,
    exclusive: false,
    /**
     * Runs `fn` in one READ COMMITTED transaction on a connection of its own. When PostgreSQL
     * aborts it for a deadlock or a serialization failure, the whole transaction is rolled back
     * and `fn` runs again (up to 5 more times, after a short random pause), so `fn` must be safe
     * to re-run: no effects outside the transaction (no notifications sent, no files written,
     * no counters kept across attempts) before it resolves.
     */
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      for (let retry = 0; ; retry++) {
        try {
          return await attempt(fn);
        } catch (error) {
          if (retry >= TRANSACTION_RETRIES || !isRetryable(error)) throw error;
          const base = 10 * 2 ** retry;
          await new Promise((resolve) => setTimeout(resolve, base + Math.random() * base));
        }
      }
    },
    /** NOTIFY through `pg_notify`: delivered when this statement commits (at once outside a transaction). */
    async notify(channel: string, payload: string): Promise<void> {
      checkChannel(channel);
      open();
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    /**
     * Notifications that arrive while the notification connection is down (it reconnects by
     * itself) are lost: treat a notification as a hint to look, never as the only way to learn.
     */
    async listen(channel: string, handler: (payload: string) => void): Promise<() => void> {
      checkChannel(channel);
      open();
      return listener.listen(channel, handler);
    },
    close() {
      closing ??= (async () => {
        await listener.close();
        // Waits for the connections in use (statements, transactions) to come back first.
        await pool.end();
      })();
      return closing;
    },
  };
}

type Handler = (payload: string) => void;

/**
 * The one long-lived connection that LISTENs for every channel of this Db. When it drops it
 * reconnects with growing pauses (0.1 s up to 5 s) and LISTENs again on every channel; its
 * errors are reported to the log, never thrown.
 */
class Listener {
  private readonly channels = new Map<string, { handlers: Set<Handler>; ready: Promise<void> }>();
  /** Connected and listening on every channel. */
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  /** Between a drop and the reconnect that succeeds. */
  private recovering = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private closed = false;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly path: string,
    private readonly log: Log,
  ) {}

  async listen(channel: string, handler: Handler): Promise<() => void> {
    let entry = this.channels.get(channel);
    if (!entry) {
      const created = { handlers: new Set<Handler>(), ready: Promise.resolve() };
      this.channels.set(channel, created);
      created.ready = this.subscribe(channel);
      entry = created;
    }
    entry.handlers.add(handler);
    try {
      await entry.ready;
    } catch (error) {
      this.remove(channel, handler);
      throw error;
    }
    let listening = true;
    return () => {
      if (!listening) return;
      listening = false;
      this.remove(channel, handler);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.channels.clear();
    await this.connecting?.catch(() => {});
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private async subscribe(channel: string): Promise<void> {
    // Reconnecting: the reconnect LISTENs on every channel, this one included.
    if (this.recovering) return;
    const client = await this.connection();
    try {
      await client.query(`LISTEN ${quoteChannel(channel)}`);
    } catch (error) {
      // Dropped meanwhile: the reconnect LISTENs again. Otherwise the LISTEN itself failed.
      if (client === this.client) throw error;
    }
  }

  private remove(channel: string, handler: Handler): void {
    const entry = this.channels.get(channel);
    if (!entry || !entry.handlers.delete(handler) || entry.handlers.size > 0) return;
    this.channels.delete(channel);
    // Queued behind any LISTEN on the same connection, so a later listen() still wins.
    this.client?.query(`UNLISTEN ${quoteChannel(channel)}`).catch(() => {
      // Dropped: a new connection listens only on the channels still wanted.
    });
  }

  private connection(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client(this.config);
    // Attached before connecting and never removed: every later error of this client lands here.
    client.on('error', (error) => this.dropped(client, error));
    client.on('end', () => this.dropped(client));
    client.on('notification', (message) => this.deliver(message.channel, message.payload ?? ''));
    try {
      await client.connect();
      for (const channel of [...this.channels.keys()]) await client.query(`LISTEN ${quoteChannel(channel)}`);
      if (this.closed) throw new Error(`the database ${this.path} is closed`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    this.client = client;
    return client;
  }

  private dropped(client: pg.Client, error?: Error): void {
    if (client !== this.client) return;
    this.client = undefined;
    void client.end().catch(() => {});
    if (this.closed) return;
    this.log.warn(
      `The PostgreSQL notification connection to ${this.path} dropped (${error ? reasonOf(error) : 'closed by the server'}); reconnecting.`,
    );
    this.recovering = true;
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.retryTimer || this.closed) return;
    const delay = Math.min(5000, 100 * 2 ** this.failures);
    this.retryTimer = setTimeout(
      () => {
        this.retryTimer = undefined;
        this.reconnect();
      },
      delay * (0.5 + Math.random() / 2),
    );
    // Reconnecting alone does not keep the process alive.
    this.retryTimer.unref();
  }

  private reconnect(): void {
    if (this.closed || this.client) return;
    this.connection().then(
      () => {
        this.failures = 0;
        this.recovering = false;
        const channels = [...this.channels.keys()].join(', ') || 'no channel';
        this.log.info(`Reconnected to the PostgreSQL database ${this.path} for notifications (${channels}).`);
      },
      (error: unknown) => {
        if (this.closed) return;
        this.failures++;
        this.log.warn(
          `Could not reconnect to the PostgreSQL database ${this.path} for notifications (${reasonOf(error)}); trying again.`,
        );
        this.scheduleReconnect();
      },
    );
  }

  private deliver(channel: string, payload: string): void {
    const entry = this.channels.get(channel);
    if (!entry) return;
    for (const handler of [...entry.handlers]) {
      try {
        handler(payload);
      } catch (error) {
        // Thrown into the driver, it would break the connection's message loop.
        this.log.warn(`A handler of the notification channel ${channel} failed: ${reasonOf(error)}`);
      }
    }
  }
}

function checkChannel(channel: string): void {
  if (!CHANNEL.test(channel)) {
    throw new AppError('INTERNAL', `invalid notification channel name ${JSON.stringify(channel)}`);
  }
}

/** Checked against CHANNEL first, so the quotes are all it needs. */
function quoteChannel(channel: string): string {
  checkChannel(channel);
  return `"${channel}"`;
}

function isRetryable(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && RETRYABLE.has(code)) return true;
  }
  return false;
}

/** One line about what went wrong, without the password of `url` if it appears. */
function reasonOf(error: unknown, url?: string): string {
  let reason: string;
  if (error instanceof AggregateError && error.errors.length > 0) {
    // Node tries every address of a name ("localhost": ::1 and 127.0.0.1) and reports them together.
    reason = [...new Set(error.errors.map((e) => reasonOf(e)))].join('; ');
  } else if (error instanceof Error) {
    reason = error.message || (error as { code?: string }).code || error.name;
  } else {
    reason = String(error);
  }
  reason = reason.replace(/\.$/, '');
  if (url) {
    const password = passwordOf(url);
    if (password) reason = reason.split(password).join('***');
  }
  return reason;
}

function passwordOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return decodeURIComponent(parsed.password) || parsed.searchParams.get('password') || undefined;
  } catch {
    return undefined;
  }
}
