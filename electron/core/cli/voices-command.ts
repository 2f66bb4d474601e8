/**
 * `voices catalog | list | show | install | remove | assign`: the neural voice library of --data-dir,
 * offline except for `install` of a catalogue id or URL (from https://huggingface.co, or the
 * mirror given with --voice-mirror).
 */

import { MODEL_IDS, type ModelId } from '../../shared/options';
import { findVoice, VOICES } from '../../shared/voices';
import {
  NEURAL_MODEL_IDS,
  type CatalogueEntry,
  type NeuralModelId,
  type PackManifest,
  type PackSpeed,
} from '../../shared/voice-packs';
import { AppError, isAppError } from '../../shared/errors';
import { defaultDataDir } from '../platform/paths';
import { stderrLog } from '../platform/log';
import {
  checkAssignment,
  createVoiceLibrary,
  engineLabel,
  findCatalogueEntry,
  parseAssignment,
  sampleUrl,
  resolveEngineVoice,
  type InstallProgress,
  type VoiceLibrary,
} from '../voices';
import { parseCommandLine, runCommand, UsageError } from './usage';

const VOICES_USAGE = `Usage: voices <command> [options]
  voices catalog [--language <code>] [--json]
  voices list [--json]
  voices show <pack id> [--json]
  voices install <catalogue id | path | url> [--id <pack id>] [--voice-mirror <url>]
  voices remove <pack id>
  voices assign <voice_code> <pack id>[#speaker] [--model <model_id>]
  voices assign <voice_code> --clear [--model <model_id>]
  voices custom list | show | create | edit | delete | audition   (your own voices: voices custom help)
Every command takes --data-dir <dir> (default: the per-user data folder); packs live in
<data dir>/voices. install takes a catalogue id (see "voices catalog"), a Piper .onnx (with its
.onnx.json beside it), a Kokoro model folder, a .zip or .tar.gz of either, or an http(s) URL of
one. list and show give each pack's licence as its model card states it, the card's address,
and its speed on this machine (real-time factor and time to first audio, measured on the first
render with it). --voice-mirror <url> downloads catalogue packs from a mirror with the layout of
https://huggingface.co. assign without --model sets the voice for every neural model_id
(${NEURAL_MODEL_IDS.join(', ')}); std-v1 is always eSpeak, and so is Korean.`;

const COMMANDS = ['catalog', 'list', 'show', 'install', 'remove', 'assign'] as const;
type Command = (typeof COMMANDS)[number];

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

function mirrorOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--voice-mirror must be an http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--voice-mirror must be an http(s) URL, got "${value}"`);
  return value.replace(/\/+$/, '');
}

function modelOption(value: string | undefined): NeuralModelId | undefined {
  if (value === undefined) return undefined;
  if (value === 'std-v1') throw new UsageError('std-v1 is always eSpeak; assign a voice to another model_id');
  if (!(NEURAL_MODEL_IDS as readonly string[]).includes(value))
    throw new UsageError(`--model must be one of ${MODEL_IDS.join(', ')}, got "${value}"`);
  return value as NeuralModelId;
}

/** voices catalog | list | install | remove | assign. */
export function runVoices(argv: string[]): Promise<number> {
  return runCommand(VOICES_USAGE, async () => {
    const [command, ...rest] = argv;
    if (command === '--help' || command === '-h' || command === 'help') {
      process.stdout.write(`${VOICES_USAGE}\n`);
      return;
    }
    if (command === 'custom') {
      const { runCustomVoices } = await import('./custom-voices-command');
      return runCustomVoices(rest);
    }
    if (!COMMANDS.includes(command as Command)) {
      throw new UsageError(command ? `unknown voices command "${command}"` : 'missing voices command');
    }
    const { values, positionals } = parseCommandLine(
      rest,
      {
        'data-dir': { type: 'string' },
        'voice-mirror': { type: 'string' },
        json: { type: 'boolean' },
        language: { type: 'string' },
        id: { type: 'string' },
        model: { type: 'string' },
        clear: { type: 'boolean' },
      },
      true,
    );
    const expected: Record<Command, number> = {
      catalog: 0,
      list: 0,
      show: 1,
      install: 1,
      remove: 1,
      assign: values.clear ? 1 : 2,
    };
    if (positionals.length !== expected[command as Command]) {
      throw new UsageError(
        expected[command as Command] === 0
          ? `voices ${command} takes no arguments`
          : `voices ${command} takes ${command === 'assign' ? (values.clear ? 'a voice code' : 'a voice code and <pack id>[#speaker]') : 'one argument'}`,
      );
    }
    const library = createVoiceLibrary({
      dataDir: values['data-dir'] ?? defaultDataDir(),
      // The engine's check: open the model with onnxruntime (loaded only now) and speak a short sentence.
      validateModel: async (path, family) => (await import('../engine')).checkVoiceModel(path, family),
      log: stderrLog,
      ...(values['voice-mirror'] ? { mirror: mirrorOption(values['voice-mirror'])! } : {}),
    });
    switch (command as Command) {
      case 'catalog':
        return catalog(library, values.language, values.json === true);
      case 'list':
        return list(library, values.json === true);
      case 'show':
        return show(library, positionals[0]!, values.json === true);
      case 'install':
        return install(library, positionals[0]!, values.id);
      case 'remove':
        return remove(library, positionals[0]!);
      case 'assign':
        return assign(library, positionals, modelOption(values.model), values.clear === true);
    }
  });
}

async function catalog(library: VoiceLibrary, language: string | undefined, json: boolean): Promise<void> {
  const installed = new Set((await library.list()).map((p) => p.id));
  const entries = library.catalogue.filter((e) => !language || e.languages.includes(language));
  if (json) {
    process.stdout.write(
      `${JSON.stringify(
        entries.map((e) => ({ ...e, installed: installed.has(e.id) })),
        null,
        2,
      )}\n`,
    );
    return;
  }
  for (const e of entries) {
    const speakers =
      e.family === 'kokoro'
        ? `${e.num_speakers} voices`
        : `${e.num_speakers} speaker${e.num_speakers > 1 ? 's' : ''}`;
    process.stdout.write(
      `${e.id.padEnd(36)} ${e.family.padEnd(6)} ${e.languages.join(',').padEnd(14)} ${e.quality.padEnd(6)} ` +
        `${mb(e.size).padStart(9)}  ${speakers.padEnd(12)} ${installed.has(e.id) ? 'installed  ' : '           '}${e.licence}\n`,
    );
  }
}

const NEURAL: readonly ModelId[] = NEURAL_MODEL_IDS;

async function list(library: VoiceLibrary, json: boolean): Promise<void> {
  const packs = await library.list();
  const overrides = await library.assignments();
  const voices = VOICES.map((v) => ({
    voice_code: v.voice_code,
    ...Object.fromEntries(
      NEURAL.map((m) => [m, engineLabel(resolveEngineVoice(v.voice_code, m, packs, overrides))]),
    ),
  }));
  const speeds = await Promise.all(packs.map((p) => library.speed(p.id)));
  if (json) {
    const listed = packs.map((p, i) => ({ ...p, ...packFacts(library, p.id), speed: speeds[i] ?? null }));
    process.stdout.write(
      `${JSON.stringify({ packs: listed, assignments: overrides.voices, voices }, null, 2)}\n`,
    );
    return;
  }
  if (packs.length === 0) {
    process.stdout.write(`no voice packs installed in ${library.dir} (every voice uses eSpeak)\n`);
    return;
  }
  for (const [i, p] of packs.entries()) {
    const card = packFacts(library, p.id).model_card_url;
    process.stdout.write(
      `${describePack(p)}\n${' '.repeat(4)}speed: ${describeSpeed(speeds[i] ?? null)}` +
        `${card ? `; model card: ${card}` : ''}\n`,
    );
  }
  process.stdout.write(`\n${'voice code'.padEnd(28)} ${NEURAL.map((m) => m.padEnd(44)).join(' ')}\n`);
  for (const v of voices) {
    const row = v as unknown as Record<string, string>;
    process.stdout.write(`${v.voice_code.padEnd(28)} ${NEURAL.map((m) => row[m]!.padEnd(44)).join(' ')}\n`);
  }
}

/** The catalogue's facts of a pack: its model card, where its licence was read, its samples. */
function packFacts(
  library: VoiceLibrary,
  id: string,
): { model_card_url: string | null; licence_source: string | null; sample_url: string | null } {
  const entry = findCatalogueEntry(id, library.catalogue);
  return {
    model_card_url: entry?.model_card_url ?? null,
    licence_source: entry?.licence_source ?? null,
    sample_url: (entry && sampleUrl(library.sampleMirror, entry, 0)) ?? null,
  };
}

function describeSpeed(speed: PackSpeed | null): string {
  return speed
    ? `RTF ${speed.rtf.toFixed(3)}, first audio ${Math.round(speed.ttfa_ms)} ms ` +
        `(measured ${speed.measured_at.slice(0, 10)} on ${(speed.audio_ms / 1000).toFixed(1)} s of audio)`
    : 'not measured yet (measured on the first render with it)';
}

/** One pack, installed or in the catalogue: its facts, licence, model card, sample and speed. */
async function show(library: VoiceLibrary, id: string, json: boolean): Promise<void> {
  const installed = await library.get(id).catch(() => undefined);
  const entry = findCatalogueEntry(id, library.catalogue);
  if (!installed && !entry)
    throw new AppError(
      'VOICE_PACK_NOT_FOUND',
      `"${id}" is neither installed nor in the catalogue (see: voices catalog)`,
    );
  const speed = installed ? await library.speed(id) : null;
  const facts = packFacts(library, id);
  if (json) {
    process.stdout.write(
      `${JSON.stringify({ ...(entry ?? {}), ...(installed ?? {}), ...facts, installed: installed !== undefined, speed }, null, 2)}\n`,
    );
    return;
  }
  const pack = (installed ?? entry)!;
  const lines: [string, string][] = [
    ['pack', `${pack.id} (${pack.family}, ${pack.quality}, ${pack.languages.join(', ')})`],
    ['state', installed ? `installed ${installed.installed_at}` : 'not installed'],
    ['size', mb(pack.size)],
    ['speakers', String(pack.num_speakers)],
    ['licence', pack.licence],
    ['licence source', facts.licence_source ?? 'not in the catalogue'],
    ['model card', facts.model_card_url ?? 'none known'],
    ['sample', facts.sample_url ?? 'no public sample recordings'],
    ['speed', installed ? describeSpeed(speed) : 'measured once installed, on the first render with it'],
  ];
  for (const [label, value] of lines) process.stdout.write(`${`${label}:`.padEnd(16)}${value}\n`);
}

function describePack(p: PackManifest): string {
  const speakers =
    p.family === 'kokoro'
      ? `${p.voices.length} voices`
      : `${p.num_speakers} speaker${p.num_speakers > 1 ? 's' : ''}`;
  return (
    `${p.id.padEnd(36)} ${p.family.padEnd(6)} ${p.languages.join(',').padEnd(14)} ${p.quality.padEnd(6)} ` +
    `${String(p.sample_rate).padStart(5)} Hz ${mb(p.size).padStart(9)}  ${speakers.padEnd(12)} ${p.licence}`
  );
}

/** One status line, redrawn in place on a terminal. */
function progressLine(p: InstallProgress): string {
  const total = p.bytesTotal;
  const fraction = total ? Math.min(1, p.bytesDone / total) : 0;
  const cells = 24;
  const bar = total ? `${'='.repeat(Math.round(fraction * cells)).padEnd(cells, ' ')}` : ' '.repeat(cells);
  const amount = total ? `${mb(p.bytesDone)} / ${mb(total)}` : mb(p.bytesDone);
  return `\r|${bar}| ${total ? `${(fraction * 100).toFixed(0).padStart(3)}%` : '    '} ${amount} ${p.phase} ${p.file ?? ''}`.padEnd(
    100,
  );
}

async function install(library: VoiceLibrary, source: string, id: string | undefined): Promise<void> {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  const tty = process.stderr.isTTY === true;
  let lastFile: string | undefined;
  let lastDraw = 0;
  try {
    const { manifest, status } = await library.install(source, {
      signal: controller.signal,
      ...(id ? { id } : {}),
      onProgress: (p) => {
        if (tty) {
          // Redrawn at most ten times a second, and at every change of file or phase.
          const now = performance.now();
          if (now - lastDraw < 100 && p.file === lastFile && p.phase === 'download') return;
          lastDraw = now;
          lastFile = p.file;
          process.stderr.write(progressLine(p));
        } else if (p.file && p.file !== lastFile && p.phase === 'download') {
          lastFile = p.file;
          process.stderr.write(`downloading ${p.file}\n`);
        }
      },
    });
    if (tty) process.stderr.write('\n');
    process.stdout.write(
      status === 'installed'
        ? `installed ${manifest.id} in ${library.dir}\n${describePack(manifest)}\n`
        : `${manifest.id} is already installed (remove it first to replace it)\n`,
    );
  } catch (error) {
    if (tty) process.stderr.write('\n');
    throw error;
  } finally {
    process.removeListener('SIGINT', onSignal);
  }
}

async function remove(library: VoiceLibrary, id: string): Promise<void> {
  const manifest = await library.remove(id);
  process.stdout.write(`removed ${manifest.id}\n`);
  const overrides = await library.assignments();
  const users = Object.entries(overrides.voices)
    .filter(([, o]) => o.all?.packId === id || Object.values(o.models ?? {}).some((a) => a?.packId === id))
    .map(([code]) => code);
  if (users.length > 0) {
    process.stdout.write(
      `assigned to ${users.join(', ')}: they use the next best installed voice until it is installed again\n`,
    );
  }
}

async function assign(
  library: VoiceLibrary,
  positionals: string[],
  modelId: NeuralModelId | undefined,
  clear: boolean,
): Promise<void> {
  const [code, spec] = positionals as [string, string | undefined];
  if (!findVoice(code)) throw new UsageError(`unknown voice code "${code}" (see: say --list-voices)`);
  let assignment = null;
  let installed: PackManifest | undefined;
  if (!clear) {
    try {
      assignment = parseAssignment(spec!);
      const packs = await library.list();
      installed = packs.find((p) => p.id === assignment!.packId);
      const pack: PackManifest | CatalogueEntry | undefined =
        installed ?? library.catalogue.find((e) => e.id === assignment!.packId);
      if (!pack) {
        throw new AppError(
          'VOICE_PACK_NOT_FOUND',
          `"${assignment.packId}" is neither installed nor in the catalogue (see: voices list, voices catalog)`,
        );
      }
      checkAssignment(code, assignment, pack);
    } catch (error) {
      if (isAppError(error) && error.code !== 'VOICE_PACK_NOT_FOUND') throw new UsageError(error.message);
      throw error;
    }
  }
  const overrides = await library.assign(code, assignment, modelId);
  const scope = modelId ? `for ${modelId}` : 'for every neural model_id';
  process.stdout.write(
    assignment
      ? `${code} → ${spec} ${scope}${installed ? '' : ` (not installed yet: voices install ${assignment.packId})`}\n`
      : `${code}: assignment ${scope} cleared (the default table applies)\n`,
  );
  const packs = await library.list();
  for (const m of NEURAL) {
    process.stdout.write(`  ${m.padEnd(15)} ${engineLabel(resolveEngineVoice(code, m, packs, overrides))}\n`);
  }
}
