/**
 * SSML input: a text whose first non-space characters are `<speak` is read as SSML (the W3C
 * Speech Synthesis Markup Language, the subset below). Shared by the server (validation and the
 * billable count), the engine (what to say, in which voice, with which pauses) and the renderer.
 *
 * The document's `text` is what subtitles show and what is charged: the text between the tags,
 * with entities resolved and whitespace collapsed (SSML whitespace is not significant), a blank
 * line between paragraphs (`<p>`) and a space between sentences (`<s>`). What an element says
 * *instead* of its words (`<sub alias>`, `<phoneme ph>`, `<say-as>`) is a reading over a range
 * of that text: the engine reads it, subtitles keep the written words.
 *
 * Offsets are UTF-16 code-unit offsets into `text`; error and warning positions are 1-based
 * lines and columns (code units) of the source, and its 0-based offset.
 */

import { AppError } from './errors';
import { IPA_ERROR_REASONS, ipaToEspeak } from './lexicon-ipa';
import { RATE_MAX, RATE_MIN, VOLUME_MAX, VOLUME_MIN } from './options';
import { findVoice, VOICES } from './voices';
import { readSsmlMarkup, type Fail, type SsmlAttributes } from './ssml-markup';

/** Longest `<break>`, ms (as the cloud services allow). */
export const SSML_MAX_BREAK_MS = 10_000;

/** Silence of each `<break strength>` (and of `<break/>`, medium), ms. */
export const BREAK_STRENGTH_MS = {
  none: 0,
  'x-weak': 100,
  weak: 200,
  medium: 400,
  strong: 700,
  'x-strong': 1200,
} as const;

/** `<say-as interpret-as>` values. */
export const SAY_AS = [
  'characters',
  'spell-out',
  'cardinal',
  'ordinal',
  'digits',
  'date',
  'time',
  'telephone',
] as const;
export type SayAs = (typeof SAY_AS)[number];

/** A piece of `text` with one voice and prosody. Factors multiply the request's own values. */
export interface SsmlRun {
  start: number;
  end: number;
  /** The voice that speaks it; undefined: the request's voice. */
  voiceCode: string | undefined;
  /**
   * The custom voice that speaks it (`<voice name>` with a custom code): `voiceCode` is its
   * catalogue voice, and rate, pitch and volume include its prosody. Absent otherwise.
   */
  speaker?: string;
  /** × speed_rate. */
  rate: number;
  /** × pitch_rate. */
  pitch: number;
  /** × volume (0 for `volume="silent"`). */
  volume: number;
}

/** What the engine reads instead of the written words `text.slice(start, end)`. */
export type SsmlReading = { start: number; end: number } & (
  | { kind: 'sub'; alias: string }
  | { kind: 'phoneme'; ipa: string }
  | { kind: 'say-as'; interpretAs: SayAs; format: string | undefined }
);

/**
 * Something at a point of `text`, in document order: an exact silence (`<break>`), a mark to
 * report the time of (`<mark>`), or a sentence or paragraph edge (`<s>`, `<p>`) whose usual
 * pause applies there.
 */
export type SsmlEvent =
  | { kind: 'break'; offset: number; ms: number }
  | { kind: 'mark'; offset: number; name: string }
  | { kind: 'edge'; offset: number; edge: 'sentence' | 'paragraph' };

/** Something the document asked for that is not done; the text is still read. */
export interface SsmlWarning {
  message: string;
  line: number;
  column: number;
  offset: number;
}

export interface SsmlDocument {
  /** What is spoken, shown in subtitles and charged (see the file's comment). */
  text: string;
  /** Consecutive, non-empty, covering `text`. */
  runs: SsmlRun[];
  readings: SsmlReading[];
  events: SsmlEvent[];
  warnings: SsmlWarning[];
  /** Every voice code a run names, in order of first use. */
  voiceCodes: string[];
  /** Every custom voice a run is spoken by (SsmlRun.speaker), in order of first use. */
  speakers: string[];
}

/** What the parser needs of a custom voice (shared/custom-voices.ts) that `<voice name>` names. */
export interface SsmlCustomVoice {
  voice_code: string;
  prosody: { speed: number; pitch: number; volume: number };
}

