/**
 * Worker thread hosting one long-lived eSpeak NG instance. Receives WorkerRequest
 * messages, answers WorkerResponse messages; audio is transferred, not copied.
 *
 * Besides synthesis it phonemises text for the neural voices (`phonemize`): the text is cut
 * into clauses where eSpeak itself would end one (see `splitClauses`), each clause goes
 * through eSpeak's own text-to-phonemes, and the answer keeps the clause's place in the
 * text, its closing punctuation and the phonemes of each word eSpeak spoke.
 */

import { parentPort } from 'node:worker_threads';
import { AppError, assertNever, toWireError } from '../../../shared/errors';
import { lowerThreadPriority } from '../threads/thread-priority';
import type {
  ClauseTerminator,
  EngineSettings,
  PhonemeClause,
  RawWordEvent,
  TextWord,
  WorkerReady,
  WorkerRequest,
  WorkerResponse,
} from './protocol';
import { EVENT_SENTENCE, EVENT_WORD, loadEspeakNg, PARAMETER, type EspeakNg } from './espeak-ng-wasm';

if (!parentPort) throw new Error('espeak-worker must run in a worker thread');
// Synthesis yields the CPU to the thread that answers requests (see thread-priority.ts).
lowerThreadPriority();
const port = parentPort;

let espeak: EspeakNg;
const WARM_UP: EngineSettings = { voice: 'en-us', rate: 175, pitch: 50, range: 50, volume: 60 };
/** Settings last applied for synthesis; undefined after a voice change (all are applied again). */
let current: EngineSettings | undefined;
/** The voice eSpeak has loaded: the name it was asked for, and whether by its file (`byFile`). */
let loadedVoice: { name: string; byFile: boolean } | undefined;
let languages: Set<string> | undefined;
/**
 * The module's memory as it was once the engine was warmed up (see `resetEngine`), by page: the
 * pages below malloc's end then that hold anything (~20, 1.3 MB, of the ~100 below it). Every
 * other page is zeros. The price of output that depends on nothing but the request.
 */
let pristine: ReadonlyMap<number, Uint8Array> | undefined;
/**
 * The highest end of what malloc has taken since the module started. Its allocator never gives
 * memory back (the end only grows: tested), so no page above it was ever written and none is read:
 * the first touch of each of the 16 MB's pages took ~60 ms of the worker's start (measured).
 */
let touchedEnd = 0;
/**
 * Whether `pristine` holds eSpeak's list of voices. eSpeak makes it, reading every voice file
 * (~75 ms), on its first need: a voice it cannot load by its file's name, a language, SSML. The
 * warm-up's voice loads directly, so a worker is ready without it and one that never needs it
 * never makes it; the first request that may need it makes it first and keeps it (`resetFor`).
 */
let listed = false;
/** Pages compared and restored one at a time: a call dirties a handful of the module's ~260. */
const PAGE_BYTES = 65_536;
const ZERO_PAGE = new Uint8Array(PAGE_BYTES);
/**
 * Loads a voice by name. eSpeak keeps the previous voice when a name is unknown: never
 * speak or phonemise with the wrong one. Some language codes are no voice file's name
 * (`en-gb`, `fr-fr`, `zh`); with `byLanguage` such a name is looked up as a language that
 * some voice declares, and eSpeak picks that language's voice.
 */
function loadVoice(name: string, byLanguage: boolean, text: string): void {
  const file = byFile(text);
  if (loadedVoice?.name === name && loadedVoice.byFile === file) return;
  let code = espeak.setVoiceByName(name, { byFile: file });
  if (code !== 0 && byLanguage) {
    const language = (name.split('+')[0] ?? '').toLowerCase();
    languages ??= new Set(espeak.listVoices().flatMap((v) => v.languages.map((l) => l.name.toLowerCase())));
    if (language && languages.has(language)) code = espeak.setVoiceByLanguage(language);
  }
  if (code !== 0) throw new AppError('UNKNOWN_VOICE', `engine voice not found: ${name}`);
  loadedVoice = { name, byFile: file };
  current = undefined;
}

