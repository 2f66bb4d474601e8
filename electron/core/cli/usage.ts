/**
 * What every headless command shares: one `UsageError` for a bad command line, option parsing
 * that turns node's own errors into it, and `runCommand`, which maps errors to what the user
 * sees and to the exit code: usage errors print the message and the usage (exit 2), other
 * errors their message alone (exit 1).
 */

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { MILLI_PER_CREDIT } from '../../shared/pricing';

/** A bad command line: the message is for the user, printed with the command's usage. */
export class UsageError extends Error {}

/** What `parseCommandLine` answers for `options`: `parseArgs`'s own result type, named. */
export type ParsedCommandLine<T extends NonNullable<ParseArgsConfig['options']>> = ReturnType<
  typeof parseArgs<{
    args: string[];
    options: T;
    strict: true;
    allowPositionals: boolean;
    allowNegative: boolean;
  }>
>;

/**
 * `parseArgs` in strict mode (with allowNegative, `--no-<flag>` sets a boolean false); its errors
 * (unknown option, missing value) become UsageErrors.
 */
export function parseCommandLine<T extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: T,
  allowPositionals = false,
  allowNegative = false,
): ParsedCommandLine<T> {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals, allowNegative });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** `--name <integer>` within [min, max], or undefined when not given. */
export function integerOption(
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

/** `--balance <credits>` with at most three decimals → milli-credits, or undefined when not given. */
export function creditsOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,12}(\.\d{1,3})?$/.test(value))
    throw new UsageError(`--balance must be a number of credits, got "${value}"`);
  return Math.round(Number(value) * MILLI_PER_CREDIT);
}

/**
 * Runs one command and returns its exit code: 0 when `body` resolves, 2 for a UsageError
 * (`error: <message>` and the usage on stderr), 1 for any other error (`error: <message>`).
 */
export async function runCommand(usage: string, body: () => Promise<number | void>): Promise<number> {
  try {
    return (await body()) ?? 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${error.message}\n\n${usage}\n`);
      return 2;
    }
    // One line: scripts and the fault suite read it; AppError messages are written for users.
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`error: ${message}\n`);
    return 1;
  }
}

/**
 * `--database <url>`, else the `DATABASE_URL` environment variable: a PostgreSQL URL, or
 * undefined for the SQLite file in the data directory. UsageError for anything else.
 */
export function databaseOption(value: string | undefined): string | undefined {
  const url = value ?? (process.env.DATABASE_URL || undefined);
  if (url === undefined) return undefined;
  if (!/^postgres(ql)?:\/\/\S+$/i.test(url)) {
    throw new UsageError(
      `${value !== undefined ? '--database' : 'DATABASE_URL'} must be a postgres:// URL (without it, SQLite in the data directory is used)`,
    );
  }
  return url;
}