export interface ParseSsmlOptions {
  /** The request's voice: the language of `<phoneme>` and the sex `<lang>` keeps when it picks a voice. */
  voiceCode?: string | undefined;
  /** Custom voices by code that `<voice name>` may name besides the catalogue's codes. */
  customVoices?: Readonly<Record<string, SsmlCustomVoice>> | undefined;
}

/**
 * The names of the document's `<voice name="…">` elements (before any check), so that a caller
 * can look up the custom voices among them for `ParseSsmlOptions.customVoices`.
 */
export function ssmlVoiceNames(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(/<voice\b[^>]*?\bname\s*=\s*(?:"([^"]*)"|'([^']*)')/giu))
    names.add((m[1] ?? m[2] ?? '').trim());
  return [...names].filter((n) => n !== '');
}

/**
 * The spoken text as it is built, in pieces: indexing a string grown by `+=` flattens it, a copy
 * of the whole text each time, and the builder looks at the text's end after every piece.
 */
function createTextBuilder() {
  const parts: string[] = [];
  let length = 0;
  return {
    get length() {
      return length;
    },
    append(piece: string) {
      if (piece === '') return;
      parts.push(piece);
      length += piece.length;
    },
    endsWithSpace(): boolean {
      const last = parts.at(-1);
      return last !== undefined && /\s/u.test(last[last.length - 1] as string);
    },
    /** The offset just past the last character that is not white space. */
    wordsEnd(): number {
      let end = length;
      for (let p = parts.length - 1; p >= 0; p--) {
        const part = parts[p] as string;
        const kept = wordsEnd(part);
        end -= part.length - kept;
        if (kept > 0) break;
      }
      return end;
    },
    /** Drops the white space at the end. */
    trimEnd() {
      while (parts.length > 0) {
        const last = parts.at(-1) as string;
        const kept = last.slice(0, wordsEnd(last));
        length -= last.length - kept.length;
        if (kept !== '') {
          parts[parts.length - 1] = kept;
          return;
        }
        parts.pop();
      }
    },
    toString: () => parts.join(''),
  };
}

/**
 * Writes the spoken text: whitespace collapsed, and the separator owed before the next word (a
 * blank line after a paragraph, a space after a sentence, and a space where a break or a voice
 * change stands between two words: written "you?<break/>Out", they are still two words, in
 * subtitles too).
 */
function createSpokenWriter(out: ReturnType<typeof createTextBuilder>) {
  let pendingEdge: 'word' | 'sentence' | 'paragraph' | undefined;
  return {
    /** Owes a separator before the next word (the strongest owed wins). */
    owe(edge: 'word' | 'sentence' | 'paragraph') {
      const rank = { word: 1, sentence: 2, paragraph: 3 } as const;
      if (!pendingEdge || rank[edge] > rank[pendingEdge]) pendingEdge = edge;
    },
    append(raw: string) {
      let piece = raw.replace(/\s+/gu, ' ');
      if (piece.trim() === '') {
        if (piece !== '' && out.length > 0 && !out.endsWithSpace() && !pendingEdge) out.append(' ');
        return;
      }
      if (pendingEdge) {
        if (out.length > 0) {
          out.trimEnd();
          out.append(pendingEdge === 'paragraph' ? '\n\n' : ' ');
        }
        pendingEdge = undefined;
      }
      if (out.length === 0 || out.endsWithSpace()) piece = piece.replace(/^ /u, '');
      out.append(piece);
    },
  };
}

/** The runs of the text, each with the voice and prosody (a custom voice's own applied) it is spoken in. */
function createRunTracker(out: ReturnType<typeof createTextBuilder>, options: ParseSsmlOptions) {
  const runs: SsmlRun[] = [];
  let settings: Settings = { voiceCode: undefined, rate: 1, pitch: 1, volume: 1 };
  let runStart = 0;
  const closeRun = () => {
    if (out.length > runStart) {
      const { speaker, ...rest } = settings;
      const own = speaker === undefined ? undefined : options.customVoices?.[speaker]?.prosody;
      runs.push({
        start: runStart,
        end: out.length,
        ...rest,
        ...(own
          ? {
              speaker,
              rate: rest.rate * own.speed,
              pitch: rest.pitch * own.pitch,
              volume: rest.volume * (own.volume / 100),
            }
          : {}),
      });
    }
    runStart = out.length;
  };
  return {
    runs,
    /** The voice and prosody in force. */
    get settings() {
      return settings;
    },
    /** Ends the run written so far. */
    closeRun,
    /** Starts a new run when `next` differs from the settings in force. */
    changeSettings(next: Settings) {
      if (
        next.voiceCode === settings.voiceCode &&
        next.speaker === settings.speaker &&
        next.rate === settings.rate &&
        next.pitch === settings.pitch &&
        next.volume === settings.volume
      ) {
        return;
      }
      closeRun();
      settings = next;
    },
  };
}

