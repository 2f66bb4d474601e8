/**
 * `project import | list | show | edit | delete`: book projects of --data-dir (SQLite, the
 * server not running on it) or of a PostgreSQL database (`--database`, also while instances
 * serve from it), as JSON on stdout. The command acts as the data directory's studio: the
 * projects belong to the studio's key (the oldest live key, created on first use), so the
 * studio shows what the command made and the reverse. `render` and `export` are added to
 * PROJECT_SUBCOMMANDS by project-render-command.ts.
 */

import { basename } from 'node:path';
import { NOTES_MODES, type NotesMode } from '../../shared/manuscript';
import { PROJECT_LIMITS, type ProjectDetail } from '../../shared/projects';
import { readManuscript } from '../manuscripts';
import { systemClock } from '../platform/clock';
import { dataPaths, defaultDataDir } from '../platform/paths';
import { createProjectService } from '../projects';
import { createStudioKey } from '../server/sessions';
import { openStore } from '../store';
import { databaseOption, parseCommandLine, runCommand, UsageError } from './usage';
import { PROJECT_RENDER_SUBCOMMANDS, PROJECT_RENDER_USAGE } from './project-render-command';
import type { ProjectSubcommand } from './project-subcommand';
import {
  SPOKEN_STRUCTURE_OPTIONS,
  SPOKEN_STRUCTURE_USAGE,
  spokenStructureOptions,
} from './project-settings-options';

const PROJECT_USAGE = `Usage: project <command> [options]
  project import <file> [--title <text>] [--author <text>] [--voice <code>] [--language <code>]
                 [--notes omit|inline|appendix]
                 ${SPOKEN_STRUCTURE_USAGE}
  project set <project id> ${SPOKEN_STRUCTURE_USAGE}
  project list [--limit <n>] [--cursor <next_cursor>]
  project show <project id> [--chapter <chapter id> [--offset <n>] [--limit <n>]]
  project edit <project id> --segment <segment id> [--text <text>] [--speaker <character id | narrator>]
  project delete <project id>
${PROJECT_RENDER_USAGE}
Every command takes --data-dir <dir> (default: the per-user app data folder) or --database <url>
(default: DATABASE_URL; PostgreSQL, usable while servers run on it). Without --database the
server must not be running on the data directory. Projects belong to the studio's key.
import reads DOCX, EPUB, ODT, RTF, FB2 (.fb2, .fb2.zip), HTML, Markdown, plain text and PDF;
--notes says what becomes of footnotes and endnotes: omit (the default: left out, with a
warning), inline (each read after the paragraph citing it, "Note: …") or appendix (a last
chapter "Notes"). It prints the new project
{id, title, chapters: [{id, title, included, segments}]}. import and set take the spoken
structure: --speak-headings starts each chapter with its heading read aloud, --credits adds
opening and closing credits (both on by default for the ACX preset, off for the others; the
--no- forms turn them off); the credits name the title, the author and --narrator-name, and
end with --copyright; --opening-credits and --closing-credits replace their words ("" gives
them back). set prints the project's settings. show prints the project, its cast and
its chapters with their figures; with --chapter, a window of that chapter's segments
{chapter_id, items: [{id, text, speaker, state}], offset, limit, total} (--offset from 0,
--limit 1 to 500, default 100); edit prints the segment. list prints a page of the projects,
newest first: {items, next_cursor, total} (--limit 1 to 100, default 20; --cursor the
next_cursor of the page before, null after the last page).`;

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function summary(detail: ProjectDetail) {
  return {
    id: detail.project.id,
    title: detail.project.title,
    language: detail.project.language,
    // An import says how it chose the language (from the text when the metadata disagrees).
    ...(detail.language_choice ? { language_choice: detail.language_choice } : {}),
    // …and when its text was converted from a legacy Vietnamese encoding.
    ...(detail.legacy_encoding ? { legacy_encoding: detail.legacy_encoding } : {}),
    // …and the character encoding a text file was read in.
    ...(detail.text_encoding ? { text_encoding: detail.text_encoding } : {}),
    chapters: detail.chapters.map((c) => ({
      id: c.id,
      title: c.title,
      included: c.included,
      segments: c.segment_count,
    })),
  };
}

const string = (value: string | boolean | undefined) => (typeof value === 'string' ? value : undefined);

/** The option `--<name>` as a whole number from `min` to `max` (undefined when not given). */
function wholeNumber(
  values: Record<string, string | boolean | undefined>,
  name: string,
  min: number,
  max: number,
): number | undefined {
  const text = string(values[name]);
  if (text === undefined) return undefined;
  const value = /^[0-9]{1,9}$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max))
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  return value;
}

/** `--notes`: one of NOTES_MODES, or undefined when not given. */
function notesMode(value: string | undefined): NotesMode | undefined {
  if (value === undefined) return undefined;
  const mode = NOTES_MODES.find((m) => m === value);
  if (!mode) throw new UsageError(`--notes must be one of ${NOTES_MODES.join(', ')}`);
  return mode;
}

