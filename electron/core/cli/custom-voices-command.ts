/**
 * `voices custom list | show | create | edit | delete | audition`: your own voices in the data
 * folder's database (or --database), as the /api/v1/custom-voices routes keep them. The command
 * acts as the studio: it sees and changes every key's voices, and what it makes is the studio's.
 */

import { readFile, writeFile } from 'node:fs/promises';
import {
  CUSTOM_VOICE_LIST,
  type CustomVoice,
  type CustomVoiceBase,
  type CustomVoiceInput,
} from '../../shared/custom-voices';
import type { LanguageCode } from '../../shared/voices';
import { dataPaths, defaultDataDir } from '../platform/paths';
import { openStore, type Store } from '../store';
import {
  CATALOGUE,
  createCustomVoices,
  createVoiceLibrary,
  customLexicon,
  librarySpeakers,
  resolveCustomVoice,
  STUDIO_ACCESS,
  type CustomVoices,
} from '../voices';
import { databaseOption, parseCommandLine, UsageError } from './usage';

const CUSTOM_VOICES_USAGE = `Usage: voices custom <command> [options]
  voices custom list [--json]
  voices custom show <code>
  voices custom create --code <code> --name <name> --base <base> [--voice-code <code>]
                       [--speed <x>] [--pitch <x>] [--volume <n>] [--lexicon <file.json>] [--note <text>]
  voices custom edit <code> [--name …] [--base …] [--voice-code …] [--speed …] [--pitch …]
                       [--volume …] [--lexicon <file.json>] [--note …]
  voices custom delete <code>
  voices custom audition <code> [--text <text>] [--out <file.wav>]
<base> is a voice code (en_female_emily_us), pack:<pack id>[#speaker] (a Piper speaker's name
or number, or a Kokoro voice), or blend:af_bella(2)+af_sky(1) (Kokoro voices and weights).
--voice-code names the catalogue voice that speaks a pack or blend when it is not installed
(same language; required for them). --speed and --pitch (0.5–2.0) and --volume (50–150, %)
multiply a request's own. --lexicon: a JSON array of entries {match, kind: respell|ipa,
replacement, case_sensitive?, whole_word?}. Every command takes --data-dir <dir> or
--database <postgres url>. The command acts as the studio: it lists and changes every API key's
voices, and the voices it creates are the studio's (every key may speak with them).`;

const OPTIONS = {
  code: { type: 'string' },
  name: { type: 'string' },
  base: { type: 'string' },
  'voice-code': { type: 'string' },
  speed: { type: 'string' },
  pitch: { type: 'string' },
  volume: { type: 'string' },
  lexicon: { type: 'string' },
  note: { type: 'string' },
  text: { type: 'string' },
  out: { type: 'string', short: 'o' },
  json: { type: 'boolean' },
  'data-dir': { type: 'string' },
  database: { type: 'string' },
} as const;

const COMMANDS = ['list', 'show', 'create', 'edit', 'delete', 'audition'] as const;
type Command = (typeof COMMANDS)[number];

/** `--base` as the API's base. */
function parseBase(text: string): CustomVoiceBase {
  if (text.startsWith('pack:')) {
    const [packId, speaker] = text.slice('pack:'.length).split('#', 2);
    if (!packId) throw new UsageError(`--base pack:<pack id>[#speaker], got "${text}"`);
    return { kind: 'pack', pack_id: packId, ...(speaker ? { speaker } : {}) };
  }
  if (text.startsWith('blend:')) {
    const parts = text
      .slice('blend:'.length)
      .split('+')
      .map((item) => {
        const match = /^([a-z]{2}_[a-z0-9]+)(?:\(([^()]+)\))?$/.exec(item.trim());
        if (!match) throw new UsageError(`--base blend: items are voice or voice(weight), got "${item}"`);
        const weight = match[2] === undefined ? 1 : Number(match[2]);
        if (!Number.isFinite(weight) || weight <= 0)
          throw new UsageError(`--base blend: a weight must be a positive number, got "${match[2]}"`);
        return { voice: match[1]!, weight };
      });
    return { kind: 'kokoro_blend', parts };
  }
  return { kind: 'code', voice_code: text };
}