/**
 * Puts the engine back in the state it had after warm-up, so a request's output depends only on
 * its text and settings. eSpeak keeps state across calls (its pitch flutter index, the
 * waveform's phase, random noise): without this the same sentence came out different on each
 * call (measured: 4 of 4 calls gave different PCM, and different lengths), so a render depended
 * on which worker spoke each chunk and on what it spoke before, and a sentence cache could not
 * be bit-identical to a full render. Restoring all of the module's memory is what makes it so:
 * resetting the few counters found by diffing memory was not enough for other voices. Only the
 * pages that differ are copied back; with loading the voice again that cost ~3 ms a call
 * (measured beside 45 ms of synthesis a sentence on a loaded machine). Memory above the snapshot,
 * unused then, is zeroed again where a call wrote to it.
 */
function resetEngine(): void {
  if (!pristine) return;
  const heap = espeak.memory();
  // The previous call's end: a reset puts malloc's end back, the calls since may have passed it.
  touchedEnd = Math.max(touchedEnd, espeak.heapEnd());
  for (let at = 0; at < touchedEnd; at += PAGE_BYTES) {
    const saved = pristine.get(at) ?? ZERO_PAGE;
    const live = heap.subarray(at, at + PAGE_BYTES);
    if (Buffer.compare(live, saved) !== 0) live.set(saved);
  }
  loadedVoice = { name: WARM_UP.voice, byFile: true };
  current = { ...WARM_UP };
  phonemeInput = true;
}

/**
 * Whether a request for `text` sets its voice by the voice's file (`setVoiceByName`'s `byFile`):
 * unless it may be SSML, which goes back to a voice by the name eSpeak was given.
 */
function byFile(text: string): boolean {
  return !text.includes('<');
}

/**
 * Puts the engine back in its warm-up state before a request for `voice` and `text`, with eSpeak's
 * list of voices in that state when the request may make it: made there once, it is not made
 * again by each such request (a reset would drop it).
 * Whether the list is there changes where eSpeak's memory is, not what it says (tested).
 */
function resetFor(voice: string, text: string): void {
  if (pristine && !listed && !(byFile(text) && espeak.loadsVoiceDirectly(voice))) {
    resetEngine();
    espeak.listVoices();
    touchedEnd = Math.max(touchedEnd, espeak.heapEnd());
    pristine = snapshot(espeak.memory(), touchedEnd);
    listed = true;
  }
  resetEngine();
}

/** The pages of `heap` below `end` that hold anything, copied. */
function snapshot(heap: Uint8Array, end: number): Map<number, Uint8Array> {
  const pages = new Map<number, Uint8Array>();
  for (let at = 0; at < end; at += PAGE_BYTES) {
    const page = heap.subarray(at, at + PAGE_BYTES);
    if (Buffer.compare(page, ZERO_PAGE) !== 0) pages.set(at, page.slice());
  }
  return pages;
}

function applySettings(settings: EngineSettings, text: string): void {
  loadVoice(settings.voice, false, text);
  if (current?.rate !== settings.rate) espeak.setParameter(PARAMETER.rate, settings.rate);
  if (current?.pitch !== settings.pitch) espeak.setParameter(PARAMETER.pitch, settings.pitch);
  if (current?.range !== settings.range) espeak.setParameter(PARAMETER.range, settings.range);
  if (current?.volume !== settings.volume) espeak.setParameter(PARAMETER.volume, settings.volume);
  current = { ...settings };
}

function synthesize(seq: number, text: string, settings: EngineSettings): WorkerResponse {
  resetFor(settings.voice, text);
  applySettings(settings, text);
  const words: RawWordEvent[] = [];
  const sentenceMs: number[] = [];
  phonemeInput = true;
  const { samples, events } = espeak.synthesize(text);
  for (const e of events) {
    if (e.type === EVENT_WORD) {
      words.push({ textPosition: e.textPosition, wordLength: e.length, audioMs: e.audioMs });
    } else if (e.type === EVENT_SENTENCE) {
      sentenceMs.push(e.audioMs);
    }
  }
  return { seq, type: 'result', pcm: samples.buffer, sampleRate: espeak.sampleRate, words, sentenceMs };
}

// ---- phonemes ----------------------------------------------------------------------------

