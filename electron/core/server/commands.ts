/**
 * Headless commands, wired into `electron/core/cli.ts`:
 *   serve [--port N] [--host H] [--data-dir D] [--api-key K] …   runs the local API server
 *   keys create|list|revoke …                                    manages API keys offline
 * Bad options print a message and set a non-zero exit code (2); runtime errors exit with 1.
 */

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isAppError } from '../../shared/errors';
import { createCore } from '../app';
import { systemClock, type Log } from '../jobs/clock';
import { DEFAULT_BALANCE_MILLI, MILLI_PER_CREDIT } from '../jobs/credits';
import { createApiKey, ensureApiKey, isValidKeyText, revokeApiKey } from '../jobs/keys';
import { dataPaths, defaultDataDir } from '../paths';
import { openStore } from '../store';

const SERVE_USAGE = `Usage: serve [options]
  --port <n>              TCP port, 0 for a free one (default 8787)
  --host <addr>           bind address (default 127.0.0.1)
  --data-dir <dir>        database and audio files (default: the per-user app data folder)
  --settings-dir <dir>    folder of settings.json, edited by the Settings view (default: the per-user config folder)
  --api-key <key>         make sure this API key exists (new keys get the default balance)
  --balance <credits>     starting balance of keys created here (default 1000000)
  --pool-size <n>         engine worker threads (default: CPU count)
  --concurrency <n>       renders in flight (default: twice the pool)
  --max-text-chars <n>    longest input_text (default 100000)
  --max-queued <n>        requests waiting per key before 429 (default 10000)
  --callback-attempts <n> delivery attempts per callback (default 6)
  --callback-delay-ms <n> wait before the first retry, doubling (default 2000)
  --public-url <url>      base of audio_link/srt_link when reached under another name
  --allowed-host <name>   another Host name to accept (repeatable)`;

const KEYS_USAGE = `Usage: keys <command> [options]
  keys create [--name <text>] [--balance <credits>] [--data-dir <dir>]
  keys list [--json] [--data-dir <dir>]
  keys revoke <key id or prefix> [--data-dir <dir>]
The server must not be running on the same data directory (it holds the database).`;

class UsageError extends Error {}

const stderrLog: Log = {
  info: (message) => process.stderr.write(`${message}\n`),
  warn: (message) => process.stderr.write(`warning: ${message}\n`),
};

function parse<T extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: T,
  allowPositionals = false,
) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function integer(
  name: string,
  value: string | undefined,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got "${value}"`);
  }
  return Number(value);
}

/** Credits with at most three decimals → milli-credits. */
function credits(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,12}(\.\d{1,3})?$/.test(value))
    throw new UsageError(`--balance must be a number of credits, got "${value}"`);
  return Math.round(Number(value) * MILLI_PER_CREDIT);
}

async function runCommand(usage: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${error.message}\n\n${usage}\n`);
      process.exitCode = 2;
    } else if (isAppError(error)) {
      process.stderr.write(`error: ${error.message}\n`);
      process.exitCode = 1;
    } else {
      throw error;
    }
  }
}