/** The offset of the first character at or after `start` that is not white space. */
function wordsStart(text: string, start: number): number {
  let i = start;
  while (i < text.length && /\s/u.test(text[i] as string)) i++;
  return i;
}

/** The offset just past the last character of `text` before `end` that is not white space. */
export function wordsEnd(text: string, end = text.length): number {
  let i = end;
  while (i > 0 && /\s/u.test(text[i - 1] as string)) i--;
  return i;
}

/** Whether `text` is SSML: its first non-space characters open a `<speak>` element. */
export function isSsml(text: string): boolean {
  return /^\s*<speak(?=[\s>/])/u.test(text);
}

/** Where `offset` is in `source`: 1-based line and column. */
export function positionOf(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < source.length; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * What an SSML error is about, for a client to word it (the studio in its language): `reason`,
 * and the element, attribute, value given, element expected and IPA symbol and its 1-based
 * position in `ph` where they apply. Sent as `error_details` with line, column and offset.
 */
export interface SsmlErrorAbout {
  reason: SsmlErrorReason;
  tag?: string;
  attribute?: string;
  value?: string;
  expected?: string;
  symbol?: string;
  position?: number;
}

export const SSML_ERROR_REASONS = [
  'syntax',
  'entity',
  'text_outside_speak',
  'speak_first',
  'speak_nested',
  'closes_nothing',
  'wrong_close',
  'not_closed',
  'inside_reading',
  'no_text',
  'missing_attribute',
  'bad_value',
  'out_of_bounds',
  'unknown_voice',
  ...IPA_ERROR_REASONS,
] as const;
export type SsmlErrorReason = (typeof SSML_ERROR_REASONS)[number];

/** The SSML error at `offset` of `source`: AppError SSML_INVALID, its message ending with the place. */
function ssmlError(source: string, offset: number, message: string, about?: SsmlErrorAbout): AppError {
  const { line, column } = positionOf(source, offset);
  return new AppError('SSML_INVALID', `SSML: ${message} (line ${line}, column ${column}).`, {
    field: 'input_text',
    line,
    column,
    offset,
    ...about,
  });
}

interface Settings {
  voiceCode: string | undefined;
  /** The custom voice speaking (its code), if one does. */
  speaker?: string | undefined;
  rate: number;
  pitch: number;
  volume: number;
}

interface OpenElement {
  name: string;
  /** Offset of the `<` in the source. */
  at: number;
  /** For sub, phoneme and say-as: the reading over the text written inside. */
  reading?: { start: number; make: (end: number) => SsmlReading };
  edge?: 'sentence' | 'paragraph';
  /** The voice and prosody outside the element, restored when it closes. */
  before: Settings;
}

/** Rate, pitch and volume factors of `<emphasis level>`: a modest slowing, rise and lift. */
const EMPHASIS: Record<string, { rate: number; pitch: number; volume: number }> = {
  strong: { rate: 0.85, pitch: 1.15, volume: 1.3 },
  moderate: { rate: 0.92, pitch: 1.08, volume: 1.15 },
  none: { rate: 1, pitch: 1, volume: 1 },
  reduced: { rate: 1.08, pitch: 0.95, volume: 0.85 },
};

const RATE_WORDS: Record<string, number> = {
  'x-slow': 0.5,
  slow: 0.75,
  medium: 1,
  fast: 1.5,
  'x-fast': 2,
  default: 1,
};
const PITCH_WORDS: Record<string, number> = {
  'x-low': 0.6,
  low: 0.8,
  medium: 1,
  high: 1.25,
  'x-high': 1.6,
  default: 1,
};
const VOLUME_WORDS: Record<string, number> = {
  silent: 0,
  'x-soft': 0.5,
  soft: 0.75,
  medium: 1,
  loud: 1.25,
  'x-loud': 1.5,
  default: 1,
};

/**
 * Parses SSML `source` (cleaned text, see `isSsml`). Throws AppError SSML_INVALID naming the line
 * and column for malformed markup (unclosed or mismatched tags, a bad attribute or entity, text
 * outside `<speak>`), a `<prosody>` outside the API's bounds (rate and pitch ×0.5–2, volume
 * 50–150%, or silent), a `<voice name>` that is not a voice code, IPA that cannot be spoken. An
 * element outside the supported set is read as its text, with a warning.
 */
export function parseSsml(source: string, options: ParseSsmlOptions = {}): SsmlDocument {
  const out = createTextBuilder();
  const spoken = createSpokenWriter(out);
  const { owe } = spoken;
  const track = createRunTracker(out, options);
  const readings: SsmlReading[] = [];
  const events: SsmlEvent[] = [];
  const warnings: SsmlWarning[] = [];
  const stack: OpenElement[] = [];
  let rootClosed = false;
  let sawRoot = false;

  const fail: Fail = (at, message, about) => {
    throw ssmlError(source, at, message, about);
  };
  const warn = (at: number, message: string) => {
    warnings.push({ message, ...positionOf(source, at), offset: at });
  };
  const addEdge = (edge: 'sentence' | 'paragraph') => {
    events.push({ kind: 'edge', offset: out.wordsEnd(), edge });
    owe(edge);
  };

  const state: ParseState = {
    options,
    get settings() {
      return track.settings;
    },
    get textLength() {
      return out.length;
    },
    events,
    fail,
    warn,
    owe,
    addEdge,
    changeSettings: track.changeSettings,
  };

  const insideSpeak = (at: number) => {
    if (!sawRoot || rootClosed)
      fail(at, 'text must stand inside <speak>…</speak>', { reason: 'text_outside_speak' });
  };
  readSsmlMarkup(source, fail, {
    text(value, at) {
      if (value.trim() !== '') insideSpeak(at);
      if (sawRoot && !rootClosed) spoken.append(value);
    },
    cdata(text, at) {
      insideSpeak(at);
      spoken.append(text);
    },
    end(name, tagAt) {
      const open = stack.pop();
      if (!open) fail(tagAt, `</${name}> closes no open element`, { reason: 'closes_nothing', tag: name });
      if (open.name !== name) {
        fail(tagAt, `</${name}> found where </${open.name}> was expected`, {
          reason: 'wrong_close',
          tag: name,
          expected: open.name,
        });
      }
      closeElement(open);
      if (stack.length === 0) rootClosed = true;
    },
    start(name, tagAt, attributes, selfClosing) {
      if (rootClosed) fail(tagAt, 'nothing may follow </speak>', { reason: 'text_outside_speak' });
      if (!sawRoot) {
        if (name !== 'speak')
          fail(tagAt, 'the document must start with <speak>', { reason: 'speak_first', tag: name });
        sawRoot = true;
      } else if (name === 'speak') {
        fail(tagAt, '<speak> may not be nested', { reason: 'speak_nested', tag: name });
      }
      const element = openElement(name, tagAt, attributes, selfClosing);
      if (selfClosing) closeElement(element);
      else stack.push(element);
    },
  });
  if (!sawRoot) fail(0, 'the document must start with <speak>', { reason: 'speak_first' });
  if (stack.length > 0) {
    const open = stack.at(-1) as OpenElement;
    fail(open.at, `<${open.name}> is not closed`, { reason: 'not_closed', tag: open.name });
  }
  const text = out.toString().slice(0, out.wordsEnd());
  // A reading starts at its first word (the space before it was written before the element's text).
  for (const r of readings) r.start = wordsStart(text, r.start);
  track.closeRun();
  // Offsets recorded before trailing space was trimmed stay within the text.
  for (const e of events) e.offset = Math.min(e.offset, text.length);
  for (const r of track.runs) r.end = Math.min(r.end, text.length);
  const merged = mergedRuns(track.runs);
  const voiceCodes = [...new Set(merged.flatMap((r) => (r.voiceCode ? [r.voiceCode] : [])))];
  const speakers = [...new Set(merged.flatMap((r) => (r.speaker ? [r.speaker] : [])))];
  return { text, runs: merged, readings, events, warnings, voiceCodes, speakers };

  function openElement(
    name: string,
    tagAt: number,
    attributes: SsmlAttributes,
    selfClosing: boolean,
  ): OpenElement {
    const element: OpenElement = { name, at: tagAt, before: track.settings };
    const inReading = stack.find((e) => e.reading);
    if (inReading) {
      fail(tagAt, `<${name}> may not stand inside <${inReading.name}>, which holds only text`, {
        reason: 'inside_reading',
        tag: name,
        expected: inReading.name,
      });
    }
    const handler = elementHandler(name);
    if (!handler) {
      warn(tagAt, `<${name}> is not supported; its text is read as written`);
      return element;
    }
    handler(state, { name, at: tagAt, attributes, selfClosing }, element);
    return element;
  }

  function closeElement(element: OpenElement) {
    if (element.reading) {
      const trimmedEnd = out.wordsEnd();
      const { start } = element.reading;
      if (trimmedEnd <= start) {
        fail(element.at, `<${element.name}> has no text`, { reason: 'no_text', tag: element.name });
      }
      readings.push({ ...element.reading.make(trimmedEnd), start });
    }
    if (element.edge) addEdge(element.edge);
    if (element.name === 'voice' || element.name === 'lang') owe('word');
    track.changeSettings(element.before);
  }
}

/** The runs that hold text, neighbours with the same voice and prosody joined. */
function mergedRuns(runs: SsmlRun[]): SsmlRun[] {
  const merged: SsmlRun[] = [];
  for (const run of runs.filter((r) => r.end > r.start)) {
    const last = merged.at(-1);
    if (
      last &&
      last.voiceCode === run.voiceCode &&
      last.speaker === run.speaker &&
      last.rate === run.rate &&
      last.pitch === run.pitch &&
      last.volume === run.volume
    ) {
      last.end = run.end;
    } else {
      merged.push({ ...run });
    }
  }
  return merged;
}

/** A start tag as an element's handler reads it. */
interface StartTag {
  name: string;
  /** Offset of the `<` in the source. */
  at: number;
  attributes: Map<string, { value: string; at: number }>;
  selfClosing: boolean;
}

/** What an element's handler reads of the parse, and may do to it. */
interface ParseState {
  readonly options: ParseSsmlOptions;
  /** The voice and prosody in force. */
  readonly settings: Settings;
  /** Length of the text written so far: where an event or a reading starts. */
  readonly textLength: number;
  readonly events: SsmlEvent[];
  fail: Fail;
  warn(at: number, message: string): void;
  /** Owes a separator before the next word (the strongest owed wins). */
  owe(edge: 'word' | 'sentence' | 'paragraph'): void;
  /** Records a sentence or paragraph edge here, and owes its separator. */
  addEdge(edge: 'sentence' | 'paragraph'): void;
  /** Starts a new run when `next` differs from the settings in force. */
  changeSettings(next: Settings): void;
}

/**
 * Opens a supported element: checks its attributes (failing with the parse's SSML errors), writes
 * its events, changes the voice or prosody, or sets the element's edge or reading, which its
 * closing applies. The settings in force before it are restored when it closes.
 */
type ElementHandler = (state: ParseState, tag: StartTag, element: OpenElement) => void;

/** The handler of each supported element, by name; any other element is read as its text. */
const ELEMENTS: Record<string, ElementHandler> = {
  speak: () => undefined,
  p: openEdge('paragraph'),
  paragraph: openEdge('paragraph'),
  s: openEdge('sentence'),
  sentence: openEdge('sentence'),
  break: openBreak,
  emphasis: openEmphasis,
  prosody: openProsody,
  'say-as': openSayAs,
  sub: openSub,
  phoneme: openPhoneme,
  lang: openLang,
  voice: openVoice,
  mark: openMark,
};

/** The handler of an element `name`, if it is supported. */
function elementHandler(name: string): ElementHandler | undefined {
  return Object.hasOwn(ELEMENTS, name) ? ELEMENTS[name] : undefined;
}

/** Attribute `key` of `tag`; fails when it is missing and `required`. */
function attribute(
  state: ParseState,
  tag: StartTag,
  key: string,
  required = false,
): { value: string; at: number } | undefined {
  const found = tag.attributes.get(key);
  if (!found && required)
    state.fail(tag.at, `<${tag.name}> needs the attribute ${key}`, {
      reason: 'missing_attribute',
      tag: tag.name,
      attribute: key,
    });
  return found;
}

/** `<p>`, `<paragraph>`, `<s>`, `<sentence>`: an edge where the element opens and where it closes. */
function openEdge(edge: 'sentence' | 'paragraph'): ElementHandler {
  return (state, _tag, element) => {
    element.edge = edge;
    state.addEdge(edge);
  };
}

/** `<break/>`: a pause of `time`, of `strength`, or a medium one; a word separator. */
function openBreak(state: ParseState, tag: StartTag): void {
  const { fail } = state;
  if (!tag.selfClosing)
    fail(tag.at, '<break> must be empty: write <break/>', { reason: 'syntax', tag: 'break' });
  const time = attribute(state, tag, 'time');
  const strength = attribute(state, tag, 'strength');
  let ms: number;
  if (time) {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s)\s*$/u.exec(time.value);
    if (!m)
      fail(time.at, `break time "${time.value}" must be a number of ms or s, e.g. "500ms" or "1.5s"`, {
        reason: 'bad_value',
        tag: 'break',
        attribute: 'time',
        value: time.value,
      });
    const [, amount, unit] = m as RegExpExecArray;
    ms = Number(amount) * (unit === 's' ? 1000 : 1);
    if (ms > SSML_MAX_BREAK_MS)
      fail(time.at, `break time "${time.value}" is over ${SSML_MAX_BREAK_MS / 1000} s`, {
        reason: 'out_of_bounds',
        tag: 'break',
        attribute: 'time',
        value: time.value,
      });
  } else if (strength) {
    const value = BREAK_STRENGTH_MS[strength.value as keyof typeof BREAK_STRENGTH_MS];
    if (value === undefined) {
      fail(strength.at, `break strength must be one of ${Object.keys(BREAK_STRENGTH_MS).join(', ')}`, {
        reason: 'bad_value',
        tag: 'break',
        attribute: 'strength',
        value: strength.value,
      });
    }
    ms = value;
  } else {
    ms = BREAK_STRENGTH_MS.medium;
  }
  state.events.push({ kind: 'break', offset: state.textLength, ms: Math.round(ms) });
  state.owe('word');
}

