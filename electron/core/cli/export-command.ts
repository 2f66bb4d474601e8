/**
 * `export`: a book (Markdown with chapters) to an audiobook from the command line: one M4B or
 * MP3 with chapters, or a folder with a file per chapter, mastered with a preset (ACX, podcast
 * or none), with a loudness report beside it. See engine/export/book-export.ts.
 */

import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { CoverImage } from '../../shared/book-exports';
import {
  BOOK_FORMATS,
  FOLDER_FORMATS,
  MASTERING_PRESETS,
  type BookFormat,
  type FolderFormat,
  type MasteringPresetName,
} from '../../shared/book-formats';
import { PRESETS } from '../engine';
import { LEXICON_OPTION_USAGE, readLexicon } from './lexicon-option';
import { runCommand, UsageError } from './usage';
import { parseSpeechCommand } from './speech-command-line';
import {
  ENGINE_USAGE,
  findCustomNeuralVoice,
  findNeuralVoice,
  progressBar,
  readText,
  VOICE_USAGE,
} from './voice-options';
import { SENTENCE_CACHE_OPTION_USAGE } from './sentence-cache-option';

const EXPORT_USAGE = `usage: export --voice <code> --preset <name> --out <path> [options] --file <book.md>
  --voice <code>      voice code (see --list-voices)
  --preset <name>     ${MASTERING_PRESETS.join(' | ')}:
                        acx      44.1 kHz, RMS −20 dBFS, peaks ≤ −3 dBFS, room tone −75 dBFS
                                 (0.75 s before and 2 s after each chapter), MP3 192 kbps CBR
                        podcast  44.1 kHz, −16 LUFS integrated, peaks ≤ −1 dBFS, MP3 128 kbps CBR
                        none     the voice's rate and level, 1.5 s of silence after each chapter,
                                 MP3 128 kbps CBR
  --out <path>        the .m4b or .mp3 file, or the folder for --format folder
  --format <type>     ${BOOK_FORMATS.join(' | ')} (default: from --out's extension, else folder)
  --folder-format <t> ${FOLDER_FORMATS.join(' | ')}: each chapter's file in a folder (default mp3)
  --title <text>      the book's title (default: the text file's name)
  --author <text>     the author
  --cover <file>      cover picture, JPEG or PNG
  --file <path>       the book's text (else the arguments, else stdin): Markdown # and ## headings
                      start chapters (spoken), and so do [chapter: Title] lines (not spoken)
${VOICE_USAGE}
${ENGINE_USAGE}
${LEXICON_OPTION_USAGE}
${SENTENCE_CACHE_OPTION_USAGE}
  --list-voices       print the voice codes and exit
A loudness report is written beside the export: <name>.loudness.json.`;

/** Runs `export` with the arguments after the command name; resolves to the exit code. */
export function runExport(argv: string[]): Promise<number> {
  return runCommand(EXPORT_USAGE, () => exportCommand(argv));
}

/** The cover's bytes and type, from its first bytes (JPEG or PNG); UsageError otherwise. */
async function readCover(path: string): Promise<CoverImage> {
  let data: Uint8Array;
  try {
    data = new Uint8Array(await readFile(path));
  } catch (error) {
    throw new UsageError(`cannot read --cover ${path}: ${(error as Error).message}`);
  }
  if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return { data, mimeType: 'image/jpeg' };
  if (data[0] === 0x89 && data[1] === 0x50 && data[2] === 0x4e && data[3] === 0x47) {
    return { data, mimeType: 'image/png' };
  }
  throw new UsageError(`--cover must be a JPEG or PNG picture: ${path}`);
}

