/**
 * `cache stats | clear`: the sentence cache of --data-dir (`cache/sentences/`), read or emptied
 * offline. A server running on the same folder finds cleared entries gone at their next use
 * (a miss, synthesised again); its own counters are those of `GET /api/v1/cache`.
 */

import { existsSync } from 'node:fs';
import { openSentenceCache } from '../engine';
import { defaultDataDir, sentenceCacheDir } from '../platform/paths';
import { parseCommandLine, runCommand, UsageError } from './usage';

const CACHE_USAGE = `Usage: cache <command> [options]
  cache stats [--json]   entries and size of the sentence cache
  cache clear            remove every entry
Both take --data-dir <dir> (default: the per-user app data folder). The cache keeps rendered
sentences by content (text after preparation, voice, engine, prosody, model, lexicon), so a text
rendered again after an edit synthesises only the changed sentences.`;

const COMMANDS = ['stats', 'clear'] as const;
type CacheCommand = (typeof COMMANDS)[number];

/** cache stats | clear, on the sentence cache of --data-dir. */
export function runCache(argv: string[]): Promise<number> {
  return runCommand(CACHE_USAGE, async () => {
    const [command, ...rest] = argv;
    if (command === '--help' || command === '-h' || command === 'help') {
      process.stdout.write(`${CACHE_USAGE}\n`);
      return;
    }
    if (!COMMANDS.includes(command as CacheCommand))
      throw new UsageError(command ? `unknown cache command "${command}"` : 'missing cache command');
    const { values } = parseCommandLine(rest, {
      'data-dir': { type: 'string' },
      json: { type: 'boolean' },
    });
    if (values.json && command !== 'stats') throw new UsageError('--json applies to "cache stats" only');
    const dir = sentenceCacheDir(values['data-dir'] ?? defaultDataDir());
    if (!existsSync(dir)) {
      // Nothing to open: a data folder that never cached anything is reported, not created.
      const empty = { entries: 0, bytes: 0 };
      process.stdout.write(
        values.json ? `${JSON.stringify({ dir, ...empty })}\n` : `${dir}: no sentence cache\n`,
      );
      return;
    }
    // No eviction here: the limit belongs to the engine that fills the cache.
    const cache = await openSentenceCache({ dir, maxBytes: Number.POSITIVE_INFINITY });
    if ((command as CacheCommand) === 'stats') {
      const { entries, bytes } = cache.stats();
      process.stdout.write(
        values.json
          ? `${JSON.stringify({ dir, entries, bytes })}\n`
          : `${dir}: ${entries} ${entries === 1 ? 'entry' : 'entries'}, ${formatMegabytes(bytes)}\n`,
      );
      return;
    }
    const before = cache.stats();
    await cache.clear();
    process.stdout.write(
      `removed ${before.entries} entries (${formatMegabytes(before.bytes)}) from ${dir}\n`,
    );
  });
}

function formatMegabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