/** Runs the server until SIGTERM or SIGINT, then shuts down in order and resolves. */
export function runServe(argv: string[]): Promise<void> {
  return runCommand(SERVE_USAGE, async () => {
    const { values } = parse(argv, {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      'settings-dir': { type: 'string' },
      'api-key': { type: 'string' },
      balance: { type: 'string' },
      'pool-size': { type: 'string' },
      concurrency: { type: 'string' },
      'max-text-chars': { type: 'string' },
      'max-queued': { type: 'string' },
      'callback-attempts': { type: 'string' },
      'callback-delay-ms': { type: 'string' },
      'public-url': { type: 'string' },
      'allowed-host': { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      process.stdout.write(`${SERVE_USAGE}\n`);
      return;
    }
    const port = integer('port', values.port, 0, 65535) ?? 8787;
    const apiKey = values['api-key'];
    if (apiKey !== undefined && !isValidKeyText(apiKey)) {
      throw new UsageError('--api-key must be 8 to 256 visible ASCII characters');
    }
    if (values['public-url'] !== undefined && !/^https?:\/\/[^\s/]+/.test(values['public-url'])) {
      throw new UsageError('--public-url must be an http(s) URL');
    }
    const balance = credits(values.balance);
    const attempts = integer('callback-attempts', values['callback-attempts'], 1, 100);
    const delay = integer('callback-delay-ms', values['callback-delay-ms'], 1);
    const poolSize = integer('pool-size', values['pool-size'], 1, 64);
    const concurrency = integer('concurrency', values.concurrency, 1, 1024);
    const maxTextChars = integer('max-text-chars', values['max-text-chars'], 1);
    const maxQueued = integer('max-queued', values['max-queued'], 1);

    const core = await createCore({
      dataDir: values['data-dir'] ?? defaultDataDir(),
      ...(values['settings-dir'] ? { settingsDir: values['settings-dir'] } : {}),
      port,
      host: values.host ?? '127.0.0.1',
      log: stderrLog,
      ...(poolSize ? { poolSize } : {}),
      ...(concurrency ? { concurrency } : {}),
      ...(maxTextChars ? { maxTextChars } : {}),
      ...(maxQueued ? { maxQueuedPerKey: maxQueued } : {}),
      ...(attempts || delay
        ? { retry: { ...(attempts ? { attempts } : {}), ...(delay ? { baseDelayMs: delay } : {}) } }
        : {}),
      ...(values['public-url'] ? { publicUrl: values['public-url'] } : {}),
      ...(values['allowed-host'] ? { allowedHosts: values['allowed-host'] } : {}),
    });
    if (apiKey !== undefined) {
      const { row, created } = ensureApiKey(
        core.store,
        systemClock,
        apiKey,
        balance ?? DEFAULT_BALANCE_MILLI,
      );
      if (row.revoked_at) stderrLog.warn(`the key given with --api-key was revoked on ${row.revoked_at}`);
      else if (created)
        stderrLog.info(`created API key ${row.id} with ${row.balance_milli / MILLI_PER_CREDIT} credits`);
    }
    // One write, so a reader that waits for the first line also has the second.
    process.stdout.write(`listening on ${core.url}\nopen ${core.loginUrl}\n`);

    await new Promise<void>((resolve) => {
      let stopping = false;
      const stop = (signal: NodeJS.Signals) => {
        if (stopping) {
          // A second signal means "now": the database is consistent at every commit.
          process.stderr.write(`${signal} again: exiting at once\n`);
          process.exit(130);
        }
        stopping = true;
        stderrLog.info(`${signal}: shutting down`);
        core.close().then(resolve, (error: unknown) => {
          stderrLog.warn(`shutdown: ${(error as Error).message}`);
          process.exitCode = 1;
          resolve();
        });
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
    });
  });
}

/** keys create | list | revoke, on the database of --data-dir. */
export function runKeys(argv: string[]): Promise<void> {
  return runCommand(KEYS_USAGE, async () => {
    const [command, ...rest] = argv;
    if (command === '--help' || command === '-h' || command === 'help') {
      process.stdout.write(`${KEYS_USAGE}\n`);
      return;
    }
    if (command !== 'create' && command !== 'list' && command !== 'revoke') {
      throw new UsageError(command ? `unknown keys command "${command}"` : 'missing keys command');
    }
    const { values, positionals } = parse(
      rest,
      {
        'data-dir': { type: 'string' },
        name: { type: 'string' },
        balance: { type: 'string' },
        json: { type: 'boolean' },
      },
      command === 'revoke',
    );
    if (command !== 'create' && (values.name !== undefined || values.balance !== undefined)) {
      throw new UsageError('--name and --balance apply to "keys create" only');
    }
    if (command === 'revoke' && positionals.length !== 1)
      throw new UsageError('keys revoke takes one key id or prefix');
    const balance = credits(values.balance);
    const store = openStore({ path: dataPaths(values['data-dir'] ?? defaultDataDir()).database });
    try {
      if (command === 'create') {
        const { key, row } = createApiKey(store, systemClock, {
          ...(values.name ? { name: values.name } : {}),
          ...(balance !== undefined ? { balanceMilli: balance } : {}),
        });
        process.stdout.write(
          [
            `API key (shown once, store it now): ${key}`,
            `id:             ${row.id}`,
            `name:           ${row.name}`,
            `balance:        ${row.balance_milli / MILLI_PER_CREDIT} credits`,
            `signing secret: ${row.signing_secret}  (verifies X-Signature of callbacks)`,
            '',
          ].join('\n'),
        );
      } else if (command === 'list') {
        const rows = store.keys.list();
        if (values.json) {
          const list = rows.map((r) => ({
            id: r.id,
            name: r.name,
            prefix: r.key_prefix,
            balance: r.balance_milli / MILLI_PER_CREDIT,
            queued: r.queued,
            signing_secret: r.signing_secret,
            created_at: r.created_at,
            revoked_at: r.revoked_at,
          }));
          process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
        } else if (rows.length === 0) {
          process.stdout.write('no API keys\n');
        } else {
          for (const r of rows) {
            const state = r.revoked_at ? `revoked ${r.revoked_at}` : 'active';
            process.stdout.write(
              `${r.id}  ${r.key_prefix}…  ${r.name}  ${r.balance_milli / MILLI_PER_CREDIT} credits  ${state}  signing secret ${r.signing_secret}\n`,
            );
          }
        }
      } else {
        const row = revokeApiKey(store, systemClock, positionals[0]!);
        process.stdout.write(`revoked ${row.id} (${row.key_prefix}…) at ${row.revoked_at}\n`);
      }
    } finally {
      store.close();
    }
  });
}