async function exportCommand(argv: string[]): Promise<void> {
  const command = await parseSpeechCommand(
    argv,
    EXPORT_USAGE,
    {
      preset: { type: 'string' },
      format: { type: 'string' },
      'folder-format': { type: 'string' },
      title: { type: 'string' },
      author: { type: 'string' },
      cover: { type: 'string' },
    },
    'path',
  );
  if (!command) return;
  const { values, positionals, out, voice, custom, model, speed, pitch, volume, workers, sentenceCache } =
    command;
  const preset = values.preset as MasteringPresetName | undefined;
  if (!preset || !MASTERING_PRESETS.includes(preset)) {
    throw new UsageError(
      `--preset must be one of ${MASTERING_PRESETS.join(', ')}, got "${values.preset ?? ''}"`,
    );
  }
  const extension = extname(out).slice(1).toLowerCase();
  const format = (values.format ??
    (extension === 'm4b' || extension === 'mp3' ? extension : 'folder')) as BookFormat;
  if (!BOOK_FORMATS.includes(format)) {
    throw new UsageError(`--format must be one of ${BOOK_FORMATS.join(', ')}, got "${values.format}"`);
  }
  const folderFormat = values['folder-format'] as FolderFormat | undefined;
  if (folderFormat !== undefined && (!FOLDER_FORMATS.includes(folderFormat) || format !== 'folder')) {
    throw new UsageError(
      `--folder-format must be ${FOLDER_FORMATS.join(' or ')}, with --format folder; got "${folderFormat}"`,
    );
  }
  const cover = values.cover ? await readCover(values.cover) : undefined;
  const text = await readText(values.file, positionals);
  const title =
    values.title ?? (values.file ? values.file.replace(/^.*[/\\]/, '').replace(/\.[^.]*$/, '') : undefined);

  const showProgress = process.stderr.isTTY;
  // Loaded only now: `--help`, `--list-voices` and a usage error never load the engine.
  const [{ createEngine }, neuralVoice, global] = await Promise.all([
    import('../engine'),
    custom
      ? findCustomNeuralVoice(values['data-dir'], custom, model).then((spoken) => spoken.neuralVoice)
      : findNeuralVoice(values['data-dir'], voice.voice_code, model),
    readLexicon(values['data-dir'], voice.language, values['without-lexicon']),
  ]);
  // A custom voice: its prosody is in speed, pitch and volume already; its lexicon wins.
  // Loaded only for a custom voice: its module brings the schema library.
  const lexicon = custom ? (await import('../voices')).customLexicon(custom, global) : global;
  const engine = await createEngine({ poolSize: workers, sentenceCache });
  const started = performance.now();
  try {
    const result = await engine.exportBook({
      text,
      neuralVoice,
      lexicon,
      voice_code: voice.voice_code,
      model_id: model,
      speed_rate: speed,
      pitch_rate: pitch,
      volume,
      preset,
      format,
      folderFormat,
      title,
      author: values.author,
      cover,
      outPath: out,
      onProgress: showProgress ? (f) => process.stderr.write(`\r${progressBar(f)}`) : undefined,
    });
    if (showProgress) process.stderr.write('\n');
    const seconds = (performance.now() - started) / 1000;
    for (const file of result.files) {
      const m = file.loudness;
      const level = (x: number | null) => (x === null ? '-inf' : x.toFixed(1));
      process.stderr.write(
        `wrote ${file.path}: ${(m.durationMs / 1000).toFixed(1)} s, ${level(m.integratedLufs)} LUFS, RMS ${level(m.rmsDbfs)} dBFS, peak ${level(m.peakDbfs)} dBFS, noise floor ${level(m.noiseFloorDbfs)} dBFS` +
          `${file.failures.length > 0 ? `; ${PRESETS[preset].name} check failed: ${file.failures.join('; ')}` : ''}\n`,
      );
    }
    process.stderr.write(
      `${result.chapters.length} chapters, ${(result.durationMs / 1000).toFixed(1)} s of audio at ${result.sampleRate} Hz, spoken by ${result.engine} (${seconds.toFixed(1)} s); loudness report ${result.reportPath}\n`,
    );
  } finally {
    await engine.close();
  }
}
