/**
 * `lexicon list | add | remove | import | export`: the pronunciation lexicon of --data-dir
 * (`lexicon.json`), edited offline. A server running on the same folder reads the change at its
 * next render or request (the store reads the file again when it changed).
 */

import { isLanguageCode, LANGUAGE_CODES } from '../../shared/languages';
import { readFile, writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import {
  filterEntries,
  LEXICON_FORMATS,
  type LexiconEntry,
  type LexiconEntryInput,
  type LexiconFormat,
} from '../../shared/lexicon';
import { formatLexicon, LexiconFileError } from '../../shared/lexicon-files';
import type { LanguageCode } from '../../shared/voices';
import { createLexiconStore } from '../lexicon';
import { stderrLog } from '../platform/log';
import { defaultDataDir } from '../platform/paths';
import { parseCommandLine, runCommand, UsageError } from './usage';

const LEXICON_USAGE = `Usage: lexicon <command> [options]
  lexicon list [--language <code>] [--search <text>] [--json]
  lexicon add --language <code> --match <word or phrase> (--say <respelling> | --ipa <IPA>
              | --abbreviation <its words> | --unit <one|many>) [--case-sensitive] [--anywhere]
              [--note <text>]
  lexicon remove <id, or the match> [--language <code>]
  lexicon import <file> [--format json|csv|pls] [--language <code>] [--replace]
  lexicon export [--format json|csv|pls] [--language <code>] [--out <file>]
Every command takes --data-dir <dir> (default: the per-user app data folder).
Languages: ${LANGUAGE_CODES.join(', ')}. An entry matches whole words and ignores case unless
--anywhere / --case-sensitive say otherwise. An abbreviation ("Cty." → "công ty") matches
whole words with or without its full stop, in the case written; a unit ("kn" → "knot|knots")
is read after a number by the language's rules, its symbol as written. --format defaults to the file's extension (json);
a PLS file holds one language (export: --language is required; import: its xml:lang, or
--language). import merges (same language and match: updated); with --replace, the file's
languages keep only the file's entries.`;

const COMMANDS = ['list', 'add', 'remove', 'import', 'export'] as const;
type LexiconCommand = (typeof COMMANDS)[number];

function languageOption(value: string | undefined): LanguageCode | undefined {
  if (value === undefined) return undefined;
  if (!isLanguageCode(value))
    throw new UsageError(`--language must be one of ${LANGUAGE_CODES.join(', ')}, got "${value}"`);
  return value;
}

function formatOption(value: string | undefined, file: string | undefined): LexiconFormat {
  const format = value ?? (file ? extname(file).slice(1).toLowerCase() : 'json');
  if (!(LEXICON_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(
      value === undefined
        ? `cannot tell the format of "${file}" from its extension: give --format ${LEXICON_FORMATS.join('|')}`
        : `--format must be one of ${LEXICON_FORMATS.join(', ')}, got "${value}"`,
    );
  }
  return format as LexiconFormat;
}

function describe(e: LexiconEntry): string {
  const rules = [e.case_sensitive ? 'case-sensitive' : '', e.whole_word ? '' : 'anywhere'].filter(Boolean);
  return `${e.id}  ${e.language}  ${JSON.stringify(e.match)} → ${e.kind === 'ipa' ? `/${e.replacement}/` : JSON.stringify(e.replacement)}${rules.length ? `  (${rules.join(', ')})` : ''}${e.note ? `  # ${e.note}` : ''}`;
}

/** lexicon list | add | remove | import | export, on the lexicon of --data-dir. */
export function runLexicon(argv: string[]): Promise<number> {
  return runCommand(LEXICON_USAGE, async () => {
    const [command, ...rest] = argv;
    if (command === '--help' || command === '-h' || command === 'help') {
      process.stdout.write(`${LEXICON_USAGE}\n`);
      return;
    }
    if (!COMMANDS.includes(command as LexiconCommand))
      throw new UsageError(command ? `unknown lexicon command "${command}"` : 'missing lexicon command');
    const { values, positionals } = parseCommandLine(
      rest,
      {
        'data-dir': { type: 'string' },
        language: { type: 'string' },
        search: { type: 'string' },
        json: { type: 'boolean' },
        match: { type: 'string' },
        say: { type: 'string' },
        ipa: { type: 'string' },
        abbreviation: { type: 'string' },
        unit: { type: 'string' },
        'case-sensitive': { type: 'boolean' },
        anywhere: { type: 'boolean' },
        note: { type: 'string' },
        format: { type: 'string' },
        replace: { type: 'boolean' },
        out: { type: 'string', short: 'o' },
      },
      command === 'remove' || command === 'import',
    );
    const only = (names: string[]) => {
      const extra = Object.keys(values).find((name) => name !== 'data-dir' && !names.includes(name));
      if (extra) throw new UsageError(`--${extra} does not apply to "lexicon ${command}"`);
    };
    const language = languageOption(values.language);
    const store = createLexiconStore({ dataDir: values['data-dir'] ?? defaultDataDir(), log: stderrLog });

    switch (command as LexiconCommand) {
      case 'list': {
        only(['language', 'search', 'json']);
        const { version, items } = await store.read();
        const shown = filterEntries(items, {
          ...(language ? { language } : {}),
          ...(values.search ? { q: values.search } : {}),
        });
        if (values.json) process.stdout.write(`${JSON.stringify({ version, items: shown }, null, 2)}\n`);
        else if (shown.length === 0)
          process.stdout.write(items.length === 0 ? 'the lexicon is empty\n' : 'no entry matches\n');
        else process.stdout.write(`${shown.map(describe).join('\n')}\n`);
        return;
      }
      case 'add': {
        only([
          'language',
          'match',
          'say',
          'ipa',
          'abbreviation',
          'unit',
          'case-sensitive',
          'anywhere',
          'note',
        ]);
        if (!language) throw new UsageError('--language is required');
        if (!values.match) throw new UsageError('--match is required');
        const kinds = (['say', 'ipa', 'abbreviation', 'unit'] as const).filter(
          (k) => values[k] !== undefined,
        );
        if (kinds.length !== 1)
          throw new UsageError(
            'give one of --say <respelling>, --ipa <IPA>, --abbreviation <its words> or --unit <one|many>',
          );
        const option = kinds[0] as (typeof kinds)[number];
        const input: LexiconEntryInput = {
          language,
          match: values.match,
          kind: option === 'say' ? 'respell' : option,
          replacement: values[option] ?? '',
          // An abbreviation is matched in the case written (prepareEntry's default for it).
          ...(option === 'abbreviation' && !values['case-sensitive']
            ? {}
            : { case_sensitive: values['case-sensitive'] ?? false }),
          whole_word: !values.anywhere,
          ...(values.note ? { note: values.note } : {}),
        };
        const { entry, version } = await store.add(input);
        process.stdout.write(`added ${describe(entry)}\nlexicon version ${version}\n`);
        return;
      }
      case 'remove': {
        only(['language']);
        if (positionals.length !== 1) throw new UsageError('lexicon remove takes one id or match');
        const wanted = positionals[0] as string;
        const { items } = await store.read();
        const byId = items.find((e) => e.id === wanted);
        const byMatch = items.filter(
          (e) =>
            (!language || e.language === language) && e.match.toLowerCase() === wanted.trim().toLowerCase(),
        );
        const target = byId ?? (byMatch.length === 1 ? byMatch[0] : undefined);
        if (!target) {
          if (byMatch.length > 1)
            throw new UsageError(
              `"${wanted}" is the match of ${byMatch.length} entries: give its id or --language\n${byMatch.map(describe).join('\n')}`,
            );
          throw new Error(`the lexicon has no entry "${wanted}"${language ? ` in ${language}` : ''}`);
        }
        const { version } = await store.remove(target.id);
        process.stdout.write(`removed ${describe(target)}\nlexicon version ${version}\n`);
        return;
      }
      case 'import': {
        only(['format', 'language', 'replace']);
        if (positionals.length !== 1) throw new UsageError('lexicon import takes one file');
        const file = positionals[0] as string;
        const format = formatOption(values.format, file);
        let entries;
        try {
          // The file readers (csv-parse, the XML parsers) load only to import a file.
          const { parseLexicon } = await import('../lexicon/lexicon-file-reader');
          entries = parseLexicon(await readFile(file, 'utf8'), format, language);
        } catch (error) {
          if (error instanceof LexiconFileError) throw new Error(`${file}: ${error.message}`);
          throw error;
        }
        const r = await store.importEntries(entries, { replace: values.replace ?? false });
        process.stdout.write(
          `imported ${entries.length} entries from ${file}: ${r.added} added, ${r.updated} updated, ${r.unchanged} unchanged${values.replace ? `, ${r.removed} removed` : ''}\nlexicon version ${r.version}\n`,
        );
        return;
      }
      case 'export': {
        only(['format', 'language', 'out']);
        const format = formatOption(values.format, values.out);
        if (format === 'pls' && !language)
          throw new UsageError('a PLS file holds one language: give --language');
        const { items } = await store.read();
        const entries = language ? items.filter((e) => e.language === language) : items;
        const text = formatLexicon(entries, format, language);
        if (values.out) {
          await writeFile(values.out, text);
          process.stderr.write(`wrote ${entries.length} entries to ${values.out}\n`);
        } else process.stdout.write(text);
        return;
      }
    }
  });
}
