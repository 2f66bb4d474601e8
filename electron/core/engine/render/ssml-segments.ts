/**
 * An SSML document (`shared/ssml.ts`) as a render runs it: consecutive segments of its text, each
 * with one voice and prosody, cut wherever the voice or prosody changes and at every `<break>`,
 * `<s>` and `<p>`, each planned and synthesised by the usual pipeline. What stands between two
 * segments (breaks, marks, sentence and paragraph edges) is kept in document order; marks inside
 * a segment are timed by its words. `<sub>`, `<phoneme>` and `<say-as>` become forced readings of
 * their ranges (the lexicon's mechanism), so subtitles keep the written words.
 */

import { ipaToEspeak } from '../../../shared/lexicon-ipa';
import { RATE_MAX, RATE_MIN, VOLUME_MAX, VOLUME_MIN, type SynthesisOptions } from '../../../shared/options';
import {
  wordsEnd,
  type SsmlDocument,
  type SsmlEvent,
  type SsmlReading,
  type SsmlRun,
} from '../../../shared/ssml';
import type { LanguageCode } from '../../../shared/voices';
import { PAUSE_MS, splitIntoChunks } from '../text/chunk';
import type { LexiconMatch } from '../text/rule-kit';
import { hasSpeakableContent } from '../../../shared/text';
import type { PrepareOptions } from '../text/rule-kit';
import { languageRules, rewriteForEngine } from '../text/rules';
import { digitsOneByOne, telephoneGroups } from '../text/say-as';

/** A piece of the text spoken with one voice and prosody. */
export interface RenderSegment {
  start: number;
  end: number;
  voice_code: string;
  /** The custom voice speaking it (SsmlRun.speaker), if one does. */
  speaker?: string | undefined;
  speed_rate: number;
  pitch_rate: number;
  /** × the request's volume (0: silent). */
  gain: number;
  /** Breaks, marks and edges at the segment's start, in document order. */
  before: SsmlEvent[];
  /** Marks inside the segment (after its start), in order. */
  marks: Array<{ name: string; offset: number }>;
}

