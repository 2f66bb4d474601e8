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

interface EspeakEvent {
  type: string;
  text_position: number;
  word_length: number;
  audio_position: number;
}

interface EspeakInstance {
  /** 0 on success; 2 when not found, and then eSpeak keeps the previous voice. */
  set_voice(name: string, language?: string): number;
  set_rate(wpm: number): number;
  set_pitch(pitch: number): number;
  set_range(range: number): number;
  set_volume(volume: number): number;
  get_samplerate(): number;
  synthesize(text: string, callback: (samples: Int16Array, events: EspeakEvent[]) => number): void;
  /**
   * The phonemes of every clause of `text` (eSpeak's `espeak_TextToPhonemes` in a loop):
   * phonemes joined by `_`, words by spaces, clauses by " | ". Returns a pointer to a
   * NUL-terminated UTF-8 string in the module's heap, allocated with `new[]`; the caller frees it.
   */
  convert_to_phonemes(text: string, useIpa: boolean): { ptr: number };
  /**
   * Speaks `text` with eSpeak's phoneme trace on (`espeak_SetPhonemeTrace` + `espeak_Synth`, as
   * `espeak-ng -x --ipa` does) and returns the trace: phonemes joined by `_`, words by spaces,
   * one line per clause. `code` is 0 on success. The audio is discarded.
   */
  synthesize_ipa(text: string): { code: number; ipa: string };
  list_voices(): Array<{ identifier: string; languages: Array<{ name: string }> }>;
}

interface EspeakModule {
  eSpeakNGWorker: new () => EspeakInstance;
  /** The module's heap; replaced when the heap grows, so read it after each call. */
  HEAPU8: Uint8Array;
  _free(ptr: number): void;
}

if (!parentPort) throw new Error('espeak-worker must run in a worker thread');
// Synthesis yields the CPU to the thread that answers requests (see thread-priority.ts).
lowerThreadPriority();
const port = parentPort;

let espeak: EspeakModule;
let instance: EspeakInstance;
const WARM_UP: EngineSettings = { voice: 'en-us', rate: 175, pitch: 50, range: 50, volume: 60 };
/** Settings last applied for synthesis; undefined after a voice change (all are applied again). */
let current: EngineSettings | undefined;
/** The voice eSpeak has loaded, by the name it was asked for. */
let loadedVoice: string | undefined;
let languages: Set<string> | undefined;
/**
 * The module's memory as it was once the engine was warmed up (see `resetEngine`): ~17 MB, the
 * price of output that depends on nothing but the request.
 */
let pristine: Uint8Array | undefined;
/** Pages compared and restored one at a time: a call dirties a handful of the module's ~260. */
const PAGE_BYTES = 65_536;
/**
 * Bytes of the bindings' string arena, reserved before the snapshot. The WebIDL bindings copy
 * each string argument into one buffer they malloc and remember in JavaScript, and grow it (free,
 * malloc) when a longer string comes: that pointer lives outside the memory `resetEngine`
 * restores, so a buffer grown after the snapshot would be handed out again by the restored
 * allocator, and eSpeak's data would overwrite it (seen in the load suite as "… is not a
 * function"). Reserved once at this size, it never moves: engine texts are at most a chunk's
 * 1,500 characters, a few times longer once numbers are spelled out, ≤ 4 bytes each.
 */
const STRING_ARENA_BYTES = 256 * 1024;

/**
 * Loads a voice by name. eSpeak keeps the previous voice when a name is unknown: never
 * speak or phonemise with the wrong one. Some language codes are no voice file's name
 * (`en-gb`, `fr-fr`, `zh`); with `byLanguage` such a name is looked up as a language that
 * some voice declares, and eSpeak picks that language's voice.
 */
