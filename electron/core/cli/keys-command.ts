/**
 * `keys create | list | revoke | credit`: manages API keys on the database of --data-dir, offline (the
 * server must not be running on it), or on a PostgreSQL database (`--database`), also while
 * instances serve from it.
 */

import { AppError } from '../../shared/errors';
import { MILLI_PER_CREDIT } from '../../shared/pricing';
import { addCredits, createApiKey, findKey, MAX_CREDITS_ADDED, revokeApiKey } from '../jobs/keys';
import { systemClock } from '../platform/clock';
import { dataPaths, defaultDataDir } from '../platform/paths';
import { openStore } from '../store';
import { creditsOption, databaseOption, parseCommandLine, runCommand, UsageError } from './usage';

const KEYS_USAGE = `Usage: keys <command> [options]
  keys create [--name <text>] [--balance <credits>] [--data-dir <dir> | --database <url>]
  keys list [--json] [--data-dir <dir> | --database <url>]
  keys revoke <key id or prefix> [--data-dir <dir> | --database <url>]
  keys credit <key id, prefix or key> <credits> [--data-dir <dir> | --database <url>]
                          adds whole credits (1 to 1,000,000,000) to a live key's balance
--database (default: DATABASE_URL) is a PostgreSQL URL, usable while servers run on it; without
it, the SQLite database of --data-dir, on which the server must not be running.`;

/** keys create | list | revoke | credit, on the database of --data-dir. */
export function runKeys(argv: string[]): Promise<number> {
  return runCommand(KEYS_USAGE, async () => {
    const [command, ...rest] = argv;
    if (command === '--help' || command === '-h' || command === 'help') {
      process.stdout.write(`${KEYS_USAGE}\n`);
      return;
    }
    if (command !== 'create' && command !== 'list' && command !== 'revoke' && command !== 'credit') {
      throw new UsageError(command ? `unknown keys command "${command}"` : 'missing keys command');
    }
    const { values, positionals } = parseCommandLine(
      rest,
      {
        'data-dir': { type: 'string' },
        database: { type: 'string' },
        name: { type: 'string' },
        balance: { type: 'string' },
        json: { type: 'boolean' },
      },
      command === 'revoke' || command === 'credit',
    );
    if (command !== 'create' && (values.name !== undefined || values.balance !== undefined)) {
      throw new UsageError('--name and --balance apply to "keys create" only');
    }
    if (command === 'revoke' && positionals.length !== 1)
      throw new UsageError('keys revoke takes one key id or prefix');
    let credits = 0;
    if (command === 'credit') {
      if (positionals.length !== 2)
        throw new UsageError('keys credit takes a key (its id, prefix or the key) and a number of credits');
      credits = creditsToAdd(positionals[1]!);
    }
    const balance = creditsOption(values.balance);
    const databaseUrl = databaseOption(values.database);
    const store = await openStore(
      databaseUrl
        ? { url: databaseUrl }
        : {
            path: dataPaths(values['data-dir'] ?? defaultDataDir()).database,
            holder: `Narration Studio keys ${command}`,
          },
    );
    try {
      if (command === 'create') {
        const { key, row } = await createApiKey(store, systemClock, {
          ...(values.name ? { name: values.name } : {}),
          ...(balance !== undefined ? { balanceMilli: balance } : {}),
        });
        process.stdout.write(
          [
            `API key (shown once, store it now): ${key}`,
            `id:             ${row.id}`,
            `name:           ${row.name}`,
            `balance:        ${row.balance_milli / MILLI_PER_CREDIT} credits`,
            `signing secret: ${row.signing_secret}  (verifies X-Narration-Signature of callbacks)`,
            '',
          ].join('\n'),
        );
      } else if (command === 'list') {
        const rows = await store.keys.list();
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
      } else if (command === 'credit') {
        const key = await findKey(store, positionals[0]!);
        const row = await addCredits(store, systemClock, key.id, credits);
        process.stdout.write(
          `added ${credits.toLocaleString()} credits to ${row.id} (${row.name}): balance ${(row.balance_milli / MILLI_PER_CREDIT).toLocaleString()} credits\n`,
        );
      } else {
        const row = await revokeApiKey(store, systemClock, positionals[0]!);
        process.stdout.write(`revoked ${row.id} (${row.key_prefix}…) at ${row.revoked_at}\n`);
      }
    } finally {
      await store.close();
    }
  });
}

/**
 * The credits of `keys credit`: a whole number from 1 to MAX_CREDITS_ADDED, else an error of one
 * line (no usage text: the command was right, the number was not).
 */
function creditsToAdd(text: string): number {
  if (!/^\d+$/.test(text))
    throw new AppError('INVALID_FIELD', `credits must be a whole number of credits above 0, got "${text}"`);
  const credits = Number(text);
  if (credits < 1) throw new AppError('INVALID_FIELD', `credits must be above 0, got "${text}"`);
  if (credits > MAX_CREDITS_ADDED)
    throw new AppError(
      'INVALID_FIELD',
      `credits must be at most ${MAX_CREDITS_ADDED.toLocaleString('en')} at a time, got "${text}"`,
    );
  return credits;
}