/** `<mark name>`: a mark event here. */
function openMark(state: ParseState, tag: StartTag): void {
  const markName = attribute(state, tag, 'name', true) as { value: string };
  state.events.push({ kind: 'mark', offset: state.textLength, name: markName.value });
}

/** `<emphasis level>`: the level's factors on rate, pitch and volume. */
function openEmphasis(state: ParseState, tag: StartTag): void {
  const { settings } = state;
  const level = attribute(state, tag, 'level')?.value ?? 'moderate';
  const factors = EMPHASIS[level];
  if (!factors)
    state.fail(tag.at, `emphasis level must be strong, moderate, none or reduced, not "${level}"`, {
      reason: 'bad_value',
      tag: 'emphasis',
      attribute: 'level',
      value: level,
    });
  const f = factors as (typeof EMPHASIS)[string];
  state.changeSettings({
    ...settings,
    rate: settings.rate * f.rate,
    pitch: settings.pitch * f.pitch,
    volume: settings.volume * f.volume,
  });
}

/** `<prosody rate pitch volume>`: each within the API's bounds, relative to the prosody in force. */
function openProsody(state: ParseState, tag: StartTag): void {
  const { settings, fail } = state;
  const rate = attribute(state, tag, 'rate');
  const pitch = attribute(state, tag, 'pitch');
  const volume = attribute(state, tag, 'volume');
  if (attribute(state, tag, 'duration')) state.warn(tag.at, '<prosody duration> is not supported; use rate');
  if (!rate && !pitch && !volume)
    state.warn(tag.at, '<prosody> without rate, pitch or volume changes nothing');
  state.changeSettings({
    ...settings,
    rate: settings.rate * (rate ? rateFactor(rate.value, rate.at, fail) : 1),
    pitch: settings.pitch * (pitch ? pitchFactor(pitch.value, pitch.at, fail) : 1),
    volume: settings.volume * (volume ? volumeFactor(volume.value, volume.at, fail) : 1),
  });
}

