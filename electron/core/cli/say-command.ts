/**
 * `say`: synthesise text to an audio file (and optionally SRT subtitles, word timings and the
 * chapter list) from the command line, with every option of the API; or, with `--show-reading`,
 * print how the text will be read (the engine's words and each change) without rendering.
 */

import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, resolve as resolvePath } from 'node:path';
import { AUDIO_TYPES, BITRATES, DEFAULT_SYNTHESIS, type AudioType, type Bitrate } from '../../shared/options';
import { cleanText } from '../../shared/text';
import type { LanguageCode } from '../../shared/voices';
import type * as SsmlApi from '../../shared/ssml';
import type * as EngineApi from '../engine';
import type { ChapterTiming, LexiconRule, RenderResult, WordTiming } from '../engine';
import { LEXICON_OPTION_USAGE, lexiconNote, readLexicon } from './lexicon-option';
import { runCommand, UsageError } from './usage';
import { parseSpeechCommand } from './speech-command-line';
import { SAY_OPTIONS } from './speech-options';
import {
  ENGINE_USAGE,
  findCustomNeuralVoice,
  findNeuralVoice,
  progressBar,
  readText,
  VOICE_USAGE,
} from './voice-options';
import { SENTENCE_CACHE_OPTION_USAGE } from './sentence-cache-option';

const SAY_USAGE = `usage: say --voice <code> --out <file> [options] [text…]
       say --voice <code> --show-reading [text…]
  --voice <code>      voice code (see --list-voices), or your own (voices custom list)
  --out <file>        audio file to write (.mp3 or .wav)
  --show-reading      print how the text will be read in the voice's language (the words the
                      engine is given, then one line per change: written → spoken  [rule or
                      lexicon]) with the lexicon, and exit without rendering; SSML: its text
${VOICE_USAGE}
  --format <type>     ${AUDIO_TYPES.join(' | ')} (default: from --out's extension, else mp3)
  --bitrate <kbps>    ${BITRATES.join(' | ')} (mp3 only; default ${DEFAULT_SYNTHESIS.bitrate})
  --srt <file>        also write SRT subtitles
  --timings <file>    also write word timings (JSON)
  --chapters <file>   also write the chapters (Markdown # and ## headings, [chapter: …] lines)
                      with their start and end times (JSON); [chapter: …] lines are not spoken
  --file <path>       read the text from a file (else the arguments, else stdin)
${ENGINE_USAGE}
${LEXICON_OPTION_USAGE}
${SENTENCE_CACHE_OPTION_USAGE}
  --list-voices       print the voice codes and exit`;

/** Runs `say` with the arguments after the command name; resolves to the exit code once the files are written. */
export function runSay(argv: string[]): Promise<number> {
  return runCommand(SAY_USAGE, () => say(argv));
}

