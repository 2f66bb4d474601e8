/**
 * What the engine is asked to say, chunk by chunk: the cleaned text cut at sentence
 * boundaries, each piece rewritten for the engine (or left as written for std-v1), and for
 * turbo consecutive sentences of a paragraph merged into one engine call.
 */

import { splitIntoChunks, type SpeechChunk } from '../text/chunk';
import { lexiconWithReadings } from '../text/forced-readings';
import type { CompiledLexicon, LexiconMatch, PrepareOptions } from '../text/rule-kit';
import { languageRules, prepareForEngine } from '../text/rules';
import type { ModelProfile } from '../model-profiles';
import type { PreparedText, TextChunk } from '../types';
import { prepareOptions, type ResolvedVoice } from './voice';

/** One engine call: the source chunk, and what the engine reads (none for a chunk with nothing to say). */
export interface PlannedChunk {
  chunk: TextChunk;
  prepared: PreparedText | undefined;
}

/**
 * Chunks of `text` (cleaned) in order, prepared for the engine as they are reached.
 * `firstClauseAlone`: the first sentence's first clause is a chunk of its own (auditions: the
 * shortest first chunk is the soonest audio). `lexicon`: the pronunciation lexicon of the
 * voice's language, applied to every chunk whatever the model's text preparation; `units`: its
 * units of measure (`lexiconUnits`), for the measure rules. `readings`:
 * what to read over ranges of `text` instead (SSML), in order; they win over the lexicon.
 */
export async function* planSpeech(
  text: string,
  { voice, profile }: ResolvedVoice,
  {
    firstClauseAlone = false,
    lexicon,
    units,
    readings,
  }: {
    firstClauseAlone?: boolean;
    lexicon?: CompiledLexicon | undefined;
    units?: PrepareOptions['units'];
    readings?: readonly LexiconMatch[] | undefined;
  } = {},
): AsyncGenerator<PlannedChunk> {
  const groups = groupChunks(
    splitIntoChunks(text, voice.language, {
      maxChars: profile.mergeSentences ? 300 : profile.chunkChars,
      firstClauseAlone,
      abbreviations: lexicon?.abbreviations,
    }),
    profile.mergeSentences,
    profile.chunkChars,
  );
  // Acronyms the text defines ("Ban tổ chức (BTC)"): a later use in another chunk is read as
  // the words, as the whole text's reading reads it.
  const definitions = [...(languageRules(voice.language).definedAcronyms?.(text) ?? [])];
  const definedBefore = (start: number) =>
    definitions.length === 0
      ? undefined
      : new Map(definitions.filter(([, d]) => d.at < start).map(([acronym, d]) => [acronym, d.words]));
  for (const group of groups) {
    const first = group[0]!;
    const last = group.at(-1)!;
    const chunk: TextChunk = {
      index: first.index,
      start: first.start,
      text: text.slice(first.start, last.start + last.text.length),
      pauseAfterMs: last.pauseAfterMs,
    };
    if (!first.speakable) {
      yield { chunk, prepared: undefined };
      continue;
    }
    const lexiconOf = (c: SpeechChunk) =>
      lexiconWithReadings(lexicon, readings, c.start, c.start + c.text.length);
    const prepared =
      group.length === 1
        ? await prepareChunk(first.text, voice, profile, lexiconOf(first), units, definedBefore(first.start))
        : joinPrepared(
            await Promise.all(
              group.map(async (c) => ({
                prepared: await prepareChunk(
                  c.text,
                  voice,
                  profile,
                  lexiconOf(c),
                  units,
                  definedBefore(c.start),
                ),
                sourceOffset: c.start - first.start,
              })),
            ),
          );
    yield { chunk, prepared };
  }
}

/**
 * Text rewritten for the engine as the model profile asks (a language with a stage after the
 * rules, Japanese, always gets it: see `prepareForEngine`), with the lexicon's entries applied,
 * its units handed to the measure rules and the acronyms earlier chunks defined to the
 * abbreviation rules.
 */
export async function prepareChunk(
  text: string,
  voice: ResolvedVoice['voice'],
  profile: ModelProfile,
  lexicon?: CompiledLexicon,
  units?: PrepareOptions['units'],
  definedAcronyms?: PrepareOptions['definedAcronyms'],
): Promise<PreparedText> {
  return prepareForEngine(
    text,
    voice.language,
    { ...prepareOptions(voice), lexicon, units, definedAcronyms },
    profile.textPreparation,
  );
}

/**
 * Groups consecutive sentences of one paragraph into one engine call of at most
 * `maxChars` (turbo). Without merging every chunk is its own group.
 */
function* groupChunks(
  chunks: Iterable<SpeechChunk>,
  merge: boolean,
  maxChars: number,
): Generator<SpeechChunk[]> {
  let group: SpeechChunk[] = [];
  let length = 0;
  for (const chunk of chunks) {
    if (group.length > 0 && (!merge || !chunk.speakable || length + chunk.text.length > maxChars)) {
      yield group;
      group = [];
      length = 0;
    }
    group.push(chunk);
    length += chunk.text.length;
    const joinable = chunk.speakable && (chunk.breakAfter === 'sentence' || chunk.breakAfter === 'clause');
    if (!merge || !joinable) {
      yield group;
      group = [];
      length = 0;
    }
  }
  if (group.length > 0) yield group;
}

/** One engine text for several chunks, mapping positions back into the whole group's text. */
function joinPrepared(parts: Array<{ prepared: PreparedText; sourceOffset: number }>): PreparedText {
  let cp = 0;
  const spans = parts.map(({ prepared, sourceOffset }) => {
    const span = { startCp: cp, prepared, sourceOffset };
    cp += [...prepared.engineText].length + 1;
    return span;
  });
  return {
    engineText: parts.map((p) => p.prepared.engineText).join(' '),
    toSource(textPosition, wordLength) {
      let span = spans[0]!;
      for (const s of spans) if (s.startCp < textPosition) span = s;
      const r = span.prepared.toSource(textPosition - span.startCp, wordLength);
      return { start: r.start + span.sourceOffset, end: r.end + span.sourceOffset };
    },
  };
}