/** `<voice name>`: a custom voice (its speaker and eSpeak voice) or a voice code; a word separator. */
function openVoice(state: ParseState, tag: StartTag): void {
  const { options, settings } = state;
  const voiceName = attribute(state, tag, 'name', true) as { value: string; at: number };
  const custom = Object.hasOwn(options.customVoices ?? {}, voiceName.value)
    ? options.customVoices![voiceName.value]
    : undefined;
  if (custom && findVoice(custom.voice_code)) {
    state.owe('word');
    state.changeSettings({ ...settings, voiceCode: custom.voice_code, speaker: voiceName.value });
    return;
  }
  if (!findVoice(voiceName.value)) {
    state.fail(
      voiceName.at,
      `unknown voice "${voiceName.value}" in <voice name>; GET /api/v1/voices lists the voice codes`,
      { reason: 'unknown_voice', tag: 'voice', attribute: 'name', value: voiceName.value },
    );
  }
  state.owe('word');
  state.changeSettings({ ...settings, voiceCode: voiceName.value, speaker: undefined });
}

/**
 * `<lang xml:lang>`: a voice of that language, of the current voice's gender if one is (the
 * current voice if it speaks it); a warning when none does. A word separator.
 */
function openLang(state: ParseState, tag: StartTag): void {
  const { options, settings } = state;
  const lang = attribute(state, tag, 'xml:lang', true) as { value: string; at: number };
  state.owe('word');
  const code = lang.value.toLowerCase().split(/[-_]/u)[0] as string;
  const current = findVoice(settings.voiceCode ?? options.voiceCode ?? '');
  const target = code === 'jp' ? 'ja' : code;
  if (current?.language === target) return;
  const candidates = VOICES.filter((v) => v.language === target);
  const pick = candidates.find((v) => v.gender === current?.gender) ?? candidates[0];
  if (!pick) {
    state.warn(tag.at, `no voice speaks the language "${lang.value}"; the text is read in the current voice`);
    return;
  }
  state.changeSettings({ ...settings, voiceCode: pick.voice_code, speaker: undefined });
}