/** The subcommands by name (render and export: project-render-command.ts). */
const PROJECT_SUBCOMMANDS = new Map<string, ProjectSubcommand>([
  [
    'import',
    {
      options: {
        title: { type: 'string' },
        author: { type: 'string' },
        voice: { type: 'string' },
        language: { type: 'string' },
        notes: { type: 'string' },
        ...SPOKEN_STRUCTURE_OPTIONS,
      },
      positionals: 1,
      async run({ positionals, values, projects, keyId }) {
        const path = positionals[0]!;
        const notes = notesMode(string(values.notes));
        const spoken = spokenStructureOptions(values);
        const manuscript = await readManuscript({ fileName: basename(path), path }, notes ? { notes } : {});
        const title = string(values.title);
        const author = string(values.author);
        const voice = string(values.voice);
        const language = string(values.language);
        const detail = await projects.createFromManuscript(keyId, manuscript, {
          ...(title ? { title } : {}),
          ...(author ? { author } : {}),
          ...(voice ? { voice_code: voice } : {}),
          ...(language ? { language } : {}),
          ...spoken,
        });
        for (const warning of manuscript.warnings) process.stderr.write(`warning: ${warning}\n`);
        print(summary(detail));
      },
    },
  ],
  [
    'list',
    {
      options: { limit: { type: 'string' }, cursor: { type: 'string' } },
      positionals: 0,
      async run({ values, projects, keyId }) {
        const limit = wholeNumber(values, 'limit', 1, PROJECT_LIMITS.listPage);
        const cursor = string(values.cursor);
        print(
          await projects.list(keyId, {
            ...(limit === undefined ? {} : { limit }),
            ...(cursor === undefined ? {} : { cursor }),
          }),
        );
      },
    },
  ],
  [
    'show',
    {
      options: { chapter: { type: 'string' }, offset: { type: 'string' }, limit: { type: 'string' } },
      positionals: 1,
      async run({ positionals, values, projects, keyId }) {
        const chapter = string(values.chapter);
        if (chapter === undefined) {
          if (values.offset !== undefined || values.limit !== undefined)
            throw new UsageError('--offset and --limit page the segments of --chapter <chapter id>');
          const detail = await projects.detail(keyId, positionals[0]!);
          print({ ...detail.project, characters: detail.characters, chapters: detail.chapters });
          return;
        }
        const page = await projects.segments(
          keyId,
          positionals[0]!,
          chapter,
          wholeNumber(values, 'offset', 0, 999_999_999),
          wholeNumber(values, 'limit', 1, PROJECT_LIMITS.segmentPage),
        );
        print({
          ...page,
          items: page.items.map((s) => ({ id: s.id, text: s.text, speaker: s.speaker, state: s.state })),
        });
      },
    },
  ],
  [
    'edit',
    {
      options: { segment: { type: 'string' }, text: { type: 'string' }, speaker: { type: 'string' } },
      positionals: 1,
      async run({ positionals, values, projects, keyId }) {
        const segment = string(values.segment);
        if (!segment) throw new UsageError('project edit needs --segment <segment id>');
        const text = string(values.text);
        const speaker = string(values.speaker);
        if (text === undefined && speaker === undefined)
          throw new UsageError('project edit needs --text or --speaker');
        const edited = await projects.editSegment(keyId, positionals[0]!, segment, {
          ...(text !== undefined ? { text } : {}),
          ...(speaker !== undefined ? { speaker: speaker === 'narrator' ? null : speaker } : {}),
        });
        print(edited);
      },
    },
  ],
  [
    'set',
    {
      options: SPOKEN_STRUCTURE_OPTIONS,
      positionals: 1,
      async run({ positionals, values, projects, keyId }) {
        const settings = spokenStructureOptions(values);
        if (Object.keys(settings).length === 0) throw new UsageError('project set needs a setting to change');
        print((await projects.updateSettings(keyId, positionals[0]!, settings)).project);
      },
    },
  ],
  [
    'delete',
    {
      options: {},
      positionals: 1,
      async run({ positionals, projects, keyId }) {
        print(await projects.remove(keyId, positionals[0]!));
      },
    },
  ],
  ...PROJECT_RENDER_SUBCOMMANDS,
]);

export function runProject(argv: string[]): Promise<number> {
  return runCommand(PROJECT_USAGE, async () => {
    const [command, ...rest] = argv;
    if (command === '--help' || command === '-h' || command === 'help') {
      process.stdout.write(`${PROJECT_USAGE}\n`);
      return;
    }
    const subcommand = command === undefined ? undefined : PROJECT_SUBCOMMANDS.get(command);
    if (!subcommand)
      throw new UsageError(command ? `unknown project command "${command}"` : 'missing project command');
    const { values, positionals } = parseCommandLine(
      rest,
      { 'data-dir': { type: 'string' }, database: { type: 'string' }, ...subcommand.options },
      true,
      true,
    );
    if (positionals.length !== subcommand.positionals) {
      throw new UsageError(
        subcommand.positionals === 0
          ? `project ${command} takes no arguments`
          : `project ${command} takes ${subcommand.positionals === 1 ? (command === 'import' ? 'a file' : 'a project id') : `${subcommand.positionals} arguments`}`,
      );
    }
    const databaseUrl = databaseOption(values.database as string | undefined);
    const dataDir = (values['data-dir'] as string | undefined) ?? defaultDataDir();
    const paths = dataPaths(dataDir);
    const store = await openStore(
      databaseUrl
        ? { url: databaseUrl }
        : { path: paths.database, holder: `Narration Studio project ${command}` },
    );
    try {
      const key = await createStudioKey(store, systemClock, undefined)();
      const projects = createProjectService({ store, filesDir: paths.files });
      await subcommand.run({ positionals, values, store, projects, keyId: key.id, dataDir });
    } finally {
      await store.close();
    }
  });
}