/** The base as `--base` writes it. */
function baseText(base: CustomVoiceBase): string {
  if (base.kind === 'code') return base.voice_code;
  if (base.kind === 'pack') return `pack:${base.pack_id}${base.speaker ? `#${base.speaker}` : ''}`;
  return `blend:${base.parts.map((p) => `${p.voice}(${p.weight})`).join('+')}`;
}

function numberOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n))
    throw new UsageError(`--${name} must be a number, got "${value}"`);
  return n;
}

async function lexiconOption(file: string | undefined): Promise<unknown> {
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--lexicon: cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UsageError(`--lexicon: ${file} is not JSON (an array of entries)`);
  }
}

function describe(voice: CustomVoice): string {
  const { speed, pitch, volume } = voice.prosody;
  return [
    `code:       ${voice.code}`,
    `name:       ${voice.name}`,
    `base:       ${baseText(voice.base)}`,
    `voice code: ${voice.voice_code} (${voice.language}${voice.gender ? `, ${voice.gender}` : ''})`,
    `prosody:    speed ×${speed}, pitch ×${pitch}, volume ${volume}%`,
    `lexicon:    ${voice.lexicon.length} entr${voice.lexicon.length === 1 ? 'y' : 'ies'}`,
    ...voice.lexicon.map((e) => `  ${e.match} → ${e.replacement} (${e.kind})`),
    ...(voice.note ? [`note:       ${voice.note}`] : []),
    `owner:      ${voice.owner_key_id ? `API key ${voice.owner_key_id}` : 'the studio'}`,
    `updated:    ${voice.updated_at}`,
  ].join('\n');
}