/** `<sub alias>`: the alias is read over the text inside. */
function openSub(state: ParseState, tag: StartTag, element: OpenElement): void {
  const alias = attribute(state, tag, 'alias', true) as { value: string };
  element.reading = {
    start: state.textLength,
    make: (end) => ({ kind: 'sub', alias: alias.value, start: 0, end }),
  };
}

/** `<phoneme alphabet ph>`: IPA, checked against the language spoken, read over the text inside. */
function openPhoneme(state: ParseState, tag: StartTag, element: OpenElement): void {
  const { options, settings, fail } = state;
  const alphabet = attribute(state, tag, 'alphabet');
  if (alphabet && alphabet.value.toLowerCase() !== 'ipa') {
    fail(alphabet.at, `phoneme alphabet "${alphabet.value}" is not supported; use "ipa"`, {
      reason: 'bad_value',
      tag: 'phoneme',
      attribute: 'alphabet',
      value: alphabet.value,
    });
  }
  const ph = attribute(state, tag, 'ph', true) as { value: string; at: number };
  const spokenIn = findVoice(settings.voiceCode ?? options.voiceCode ?? '')?.language;
  if (spokenIn) {
    const converted = ipaToEspeak(ph.value, spokenIn);
    if (!converted.ok)
      fail(ph.at, `phoneme ph "${ph.value}": ${converted.message}`, {
        reason: converted.reason,
        tag: 'phoneme',
        attribute: 'ph',
        value: ph.value,
        ...(converted.symbol === undefined ? {} : { symbol: converted.symbol }),
        position: converted.position,
      });
  }
  element.reading = {
    start: state.textLength,
    make: (end) => ({ kind: 'phoneme', ipa: ph.value, start: 0, end }),
  };
}