function loadVoice(name: string, byLanguage: boolean): void {
  if (loadedVoice === name) return;
  let code = instance.set_voice(name);
  if (code !== 0 && byLanguage) {
    const language = (name.split('+')[0] ?? '').toLowerCase();
    languages ??= new Set(
      instance.list_voices().flatMap((v) => v.languages.map((l) => l.name.toLowerCase())),
    );
    if (language && languages.has(language)) code = instance.set_voice('', language);
  }
  if (code !== 0) throw new AppError('UNKNOWN_VOICE', `engine voice not found: ${name}`);
  loadedVoice = name;
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
 * (measured beside 45 ms of synthesis a sentence on a loaded machine). Memory the heap grew into
 * since is zeroed, as it was before it was used.
 */
function resetEngine(text: string): void {
  if (!pristine) return;
  // A string the arena cannot hold would be malloc'd beside it and freed at the next call: with
  // the memory restored in between, that free would corrupt the allocator. Such a worker stops
  // resetting (its output then depends on what it said before; no text of ours is that long).
  if (2 * Buffer.byteLength(text) + 1 >= STRING_ARENA_BYTES) {
    pristine = undefined;
    return;
  }
  const heap = espeak.HEAPU8;
  for (let at = 0; at < pristine.length; at += PAGE_BYTES) {
    const saved = pristine.subarray(at, at + PAGE_BYTES);
    const live = heap.subarray(at, at + PAGE_BYTES);
    if (Buffer.compare(live, saved) !== 0) live.set(saved);
  }
  if (heap.length > pristine.length) heap.fill(0, pristine.length);
  loadedVoice = WARM_UP.voice;
  current = { ...WARM_UP };
  phonemeInput = true;
}

function applySettings(settings: EngineSettings): void {
  loadVoice(settings.voice, false);
  if (current?.rate !== settings.rate) instance.set_rate(settings.rate);
  if (current?.pitch !== settings.pitch) instance.set_pitch(settings.pitch);
  if (current?.range !== settings.range) instance.set_range(settings.range);
  if (current?.volume !== settings.volume) instance.set_volume(settings.volume);
  current = { ...settings };
}

function synthesize(seq: number, text: string, settings: EngineSettings): WorkerResponse {
  resetEngine(text);
  applySettings(settings);
  const parts: Int16Array[] = [];
  let total = 0;
  const words: RawWordEvent[] = [];
  const sentenceMs: number[] = [];
  phonemeInput = true;
  instance.synthesize(text, (samples, events) => {
    if (samples.length > 0) {
      parts.push(samples);
      total += samples.length;
    }
    for (const e of events) {
      if (e.type === 'word') {
        words.push({ textPosition: e.text_position, wordLength: e.word_length, audioMs: e.audio_position });
      } else if (e.type === 'sentence') {
        sentenceMs.push(e.audio_position);
      }
    }
    return 0;
  });
  const pcm = new Int16Array(total);
  let offset = 0;
  for (const p of parts) {
    pcm.set(p, offset);
    offset += p.length;
  }
  return { seq, type: 'result', pcm: pcm.buffer, sampleRate: instance.get_samplerate(), words, sentenceMs };
}

// ---- phonemes ----------------------------------------------------------------------------

const decoder = new TextDecoder();

/** eSpeak's IPA for `text`, as its C string: phonemes joined by `_`, words by spaces, clauses by " | ". */
function textToPhonemes(text: string): string {
  const { ptr } = instance.convert_to_phonemes(text, true);
  const heap = espeak.HEAPU8;
  let end = ptr;
  while (end < heap.length && heap[end] !== 0) end++;
  const result = decoder.decode(heap.subarray(ptr, end));
  espeak._free(ptr);
  return result;
}

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
    instance.set_rate(TRACE_RATE);
    if (current) current = { ...current, rate: TRACE_RATE };
  }
  const { code, ipa } = instance.synthesize_ipa(text);
  phonemeInput = false;
  if (code !== 0) throw new AppError('ENGINE_FAILED', `eSpeak could not phonemise the text (code ${code})`);
  return ipa;
}

/** Turns eSpeak's reading of `[[ ]]` back on: any synthesis call does (it passes `espeakPHONEMES`). */
function readPhonemeInput(): void {
  if (phonemeInput) return;
  instance.synthesize('', () => 0);
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
  return textToPhonemes(text);
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
  resetEngine(text);
  loadVoice(voice, true);
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
      let readings = textToPhonemes(alone.join('\n\n')).split(' | ');
      if (readings.length !== alone.length) readings = alone.map(textToPhonemes);
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

/**
 * Runs `create` with the clock at 0. eSpeak reads the clock once, when an instance is created,
 * to seed its random numbers (measured: a "+f3" voice spoke a sentence differently in each
 * process until then): with a fixed seed every worker, in every process, speaks it the same way.
 */
function seededAtZero<T>(create: () => T): T {
  const now = Date.now;
  Date.now = () => 0;
  try {
    return create();
  } finally {
    Date.now = now;
  }
}

async function start(): Promise<void> {
  try {
    const { default: load } = (await import('@echogarden/espeak-ng-emscripten')) as unknown as {
      default: () => Promise<EspeakModule>;
    };
    espeak = await load();
    instance = seededAtZero(() => new espeak.eSpeakNGWorker());
    // Reserve the bindings' string arena (see STRING_ARENA_BYTES): a string of NULs that long
    // (eSpeak reads an empty name) makes the next call with a string grow it to that size.
    instance.set_voice('\u0000'.repeat(STRING_ARENA_BYTES));
    // The first synthesis of an instance is ~40× slower than the rest (JIT warm-up):
    // pay it now rather than on the first request. It also turns on eSpeak's reading of
    // phonemes in "[[ ]]" (the lexicon's IPA entries), which its text-to-phonemes call alone
    // leaves off: it must come before the first `textToPhonemes`.
    synthesize(0, 'Ready.', WARM_UP);
    textToPhonemes('Ready.');
    // Back to the warm-up voice and settings, which `resetEngine` says are loaded.
    applySettings(WARM_UP);
    pristine = espeak.HEAPU8.slice();
    port.postMessage({ type: 'ready', sampleRate: instance.get_samplerate() } satisfies WorkerReady);
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