async function say(argv: string[]): Promise<void> {
  const command = await parseSpeechCommand(
    argv,
    SAY_USAGE,
    SAY_OPTIONS,
    'file',
    (values) => values['show-reading'] === true,
  );
  if (!command) return;
  // The engine's front door (the reading stage and SSML with it) loads only for a command that
  // reads text: `--help`, `--list-voices` and a usage error stop before it.
  const engineApi = await import('../engine');
  if (command.values['show-reading']) {
    const { values, positionals, voice, custom } = command;
    const text = await readText(values.file, positionals);
    const global = await readLexicon(values['data-dir'], voice.language, values['without-lexicon']);
    const lexicon = custom ? (await import('../voices')).customLexicon(custom, global) : global;
    const ssml = await import('../../shared/ssml');
    process.stdout.write(
      showReading({ ...engineApi, ...ssml }, text, voice.voice_code, voice.language, lexicon),
    );
    return;
  }
  const { values, positionals, out, voice, custom, model, speed, pitch, volume, workers, sentenceCache } =
    command;
  const fromExtension = extname(out).slice(1).toLowerCase();
  const format = (values.format ?? (fromExtension === 'wav' ? 'wav' : 'mp3')) as AudioType;
  if (!AUDIO_TYPES.includes(format))
    throw new UsageError(`--format must be ${AUDIO_TYPES.join(' or ')}, got "${values.format}"`);
  const bitrate = Number(values.bitrate ?? DEFAULT_SYNTHESIS.bitrate) as Bitrate;
  if (!BITRATES.includes(bitrate) || (values.bitrate !== undefined && !/^\d+$/.test(values.bitrate))) {
    throw new UsageError(`--bitrate must be one of ${BITRATES.join(', ')}, got "${values.bitrate}"`);
  }

  let text = await readText(values.file, positionals);
  // With --chapters, the chapters are read from the text and `[chapter: …]` lines left unspoken.
  const chapters = values.chapters ? engineApi.parseChapters(cleanText(text)) : [];
  const book = chapters.length > 0 ? engineApi.spokenBook(chapters) : undefined;
  if (book) text = book.text;
  const timingsPath = values.timings
    ? resolvePath(values.timings)
    : book && join(tmpdir(), `say-timings-${process.pid}-${Date.now()}.json`);

  const showProgress = process.stderr.isTTY && text.length > 2000;
  const [spoken, global, ssml] = await Promise.all([
    custom
      ? findCustomNeuralVoice(values['data-dir'], custom, model)
      : findNeuralVoice(values['data-dir'], voice.voice_code, model).then((neuralVoice) => ({
          neuralVoice,
          fallback: false,
        })),
    readLexicon(values['data-dir'], voice.language, values['without-lexicon']),
    engineApi.ssmlVoices(text, voice.voice_code, {
      neuralVoice: (code) => findNeuralVoice(values['data-dir'], code, model),
      lexicon: async (language) =>
        (await readLexicon(values['data-dir'], language, values['without-lexicon'])) ?? [],
    }),
  ]);
  const { neuralVoice } = spoken;
  // Loaded only for a custom voice: its module brings the schema library.
  const lexicon = custom ? (await import('../voices')).customLexicon(custom, global) : global;
  if (spoken.fallback && custom)
    process.stderr.write(
      `note: the base of ${custom.code} is not installed; ${custom.voice_code} speaks instead\n`,
    );
  // The pool starts workers as the render needs them: a sentence starts one, a book all of them.
  const engine = await engineApi.createEngine({ poolSize: workers, sentenceCache });
  const started = performance.now();
  try {
    const result = await engine.render({
      neuralVoice,
      lexicon,
      ...ssml,
      text,
      voice_code: voice.voice_code,
      model_id: model,
      audio_type: format,
      bitrate,
      speed_rate: speed,
      pitch_rate: pitch,
      volume,
      audioPath: resolvePath(out),
      srtPath: values.srt ? resolvePath(values.srt) : undefined,
      timingsPath,
      onProgress: showProgress ? (f) => process.stderr.write(`\r${progressBar(f)}`) : undefined,
    });
    if (showProgress) process.stderr.write('\n');
    if (book && timingsPath && values.chapters) {
      // SSML marks stand among the words; chapters are timed by words only.
      const items = JSON.parse(await readFile(timingsPath, 'utf8')) as Array<WordTiming | { mark: string }>;
      const words = items.filter((item): item is WordTiming => 'text' in item);
      const times = engineApi.chapterTimesFromWords(chapters, book.starts, words, result.durationMs);
      await writeChapters(resolvePath(values.chapters), out, result.durationMs, times);
    }
    const seconds = (performance.now() - started) / 1000;
    process.stderr.write(
      `wrote ${out}: ${(result.durationMs / 1000).toFixed(1)} s of audio, ${result.characters} characters, ${(result.audioBytes / 1024).toFixed(0)} KiB` +
        `${values.srt ? `, ${result.cueCount} cues in ${values.srt}` : ''}${book ? `, ${chapters.length} chapters in ${values.chapters}` : ''}, spoken by ${result.engine}${lexiconNote(lexicon)} (${seconds.toFixed(1)} s, ${(result.durationMs / 1000 / seconds).toFixed(0)}× real time)\n`,
    );
    for (const warning of result.warnings) process.stderr.write(`warning: ${warning}\n`);
    if (result.engine !== 'espeak') await recordSpeed(values['data-dir'], result);
  } finally {
    await engine.close();
    if (book && !values.timings && timingsPath) await rm(timingsPath, { force: true });
  }
}

/**
 * How `text` will be read by `voiceCode` (of `language`) with `lexicon`: the reading, then a
 * blank line and one line per change, `written → spoken  [rule]` (`[lexicon]` for an entry).
 * SSML is read as its text.
 */
function showReading(
  { isSsml, parseSsml, readingOf, readingStyleOf }: typeof EngineApi & typeof SsmlApi,
  text: string,
  voiceCode: string,
  language: LanguageCode,
  lexicon: readonly LexiconRule[],
): string {
  const cleaned = cleanText(text);
  const source = isSsml(cleaned) ? parseSsml(cleaned, { voiceCode }).text : cleaned;
  const { reading, changes } = readingOf(source, language, { lexicon, ...readingStyleOf(voiceCode) });
  const oneLine = (s: string) => s.replace(/\s+/gu, ' ').trim();
  const lines = changes.map(
    (c) => `${oneLine(c.written)} → ${oneLine(c.spoken)}  [${c.source === 'lexicon' ? 'lexicon' : c.rule}]`,
  );
  return `${reading}\n${lines.length > 0 ? `\n${lines.join('\n')}\n` : ''}`;
}

/** Writes the chapter list (JSON: the audio file, its duration, each chapter's title and times in ms). */
async function writeChapters(
  path: string,
  audio: string,
  durationMs: number,
  chapters: readonly ChapterTiming[],
): Promise<void> {
  const list = chapters.map((c) => ({
    title: c.title,
    startMs: Math.round(c.startMs),
    endMs: Math.round(c.endMs),
  }));
  await writeFile(
    path,
    `${JSON.stringify({ audio, durationMs: Math.round(durationMs), chapters: list }, null, 2)}\n`,
  );
}

/** A pack's first render records its speed (voices/<id>/speed.json); never fails `say`. */
async function recordSpeed(dataDirOption: string | undefined, result: RenderResult): Promise<void> {
  const [{ defaultDataDir }, { recordPackSpeed }] = await Promise.all([
    import('../platform/paths'),
    import('../voices'),
  ]);
  try {
    const speed = await recordPackSpeed(dataDirOption ?? defaultDataDir(), result);
    if (speed)
      process.stderr.write(
        `measured ${speed.engine} on first use: RTF ${speed.rtf}, first audio ${Math.round(speed.ttfa_ms)} ms\n`,
      );
  } catch (error) {
    process.stderr.write(`warning: the voice's speed could not be recorded: ${(error as Error).message}\n`);
  }
}