/** `<say-as interpret-as format>`: how the text inside is read. */
function openSayAs(state: ParseState, tag: StartTag, element: OpenElement): void {
  const as = attribute(state, tag, 'interpret-as', true) as { value: string; at: number };
  if (!(SAY_AS as readonly string[]).includes(as.value)) {
    state.fail(as.at, `say-as interpret-as must be one of ${SAY_AS.join(', ')}, not "${as.value}"`, {
      reason: 'bad_value',
      tag: 'say-as',
      attribute: 'interpret-as',
      value: as.value,
    });
  }
  const format = attribute(state, tag, 'format')?.value;
  element.reading = {
    start: state.textLength,
    make: (end) => ({ kind: 'say-as', interpretAs: as.value as SayAs, format, start: 0, end }),
  };
}

/** A prosody value as a factor: a keyword of `words`, a percentage ("+20%" a change, "120%" the value) or a number. */
function ratio(value: string, words: Record<string, number>): number | undefined {
  const word = words[value.trim()];
  if (word !== undefined) return word;
  const percent = /^\s*([+-]?\d+(?:\.\d+)?)%\s*$/u.exec(value);
  if (percent) {
    const n = Number(percent[1]);
    // "+20%" and "-20%" are changes; "120%" is the value itself.
    return /^\s*[+-]/u.test(value) ? 1 + n / 100 : n / 100;
  }
  const number = /^\s*(\d+(?:\.\d+)?)\s*$/u.exec(value);
  return number ? Number(number[1]) : undefined;
}

