/**
 * The start `say` and `export` share: their common options, `--help` and `--list-voices`
 * answered, the voice and prosody checked, the sentence cache, and `--out` required.
 */

import type { ParseArgsConfig } from 'node:util';
import { LEXICON_OPTIONS } from './lexicon-option';
import { OUT_OR_ANSWER_OPTIONS } from './speech-options';
import { SENTENCE_CACHE_OPTIONS, sentenceCacheOption } from './sentence-cache-option';
import { parseCommandLine, UsageError, type ParsedCommandLine } from './usage';
import { findCustomVoice, listVoices, parseVoiceOptions, VOICE_OPTIONS } from './voice-options';

/** The `parseArgs` options both commands take; each adds its own. */
const SPEECH_COMMAND_OPTIONS = {
  ...VOICE_OPTIONS,
  ...LEXICON_OPTIONS,
  ...SENTENCE_CACHE_OPTIONS,
  ...OUT_OR_ANSWER_OPTIONS,
} as const;

type SharedValues = { help?: boolean; 'list-voices'?: boolean; out?: string } & Parameters<
  typeof parseVoiceOptions
>[0] &
  Parameters<typeof sentenceCacheOption>[0];

/** What `parseSpeechCommand` answers: the parsed command line and what was checked from it. */
type SpeechCommand<T extends NonNullable<ParseArgsConfig['options']>> = {
  values: ParsedCommandLine<typeof SPEECH_COMMAND_OPTIONS & T>['values'];
  positionals: ParsedCommandLine<typeof SPEECH_COMMAND_OPTIONS & T>['positionals'];
  out: string;
  sentenceCache: ReturnType<typeof sentenceCacheOption>;
} & ReturnType<typeof parseVoiceOptions>;

/**
 * Parses `argv` with the shared options and `own` (a `--voice` that is not a catalogue code is
 * looked up among the data folder's custom voices). Undefined when `--help` or `--list-voices`
 * was asked (and answered on stdout); else the values, the text arguments, the checked voice
 * choice, the sentence cache and the `--out` path. UsageError for anything wrong.
 */
export async function parseSpeechCommand<T extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  usage: string,
  own: T,
  /** What `--out` names in the error when it is missing ("file", "path"). */
  outMeaning: string,
  /** Whether these values need no `--out` (`say --show-reading` writes no file). */
  writesNothing: (values: Record<string, unknown>) => boolean = () => false,
): Promise<SpeechCommand<T> | undefined> {
  const { values, positionals } = parseCommandLine(argv, { ...SPEECH_COMMAND_OPTIONS, ...own }, true);
  // The shared options' values (TypeScript cannot narrow them out of the generic result).
  const shared = values as SharedValues;
  if (shared.help) {
    process.stdout.write(`${usage}\n`);
    return undefined;
  }
  if (shared['list-voices']) {
    process.stdout.write(`${listVoices()}\n`);
    return undefined;
  }
  const choice = parseVoiceOptions(
    shared,
    await findCustomVoice((values as { 'data-dir'?: string })['data-dir'], shared.voice),
  );
  const sentenceCache = sentenceCacheOption(shared);
  if (!shared.out && !writesNothing(values)) throw new UsageError(`--out <${outMeaning}> is required`);
  return { values, positionals, out: shared.out ?? '', ...choice, sentenceCache };
}