export interface SegmentedText {
  segments: RenderSegment[];
  /** Breaks and marks after the last segment's words. */
  after: SsmlEvent[];
  /**
   * The pause after the words that end at `offset` (trailing spaces excluded) when the text is read
   * as a whole, at speed 1.0, ms: what a cut between segments keeps.
   */
  pauseAt(offset: number): number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** The plain text as one segment with the request's settings: renders exactly as before SSML existed. */
export function plainSegments(text: string, request: SynthesisOptions): SegmentedText {
  return {
    segments: [
      {
        start: 0,
        end: text.length,
        voice_code: request.voice_code,
        speed_rate: request.speed_rate,
        pitch_rate: request.pitch_rate,
        gain: 1,
        before: [],
        marks: [],
      },
    ],
    after: [],
    pauseAt: () => 0,
  };
}

/**
 * The segments of `document` for `request`. Prosody factors multiply the request's values, the
 * products capped at the API's bounds (speed and pitch 0.5–2.0, volume 50–150%).
 */
export function ssmlSegments(
  document: SsmlDocument,
  request: SynthesisOptions,
  language: LanguageCode,
): SegmentedText {
  const { text } = document;
  const cuts = new Set<number>([0, text.length]);
  for (const run of document.runs) cuts.add(run.start);
  for (const event of document.events) if (event.kind !== 'mark') cuts.add(event.offset);
  const points = [...cuts].sort((a, b) => a - b);
  // Cuts and runs are both in text order: one walk finds each cut's run.
  let runIndex = 0;
  const runAt = (offset: number) => {
    while (runIndex < document.runs.length && (document.runs[runIndex] as SsmlRun).end <= offset) runIndex++;
    const run = document.runs[runIndex];
    return run && run.start <= offset ? run : undefined;
  };

  const segments: RenderSegment[] = [];
  let carried: SsmlEvent[] = [];
  let eventIndex = 0;
  const events = [...document.events].sort((a, b) => a.offset - b.offset);
  for (let k = 0; k + 1 < points.length; k++) {
    const start = points[k] as number;
    const end = points[k + 1] as number;
    const before = [...carried];
    const marks: RenderSegment['marks'] = [];
    while (eventIndex < events.length && (events[eventIndex] as SsmlEvent).offset < end) {
      const event = events[eventIndex++] as SsmlEvent;
      if (event.offset === start) before.push(event);
      else if (event.kind === 'mark') marks.push({ name: event.name, offset: event.offset });
    }
    if (text.slice(start, end).trim() === '') {
      // Nothing to say: what stood here moves to the next words.
      carried = [...before, ...marks.map((m) => ({ kind: 'mark' as const, ...m }))];
      continue;
    }
    carried = [];
    const last = segments.at(-1);
    if (last && !hasSpeakableContent(text.slice(start, end)) && !before.some((e) => e.kind === 'break')) {
      // Punctuation after a cut ("<emphasis>this</emphasis>.") goes with the words before it, so
      // that subtitles keep it.
      last.end = end;
      last.marks.push(
        ...before.flatMap((e) => (e.kind === 'mark' ? [{ name: e.name, offset: e.offset }] : [])),
        ...marks,
      );
      continue;
    }
    const run = runAt(start);
    const rate = run?.rate ?? 1;
    const pitch = run?.pitch ?? 1;
    const volume = run?.volume ?? 1;
    segments.push({
      start,
      end,
      voice_code: run?.voiceCode ?? request.voice_code,
      ...(run?.speaker ? { speaker: run.speaker } : {}),
      speed_rate: clamp(request.speed_rate * rate, RATE_MIN, RATE_MAX),
      pitch_rate: clamp(request.pitch_rate * pitch, RATE_MIN, RATE_MAX),
      gain: volume === 0 ? 0 : clamp(request.volume * volume, VOLUME_MIN, VOLUME_MAX) / request.volume,
      before,
      marks,
    });
  }
  const after = [...carried, ...events.slice(eventIndex)];

  // The pauses of the text read as a whole, where its sentences and clauses end.
  const pauses = new Map<number, number>();
  for (const chunk of splitIntoChunks(text, language))
    pauses.set(chunk.start + chunk.text.length, chunk.pauseAfterMs);
  const edges = new Map<number, number>();
  for (const e of document.events) {
    if (e.kind !== 'edge') continue;
    const pause = e.edge === 'paragraph' ? PAUSE_MS.paragraph : PAUSE_MS.sentence;
    edges.set(e.offset, Math.max(pause, edges.get(e.offset) ?? 0));
  }
  const edgePause = (offset: number) => edges.get(offset) ?? 0;
  return {
    segments,
    after,
    pauseAt(offset) {
      const end = wordsEnd(text, offset);
      // An <s> or <p> says what the edge is; without one, the text's punctuation does.
      const edge = Math.max(edgePause(offset), edgePause(end));
      return edge > 0 ? edge : (pauses.get(end) ?? 0);
    },
  };
}

/** Characters the engine must not be given in a reading (SSML markup, phoneme brackets). */
const UNSAFE = /[<>&[\]]/gu;

/**
 * The forced readings of `readings` that lie in `[start, end)` of the document's text, in that
 * piece's offsets, as the engine reads them in `language`. A reading that cannot be made (IPA
 * eSpeak cannot read, a date whose numbers do not fit its format) is left out: its words are
 * read as written.
 */
export function segmentReadings(
  readings: readonly SsmlReading[],
  text: string,
  start: number,
  end: number,
  language: LanguageCode,
  prepare: PrepareOptions,
): LexiconMatch[] {
  const out: LexiconMatch[] = [];
  for (const reading of readings) {
    if (reading.start < start || reading.end > end) continue;
    const spoken = spokenReading(reading, text.slice(reading.start, reading.end), language, prepare);
    if (spoken !== undefined && spoken.trim() !== '') {
      out.push({ start: reading.start - start, end: reading.end - start, spoken });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** What the engine reads for one reading over the written `written`, or undefined to read it as written. */
export function spokenReading(
  reading: SsmlReading,
  written: string,
  language: LanguageCode,
  prepare: PrepareOptions,
): string | undefined {
  const engineText = (source: string) => rewriteForEngine(source, language, prepare).engineText;
  switch (reading.kind) {
    case 'sub':
      return reading.alias.replace(UNSAFE, ' ');
    case 'phoneme': {
      const converted = ipaToEspeak(reading.ipa, language);
      if (!converted.ok) return undefined;
      return converted.phonemes
        .split(' ')
        .map((word) => `[[${word}]]`)
        .join(' ');
    }
    case 'say-as': {
      // The language's own reading first (Vietnamese digit words, "thứ tư"), through its rules.
      const own = languageRules(language).sayAs?.(reading.interpretAs, written, prepare);
      if (own !== undefined) return own.trim() === '' ? undefined : engineText(own);
      switch (reading.interpretAs) {
        case 'characters':
        case 'spell-out':
          return [...written.replace(/\s+/gu, '')].map((c) => letterName(c, language)).join(' ');
        case 'digits':
          return digitsOneByOne(written, {});
        case 'cardinal': {
          const digits = written.replace(/[^\d-]+/gu, '');
          return /\d/u.test(digits) ? engineText(digits) : undefined;
        }
        case 'ordinal': {
          const digits = written.replace(/\D+/gu, '');
          return digits === ''
            ? undefined
            : engineText(languageRules(language).writeOrdinal?.(Number(digits), digits) ?? digits);
        }
        case 'telephone':
          return telephoneGroups(written, { plus: 'plus' });
        case 'time':
          return engineText(written);
        case 'date': {
          const iso = isoDate(written, reading.format, prepare.dateOrder ?? 'mdy');
          return iso === undefined ? undefined : engineText(iso);
        }
      }
    }
  }
}

/**
 * One character to be read on its own: a capital, which eSpeak names, unless the language's rules
 * name the letter otherwise (English "a", which eSpeak reads as the article).
 */
function letterName(c: string, language: LanguageCode): string {
  return languageRules(language).letterName?.(c) ?? c.toLocaleUpperCase().replace(UNSAFE, ' ');
}

/**
 * The date written in `written` as ISO (YYYY-MM-DD, which every language's rules read), its numbers
 * taken in the order `format` gives (ymd, mdy or dmy; default: ymd when the first number has four
 * digits, else `order`). Undefined when the numbers do not make a date.
 */
function isoDate(written: string, format: string | undefined, order: 'mdy' | 'dmy'): string | undefined {
  const numbers = written.match(/\d+/gu) ?? [];
  if (numbers.length !== 3) return undefined;
  const fmt = format ?? ((numbers[0] as string).length === 4 ? 'ymd' : order);
  if (!/^(ymd|mdy|dmy)$/u.test(fmt)) return undefined;
  const part = (letter: string) => numbers[fmt.indexOf(letter)] as string;
  const year = part('y');
  const month = Number(part('m'));
  const day = Number(part('d'));
  if (year.length !== 4 || month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
