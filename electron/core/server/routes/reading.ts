/**
 * POST /api/v1/reading: how a text will be read, before it is rendered. The text stage's reading
 * (engine `readingOf`: numbers, dates, money, measures, abbreviations… as a reader of the
 * language says them) with the data directory's lexicon entries of that language applied as a
 * render applies them (a custom voice's own entries first), and each change with what decided
 * it. Any key or the studio session may ask; nothing is charged, stored or spoken.
 *
 * The reading is worked out on the engine's thread (`Engine.read`), so a long text does not hold
 * up the HTTP event loop; `READING_MAX_CHARS` bounds it.
 */

import type { FastifyInstance } from 'fastify';
import {
  READING_MAX_CHARS,
  ReadingRequestSchema,
  ReadingSchema,
  type Reading,
  type ReadingChange,
} from '../../../shared/api';
import { AppError } from '../../../shared/errors';
import { cleanText, countCharacters } from '../../../shared/text';
import type { VoiceMapping } from '../../../shared/voice-mapping';
import { LANGUAGE_NAMES, type LanguageCode } from '../../../shared/voices';
import { blankMarkerLines, readingStyleOf, type Engine, type LexiconRule } from '../../engine';
import { customLexicon, type CustomVoices } from '../../voices';
import type { Auth } from '../auth';
import { apiRoute, KEY, typed } from '../openapi';
import { sendResult } from '../reply';
import { isPlainObject, resolveVoice } from '../validation';
import type { Wording } from '../route-validation';
import { voiceAccess, withCustomVoice } from './custom-voices';

export interface ReadingRouteOptions {
  auth: Auth;
  /** Works the reading out on its thread. */
  engine: Pick<Engine, 'read'>;
  /** Voice codes that are not ours: aliases, and what an unknown code gets (as a submit takes them). */
  voiceMapping: VoiceMapping;
  /** Custom voices: their codes are taken as voice_code, their own lexicon entries applied. */
  customVoices?: Pick<CustomVoices, 'find'> | undefined;
  /** The lexicon's entries of a language (LexiconStore.entriesFor); without it, none. */
  lexicon?: ((language: LanguageCode) => Promise<readonly LexiconRule[]>) | undefined;
}

/** How a body that breaks ReadingRequestSchema is refused: MISSING_FIELD (text), INVALID_FIELD naming the field. */
const readingWording: Wording = ({ part, field, message, missing, value }) => {
  if (part !== 'body' || !isPlainObject(value)) return undefined;
  if (missing) return new AppError('MISSING_FIELD', `${field} is required.`, { field });
  const name = field || 'body';
  return new AppError('INVALID_FIELD', `Invalid field ${name}: ${message}.`, { field: name });
};

/**
 * The `[chapter: …]` lines of `text`, which a render never speaks (`blankMarkerLines` gave
 * `blanked`, the same text with each blanked): one change each, said as nothing, class `markup`.
 */
function markerChanges(text: string, blanked: string): ReadingChange[] {
  const changes: ReadingChange[] = [];
  let lineStart = 0;
  for (const line of text.split('\n')) {
    const lineEnd = lineStart + line.length;
    const from = lineStart + (line.length - line.trimStart().length);
    if (from < lineEnd && blanked.slice(lineStart, lineEnd).trim() === '') {
      const to = lineStart + line.trimEnd().length;
      changes.push({ from, to, written: text.slice(from, to), spoken: '', source: 'rule', rule: 'markup' });
    }
    lineStart = lineEnd + 1;
  }
  return changes;
}

/** Two lists of changes in text order, merged (they never overlap). */
function merged(a: readonly ReadingChange[], b: readonly ReadingChange[]): ReadingChange[] {
  return [...a, ...b].sort((x, y) => x.from - y.from);
}

export function registerReadingRoute(
  app: FastifyInstance,
  { auth, engine, voiceMapping, customVoices, lexicon }: ReadingRouteOptions,
): void {
  typed(app).post(
    '/api/v1/reading',
    {
      schema: apiRoute({
        operationId: 'readText',
        tag: 'reading',
        summary: 'How a text will be read: the words the voices are given, and what changed',
        description: `The text as the text stage reads it for a voice (\`voice_code\`) or a language (\`language\`), with the data directory's lexicon applied as a render applies it, and each change: \`from\`/\`to\` (UTF-16 code units of the text), \`written\`, \`spoken\`, \`source\` (\`lexicon\` or \`rule\`) and \`rule\` (its class). With both fields the voice must speak the language. At most ${READING_MAX_CHARS.toLocaleString('en')} characters. Nothing is charged.`,
        security: KEY,
        body: ReadingRequestSchema,
        result: ReadingSchema,
        validate: { wording: readingWording },
      }),
    },
    async (request, reply) => {
      const key = await auth.requireKey(request);
      const input = request.body;
      // The one rule across fields the schema does not hold: the reading depends on either.
      if (input.voice_code === undefined && input.language === undefined)
        throw new AppError(
          'MISSING_FIELD',
          'voice_code or language is required: the reading depends on it.',
          {
            field: 'voice_code',
          },
        );
      let language: LanguageCode;
      let entries: readonly LexiconRule[];
      let style: { dateOrder?: 'mdy' | 'dmy'; andAfterHundred?: boolean } = {};
      if (input.voice_code !== undefined) {
        const mapping = await withCustomVoice(
          voiceMapping,
          customVoices,
          voiceAccess(request, key),
          input.voice_code,
        );
        const voice = resolveVoice(
          input.voice_code,
          mapping,
          `Unknown voice_code "${input.voice_code}". GET /api/v1/voices lists the voices.`,
          'voice_code',
        );
        language = voice.voice.language;
        if (input.language !== undefined && input.language !== language)
          throw new AppError(
            'INVALID_FIELD',
            `${input.voice_code} speaks ${LANGUAGE_NAMES[language]} ("${language}"), not "${input.language}": send one of voice_code and language, or a voice of that language.`,
            { field: 'language' },
          );
        const global = (await lexicon?.(language)) ?? [];
        entries = voice.custom ? customLexicon(voice.custom, global) : global;
        style = readingStyleOf(voice.voice.voice_code);
      } else {
        language = input.language!;
        entries = (await lexicon?.(language)) ?? [];
      }
      // What a render reads: the cleaned text (its offsets are the ones word timings use).
      const text = cleanText(input.text);
      if (text.trim() === '')
        throw new AppError('NOTHING_TO_SPEAK', 'text is empty: there is nothing to read.', { field: 'text' });
      const characters = countCharacters(text);
      if (characters > READING_MAX_CHARS)
        throw new AppError(
          'TEXT_TOO_LONG',
          `text has ${characters} characters; the limit is ${READING_MAX_CHARS}.`,
          { field: 'text', characters, limit: READING_MAX_CHARS },
        );
      // As a render: `[chapter: …]` lines are blanked (same length, so every offset stays).
      const spoken = blankMarkerLines(text);
      const readingOptions = {
        lexicon: entries,
        ...style,
        ...(input.date_order ? { dateOrder: input.date_order } : {}),
      };
      const read = await engine.read(spoken, language, readingOptions);
      const result: Reading = {
        language,
        ...(input.voice_code !== undefined ? { voice_code: input.voice_code } : {}),
        ...(text !== input.text ? { text } : {}),
        reading: read.reading,
        changes: spoken === text ? read.changes : merged(read.changes, markerChanges(text, spoken)),
      };
      return sendResult(reply, result);
    },
  );
}