/**
 * Languages whose neural voices were trained on eSpeak's phoneme *trace* (what it writes while
 * speaking, after it has placed the tones) rather than on its text-to-phonemes call, which
 * stops before that step. For Vietnamese the difference is the tones eSpeak adds itself: the
 * level tone "1" on every syllable with no tone mark, and "7" (level tone at the end of a
 * clause) on a clause's last stressed syllable (`CalcPitches_Tone` in eSpeak's intonation.c).
 * vi_VN-vais1000-medium was trained on them: its config's `phoneme_id_map` is written in the
 * order of piper_train's own Python map, which piper_train used with the `espeak_phonemizer`
 * package, whose default reads this trace; docs/VOICES-PHONEMES.md gives the sources. For the
 * other languages the two calls give the same phonemes (test/core/engine/phoneme-reference).
 */
const TRACED_LANGUAGES = new Set(['vi']);
/**
 * Speaking rate for the trace. Only the phonemes are kept, and they do not depend on the rate;
 * eSpeak's fastest rate cuts the cost of the audio it makes on the way by a third (measured on
 * a long Vietnamese sentence: 200 ms at 175 words a minute, 129 ms at 450, against 17 ms for
 * text-to-phonemes).
 */
const TRACE_RATE = 450;

/** Whether eSpeak reads phonemes in `[[ ]]` in text-to-phonemes (see `readPhonemeInput`). */
let phonemeInput = true;

/**
 * eSpeak's phoneme trace for `text` with the loaded voice (see `TRACED_LANGUAGES`). The trace
 * call of our build passes eSpeak no `espeakPHONEMES` flag: it reads `[[ ]]` as letters, and
 * leaves text-to-phonemes doing the same until the next synthesis (`readPhonemeInput`).
 */
function tracePhonemes(text: string): string {
  if (current?.rate !== TRACE_RATE) {
    espeak.setParameter(PARAMETER.rate, TRACE_RATE);
    if (current) current = { ...current, rate: TRACE_RATE };
  }
  const ipa = espeak.phonemeTrace(text);
  phonemeInput = false;
  if (ipa === undefined) throw new AppError('ENGINE_FAILED', 'eSpeak could not phonemise the text');
  return ipa;
}

/** Turns eSpeak's reading of `[[ ]]` back on: any synthesis call does (it passes `espeakPHONEMES`). */
function readPhonemeInput(): void {
  if (phonemeInput) return;
  espeak.synthesize('');
  phonemeInput = true;
}

/**
 * A clause's phonemes: the trace for a traced language, except for a clause with phonemes in
 * `[[ ]]` (a lexicon entry), which only text-to-phonemes reads: that clause goes without the
 * tones eSpeak adds itself (docs/VOICES-PHONEMES.md).
 */
function clausePhonemes(text: string, traced: boolean): string {
  if (traced && !text.includes('[[')) return tracePhonemes(text);
  readPhonemeInput();
  return espeak.textToPhonemes(text);
}

/** The words of eSpeak's phoneme string, each as its phonemes; clause marks " | " become word breaks. */
function phonemeWords(raw: string): string[][] {
  return raw
    .replace(/\([^)]*\)/g, '') // language switches, e.g. "(en)" … "(fr)"
    .split(/[\s|]+/)
    .map((word) =>
      word
        .split('_')
        .filter((unit) => unit.length > 0)
        .map((unit) => unit.normalize('NFD')),
    )
    .filter((word) => word.length > 0);
}

/** One clause of the text, in code point indexes: words in [start, end), then its punctuation. */
interface ClauseSpan {
  start: number;
  end: number;
  punctuation: string;
  terminator: ClauseTerminator;
  endsSentence: boolean;
}