function inBounds(
  factor: number,
  min: number,
  max: number,
  at: number,
  what: string,
  value: string,
  fail: Fail,
): number {
  if (!(factor >= min - 1e-9 && factor <= max + 1e-9)) {
    fail(at, `prosody ${what}="${value}" is outside the API's bounds (×${min} to ×${max})`, {
      reason: 'out_of_bounds',
      tag: 'prosody',
      attribute: what,
      value,
    });
  }
  return factor;
}

function rateFactor(value: string, at: number, fail: Fail): number {
  const factor = ratio(value, RATE_WORDS);
  if (factor === undefined)
    fail(at, `prosody rate "${value}" must be a keyword (x-slow … x-fast), a percentage or a number`, {
      reason: 'bad_value',
      tag: 'prosody',
      attribute: 'rate',
      value,
    });
  return inBounds(factor as number, RATE_MIN, RATE_MAX, at, 'rate', value, fail);
}

function pitchFactor(value: string, at: number, fail: Fail): number {
  const semitones = /^\s*([+-]\d+(?:\.\d+)?)st\s*$/u.exec(value);
  const factor = semitones ? 2 ** (Number(semitones[1]) / 12) : ratio(value, PITCH_WORDS);
  if (factor === undefined || /hz\s*$/iu.test(value)) {
    fail(
      at,
      `prosody pitch "${value}" must be a keyword (x-low … x-high), a percentage or semitones such as "+2st"`,
      { reason: 'bad_value', tag: 'prosody', attribute: 'pitch', value },
    );
  }
  return inBounds(factor as number, RATE_MIN, RATE_MAX, at, 'pitch', value, fail);
}

function volumeFactor(value: string, at: number, fail: Fail): number {
  const db = /^\s*([+-]\d+(?:\.\d+)?)dB\s*$/u.exec(value);
  const factor = db ? 10 ** (Number(db[1]) / 20) : ratio(value, VOLUME_WORDS);
  if (factor === undefined) {
    fail(
      at,
      `prosody volume "${value}" must be a keyword (silent, x-soft … x-loud), decibels such as "+3dB", or a percentage`,
      { reason: 'bad_value', tag: 'prosody', attribute: 'volume', value },
    );
  }
  if (factor === 0) return 0;
  return inBounds(factor as number, VOLUME_MIN / 100, VOLUME_MAX / 100, at, 'volume', value, fail);
}

/**
 * The warnings of SSML `input` as sentences with their place, or undefined when it is not SSML.
 * Never throws: a document that cannot be parsed gives its error as the one warning.
 */
export function ssmlWarnings(input: string, options: ParseSsmlOptions = {}): string[] | undefined {
  if (!isSsml(input)) return undefined;
  try {
    return parseSsml(input, options).warnings.map((w) => `${w.message} (line ${w.line}, column ${w.column})`);
  } catch (error) {
    return [error instanceof Error ? error.message : String(error)];
  }
}

/**
 * The text of `input` that is spoken and charged: the SSML document's text, or `input` itself
 * when it is not SSML. Throws as `parseSsml`.
 */
export function spokenText(input: string, options: ParseSsmlOptions = {}): string {
  return isSsml(input) ? parseSsml(input, options).text : input;
}

/** Text as SSML character data: `&`, `<` and `>` escaped (the studio's dialogue SSML and book projects' segments). */
export function escapeSsmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
