/**
 * `keys create | list | revoke`: manages API keys on the database of --data-dir, offline (the
 * server must not be running on it), or on a PostgreSQL database (`--database`), also while
 * instances serve from it.
 */

import { MILLI_PER_CREDIT } from '../../shared/pricing';
import { createApiKey, revokeApiKey } from '../jobs/keys';
import { systemClock } from '../platform/clock';
import { dataPaths, defaultDataDir } from '../platform/paths';
import { openStore } from '../store';
import { creditsOption, databaseOption, parseCommandLine, runCommand, UsageError } from './usage';

export const KEYS_USAGE = `Usage: keys <command> [options]
  keys create [--name <text>] [--balance <credits>] [--data-dir <dir> | --database <url>]
  keys list [--json] [--data-dir <dir> | --database <url>]
  keys revoke <key id or prefix> [--data-dir <dir> | --database <url>]
--database (default: DATABASE_URL) is a PostgreSQL URL, usable while servers run on it; without
it, the SQLite database of --data-dir, on which the server must not be running.`;

/** keys create | list | revoke, on the database of --data-dir. */
export function runKeys(argv: string[]): Promise<number> {
  return runCommand(KEYS_USAGE, async () => {
    const [command, ...rest] = argv;
    if (command === '--help' || command === '-h' || command === 'help') {
      process.stdout.write(`${KEYS_USAGE}\n`);
      return;
    }
    if (command !== 'create' && command !== 'list' && command !== 'revoke') {
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
      command === 'revoke',
    );
    if (command !== 'create' && (values.name !== undefined || values.balance !== undefined)) {
      throw new UsageError('--name and --balance apply to "keys create" only');
    }
    if (command === 'revoke' && positionals.length !== 1)
      throw new UsageError('keys revoke takes one key id or prefix');
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
      } else {
        const row = await revokeApiKey(store, systemClock, positionals[0]!);
        process.stdout.write(`revoked ${row.id} (${row.key_prefix}…) at ${row.revoked_at}\n`);
      }
    } finally {
      await store.close();
    }
  });
}