/** `voices custom …` with the arguments after `custom`. */
export async function runCustomVoices(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${CUSTOM_VOICES_USAGE}\n`);
    if (command === undefined) throw new UsageError('missing voices custom command');
    return;
  }
  if (!COMMANDS.includes(command as Command))
    throw new UsageError(`unknown voices custom command "${command}"`);
  const { values, positionals } = parseCommandLine(rest, OPTIONS, true);
  const wantsCode = command !== 'list' && command !== 'create';
  if (wantsCode ? positionals.length !== 1 : positionals.length !== 0)
    throw new UsageError(
      wantsCode
        ? `voices custom ${command} takes one custom voice code`
        : `voices custom ${command} takes no arguments`,
    );
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const databaseUrl = databaseOption(values.database);
  const store = await openStore(
    databaseUrl
      ? { url: databaseUrl }
      : { path: dataPaths(dataDir).database, holder: `Narration Studio voices custom ${command}` },
  );
  try {
    await run(command as Command, positionals[0], values, store, dataDir);
  } finally {
    await store.close();
  }
}

async function run(
  command: Command,
  code: string | undefined,
  values: ReturnType<typeof parseCommandLine<typeof OPTIONS>>['values'],
  store: Store,
  dataDir: string,
): Promise<void> {
  const { checkVoiceModel } = await import('../engine');
  const library = createVoiceLibrary({ dataDir, validateModel: checkVoiceModel });
  const customVoices: CustomVoices = createCustomVoices({
    store,
    checks: { installed: () => library.list(), catalogue: CATALOGUE },
    now: () => new Date().toISOString(),
  });
  const input = async (base: Partial<CustomVoiceInput>): Promise<unknown> => {
    const prosody = {
      ...base.prosody,
      ...(values.speed !== undefined ? { speed: numberOption('speed', values.speed) } : {}),
      ...(values.pitch !== undefined ? { pitch: numberOption('pitch', values.pitch) } : {}),
      ...(values.volume !== undefined ? { volume: numberOption('volume', values.volume) } : {}),
    };
    const lexicon = await lexiconOption(values.lexicon);
    return {
      ...base,
      ...(values.name !== undefined ? { name: values.name } : {}),
      ...(values.base !== undefined ? { base: parseBase(values.base) } : {}),
      ...(values['voice-code'] !== undefined ? { voice_code: values['voice-code'] } : {}),
      prosody,
      ...(lexicon !== undefined ? { lexicon } : {}),
      ...(values.note !== undefined ? { note: values.note } : {}),
    };
  };
  switch (command) {
    case 'list': {
      // A page at a time (every key's voices, each with its lexicon), written as it is read;
      // --json writes one array, a voice after another.
      let cursor: string | null = null;
      let listed = 0;
      do {
        const page = await customVoices.page(STUDIO_ACCESS, {
          limit: CUSTOM_VOICE_LIST.page,
          ...(cursor === null ? {} : { cursor }),
        });
        for (const v of page.voices) {
          process.stdout.write(
            values.json
              ? `${listed === 0 ? '[' : ','}\n${JSON.stringify(v, null, 2).replace(/^/gm, '  ')}`
              : `${v.code.padEnd(24)} ${v.name.padEnd(24)} ${baseText(v.base).padEnd(36)} speed ×${v.prosody.speed} pitch ×${v.prosody.pitch} volume ${v.prosody.volume}%\n`,
          );
          listed++;
        }
        cursor = page.next_cursor;
      } while (cursor !== null);
      if (values.json) process.stdout.write(listed === 0 ? '[]\n' : '\n]\n');
      else if (listed === 0) process.stdout.write('no custom voices (voices custom create …)\n');
      return;
    }
    case 'show':
      process.stdout.write(`${describe(await customVoices.get(code!, STUDIO_ACCESS))}\n`);
      return;
    case 'create': {
      if (values.code === undefined || values.name === undefined || values.base === undefined)
        throw new UsageError('voices custom create needs --code, --name and --base');
      const voice = await customVoices.create(await input({ code: values.code }), STUDIO_ACCESS);
      process.stdout.write(`created ${voice.code}\n${describe(voice)}\n`);
      return;
    }
    case 'edit': {
      if (values.code !== undefined)
        throw new UsageError('a custom voice keeps its code: create another one instead');
      const old = await customVoices.get(code!, STUDIO_ACCESS);
      const voice = await customVoices.replace(
        code!,
        await input({
          code: old.code,
          name: old.name,
          base: old.base,
          ...(old.base.kind === 'code' ? {} : { voice_code: old.voice_code }),
          prosody: old.prosody,
          lexicon: old.lexicon,
          note: old.note,
        }),
        STUDIO_ACCESS,
      );
      process.stdout.write(`edited ${voice.code}\n${describe(voice)}\n`);
      return;
    }
    case 'delete':
      await customVoices.delete(code!, STUDIO_ACCESS);
      process.stdout.write(`deleted ${code}\n`);
      return;
    case 'audition': {
      const voice = await customVoices.get(code!, STUDIO_ACCESS);
      const [{ createEngine }, { readLexicon }] = await Promise.all([
        import('../engine'),
        import('./lexicon-option'),
      ]);
      const resolved = await resolveCustomVoice(
        voice,
        { speed_rate: 1, pitch_rate: 1, volume: 100 },
        librarySpeakers(library, 'std-v1.6'),
      );
      const global = await readLexicon(dataDir, voice.language as LanguageCode);
      const engine = await createEngine({ poolSize: 1 });
      try {
        const wav = await engine.audition({
          voice_code: resolved.voice_code,
          speed_rate: resolved.speed_rate,
          pitch_rate: resolved.pitch_rate,
          volume: resolved.volume,
          lexicon: customLexicon(voice, global),
          ...(values.text ? { text: values.text } : {}),
          ...(resolved.neuralVoice ? { neuralVoice: resolved.neuralVoice } : {}),
        });
        const out = values.out ?? `${voice.code}.wav`;
        await writeFile(out, wav);
        process.stderr.write(
          `wrote ${out}: ${voice.name}${resolved.fallback ? ` (its base is not installed: ${voice.voice_code} spoke)` : ''}\n`,
        );
      } finally {
        await engine.close();
      }
      return;
    }
  }
}