const WORDY = /[\p{L}\p{N}]/u;
const SPACE = /\s/u;
const LOWER = /\p{Ll}/u;
/** Currency, maths and other symbols eSpeak reads out ("%", "$", "&", "+"). */
const SYMBOL = /[\p{Sc}\p{Sm}%&@#°]/u;
/** Marks that end a clause when a space (or the end of the text) follows them. */
const CLAUSE_MARKS = new Set(['.', ',', '?', '!', ':', ';', '…', '–', '—']);
/** Full-width marks, which end a clause with or without a space after them; Piper writes no punctuation for them. */
const FULL_WIDTH_MARKS = new Map<string, boolean>([
  ['。', true],
  ['！', true],
  ['？', true],
  ['．', true],
  ['，', false],
  ['、', false],
  ['：', false],
  ['；', false],
]);
/** Closing quotes and brackets that may stand between a clause's mark and the space after it. */
const CLOSERS = new Set([
  '"',
  "'",
  '”',
  '’',
  '»',
  '›',
  ')',
  ']',
  '}',
  '）',
  '」',
  '』',
  '】',
  '〉',
  '》',
  '〕',
]);

/** eSpeak's clause type of a run of marks: the mark before a space, '?' or the end ("?!" is "!", "!?" is "!"). */
function clauseType(run: string[]): { terminator: ClauseTerminator; endsSentence: boolean } | undefined {
  const joined = run.join('');
  if (joined.endsWith('...') || joined.endsWith('…')) return { terminator: '', endsSentence: false };
  if (joined === '..') return undefined; // ends nothing in eSpeak
  let p = 0;
  while (p < run.length - 1 && run[p + 1] !== '?') p++;
  const mark = run[p] ?? '';
  const fullWidth = FULL_WIDTH_MARKS.get(mark);
  if (fullWidth !== undefined) return { terminator: '', endsSentence: fullWidth };
  switch (mark) {
    case '.':
    case '?':
    case '!':
      return { terminator: mark, endsSentence: true };
    case ',':
    case ':':
    case ';':
      return { terminator: mark, endsSentence: false };
    case '–':
    case '—':
      return { terminator: ';', endsSentence: false };
    default:
      return undefined;
  }
}

/**
 * Cuts text (as code points) into clauses where eSpeak ends one: after . , ? ! : ; … and a
 * spaced dash when a space or the end of the text follows (closing quotes and brackets may
 * come between), after full-width 。，、！？：； always, and at a blank line. As in eSpeak, a
 * single "." before a lower-case word ("e.g. this", "D.C. today") and marks before any
 * letter or digit end nothing, nor do the marks inside phonemes written in `[[ ]]`.
 */
function splitClauses(cps: string[]): ClauseSpan[] {
  const spans: ClauseSpan[] = [];
  let start = 0;
  let wordy = false;
  const close = (end: number, next: number, span: Omit<ClauseSpan, 'start' | 'end'>): void => {
    if (wordy) spans.push({ start, end, ...span });
    start = next;
    wordy = false;
  };
  let i = 0;
  while (i < cps.length) {
    const c = cps[i] ?? '';
    if (c === '[' && cps[i + 1] === '[') {
      // Phonemes from the lexicon ("[[b@'nA:n@]]"): their ":" "," "?" end nothing.
      const close = cps.findIndex((d, k) => k > i + 1 && d === ']' && cps[k + 1] === ']');
      if (close > 0) {
        wordy = true;
        i = close + 2;
        continue;
      }
    }
    if (CLAUSE_MARKS.has(c) || FULL_WIDTH_MARKS.has(c)) {
      let j = i;
      while (j < cps.length && (CLAUSE_MARKS.has(cps[j] ?? '') || FULL_WIDTH_MARKS.has(cps[j] ?? ''))) j++;
      let k = j;
      while (k < cps.length && CLOSERS.has(cps[k] ?? '')) k++;
      const run = cps.slice(i, j);
      const spaced = k === cps.length || SPACE.test(cps[k] ?? '');
      const type = clauseType(run);
      let ends = type !== undefined && wordy && (spaced || run.some((m) => FULL_WIDTH_MARKS.has(m)));
      if (ends && run.length === 1 && run[0] === '.') {
        let n = k;
        while (n < cps.length && SPACE.test(cps[n] ?? '')) n++;
        if (n < cps.length && LOWER.test(cps[n] ?? '')) ends = false;
      }
      if (ends && type) {
        close(i, k, { punctuation: cps.slice(i, k).join(''), ...type });
        i = k;
        continue;
      }
      i = j;
      continue;
    }
    if (c === '\n') {
      let n = i + 1;
      while (n < cps.length && cps[n] !== '\n' && SPACE.test(cps[n] ?? '')) n++;
      if (cps[n] === '\n') {
        close(i, n + 1, { punctuation: '', terminator: '', endsSentence: true });
        i = n + 1;
        continue;
      }
    }
    if (!wordy && WORDY.test(c)) wordy = true;
    i++;
  }
  close(cps.length, cps.length, { punctuation: '', terminator: '', endsSentence: true });
  return spans;
}

/**
 * The text's words in code points [start, end): runs of non-space code points that hold a
 * letter or digit, without the punctuation at either end ("“Quoted,”" → "Quoted"); symbols
 * eSpeak reads as words stay ("100%", "$20").
 */
function textWords(cps: readonly string[], start: number, end: number): TextWord[] {
  const words: TextWord[] = [];
  let i = start;
  while (i < end) {
    while (i < end && SPACE.test(cps[i] ?? '')) i++;
    let j = i;
    while (j < end && !SPACE.test(cps[j] ?? '')) j++;
    let a = i;
    let b = j;
    if (cps.slice(i, j).some((c) => WORDY.test(c))) {
      while (a < b && !WORDY.test(cps[a] ?? '') && !SYMBOL.test(cps[a] ?? '')) a++;
      while (b > a && !WORDY.test(cps[b - 1] ?? '') && !SYMBOL.test(cps[b - 1] ?? '')) b--;
      words.push({ textPosition: a + 1, wordLength: b - a });
    }
    i = j;
  }
  return words;
}

function phonemize(seq: number, text: string, voice: string): WorkerResponse {
  resetFor(voice, text);
  loadVoice(voice, true, text);
  const traced = TRACED_LANGUAGES.has((voice.split(/[-+_]/u)[0] ?? '').toLowerCase());
  const cps = Array.from(text);
  const clauses: PhonemeClause[] = [];
  for (const span of splitClauses(cps)) {
    let first = span.start;
    while (first < span.end && SPACE.test(cps[first] ?? '')) first++;
    let last = span.end;
    while (last > first && SPACE.test(cps[last - 1] ?? '')) last--;
    const spoken = cps.slice(first, last).join('');
    const words = phonemeWords(clausePhonemes(spoken, traced));
    if (words.length === 0) continue;
    const inText = textWords(cps, first, last);
    if (inText.length !== words.length) {
      // eSpeak merged or split words: its reading of each one on its own places them. One
      // call for all (a blank line between words makes each its own clause), else one each.
      const alone = inText.map((w) =>
        cps.slice(w.textPosition - 1, w.textPosition - 1 + w.wordLength).join(''),
      );
      readPhonemeInput();
      let readings = espeak.textToPhonemes(alone.join('\n\n')).split(' | ');
      if (readings.length !== alone.length) readings = alone.map((clause) => espeak.textToPhonemes(clause));
      inText.forEach((word, k) => {
        word.phonemes = phonemeWords(readings[k] ?? '')
          .map((units) => units.join(''))
          .join(' ');
      });
    }
    clauses.push({
      textPosition: first + 1,
      textLength: last - first,
      words,
      textWords: inText,
      punctuation: span.punctuation,
      terminator: span.terminator,
      endsSentence: span.endsSentence,
    });
  }
  return { seq, type: 'phonemes', clauses };
}

function handle(request: WorkerRequest): WorkerResponse {
  switch (request.type) {
    case 'synthesize':
      return synthesize(request.seq, request.text, request.settings);
    case 'phonemize':
      return phonemize(request.seq, request.text, request.voice);
    default:
      return assertNever(request);
  }
}

async function start(): Promise<void> {
  try {
    espeak = await loadEspeakNg();
    // The first synthesis of an instance is ~30× slower than the rest (eSpeak loads its
    // dictionary, V8 compiles on): pay it now rather than on the first request. It also turns
    // on eSpeak's reading of phonemes in "[[ ]]" (the lexicon's IPA entries), which its
    // text-to-phonemes call alone leaves off: it must come before the first `textToPhonemes`.
    synthesize(0, 'Ready.', WARM_UP);
    espeak.textToPhonemes('Ready.');
    // Back to the warm-up voice and settings, which `resetEngine` says are loaded.
    applySettings(WARM_UP, 'Ready.');
    touchedEnd = espeak.heapEnd();
    pristine = snapshot(espeak.memory(), touchedEnd);
    port.postMessage({ type: 'ready', sampleRate: espeak.sampleRate } satisfies WorkerReady);
  } catch (error) {
    port.postMessage({ type: 'failed', message: String(error) } satisfies WorkerReady);
    return;
  }
  port.on('message', (request: WorkerRequest) => {
    let response: WorkerResponse;
    try {
      response = handle(request);
    } catch (error) {
      response = { seq: request.seq, type: 'error', error: toWireError(error, 'ENGINE_FAILED') };
    }
    port.postMessage(response, response.type === 'result' ? [response.pcm] : []);
  });
}

void start();
