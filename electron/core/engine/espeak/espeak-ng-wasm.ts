/**
 * eSpeak NG as WebAssembly: the engine's eSpeak (its worker loads one per thread).
 *
 * native/espeak-ng/ holds the build: eSpeak NG's C sources with our bindings
 * (narration-espeak.c) compiled by Emscripten (build.sh), and Emscripten's loader for it. Its
 * data files are those of the npm package @echogarden/espeak-ng-emscripten, whose wasm2js build
 * of the same sources this build replaced: the two speak alike, sample for sample
 * (test/core/engine/espeak/espeak-ng-wasm.test.ts). WebAssembly is compiled in milliseconds
 * and runs at full speed from its first call, where the wasm2js build's 840 KB of JavaScript took
 * ~210 ms to load and warm up (docs/BENCHMARKS.md).
 *
 * Strings go in as UTF-8 copies malloc'd for the call and freed after it, so no pointer outlives
 * a call (the worker restores the module's memory between requests).
 */

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** eSpeak's event types (espeak_EVENT_TYPE) that the engine reads. */
export const EVENT_WORD = 1;
export const EVENT_SENTENCE = 2;

/** eSpeak's parameters the bindings store for the next synthesis (ns_set_parameter). */
export const PARAMETER = { rate: 0, volume: 1, pitch: 2, range: 3 } as const;
export type Parameter = (typeof PARAMETER)[keyof typeof PARAMETER];

export interface EspeakEvent {
  type: number;
  /** Characters from the start of the text, from 1. */
  textPosition: number;
  length: number;
  /** Milliseconds from the start of the audio. */
  audioMs: number;
}

export interface EspeakVoice {
  identifier: string;
  languages: Array<{ priority: number; name: string }>;
}

export interface EspeakNg {
  /** Hz of the audio. */
  readonly sampleRate: number;
  /** 0 when loaded; otherwise eSpeak keeps the voice it had. */
  setVoiceByName(name: string): number;
  /** The voice eSpeak picks for a language code; 0 when loaded. */
  setVoiceByLanguage(language: string): number;
  /** Stored in the module's memory; the next `synthesize` applies it. */
  setParameter(which: Parameter, value: number): void;
  /** Speaks `text` (UTF-8, SSML, `[[phonemes]]`): 16-bit mono samples and eSpeak's events. */
  synthesize(text: string): { samples: Int16Array<ArrayBuffer>; events: EspeakEvent[] };
  /**
   * eSpeak's phoneme trace while it speaks `text` (`espeak-ng -x --ipa`): IPA phonemes joined by
   * `_`, words by spaces, a line per clause; undefined if eSpeak could not write it. No audio.
   */
  phonemeTrace(text: string): string | undefined;
  /** `espeak_TextToPhonemes` over every clause: IPA joined by `_`, clauses by " | ". */
  textToPhonemes(text: string): string;
  listVoices(): EspeakVoice[];
  /** The module's memory now (a new view after it grew). */
  memory(): Uint8Array;
  /** Where the memory malloc has taken so far ends: above it the memory is unused. */
  heapEnd(): number;
}

/** What Emscripten's loader (native/espeak-ng/espeak-ng.cjs) gives: the bindings and its runtime. */
interface EmscriptenModule {
  HEAPU8: Uint8Array;
  FS: {
    mkdirTree(path: string): void;
    createDataFile(
      parent: string,
      name: string,
      data: Uint8Array,
      canRead: boolean,
      canWrite: boolean,
      canOwn: boolean,
    ): void;
  };
  stringToUTF8(text: string, pointer: number, maxBytes: number): void;
  lengthBytesUTF8(text: string): number;
  UTF8ToString(pointer: number): string;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  _ns_initialize(): number;
  _ns_set_voice_by_name(name: number): number;
  _ns_set_voice_by_language(language: number): number;
  _ns_set_parameter(which: number, value: number): void;
  _ns_synthesize(text: number): number;
  _ns_heap_end(): number;
  _ns_samples(): number;
  _ns_sample_count(): number;
  _ns_events(): number;
  _ns_event_count(): number;
  _ns_phoneme_trace(text: number): number;
  _ns_text_to_phonemes(text: number, ipa: number): number;
  _ns_list_voices(): number;
}

/**
 * The build's folder: beside the bundle once built (electron/launch/build.ts copies it there). A
 * path, not a URL: Electron reads a file inside its app.asar only by path.
 */
function buildFolder(): string {
  return fileURLToPath(
    import.meta.url.endsWith('.ts')
      ? new URL('../../../../native/espeak-ng/', import.meta.url)
      : new URL('./', import.meta.url),
  );
}

/** Puts the package's data files where eSpeak reads them (PATH_ESPEAK_DATA), without copying. */
function mountData(module: EmscriptenModule, require: NodeJS.Require, folder: string): void {
  const data = readFileSync(require.resolve('@echogarden/espeak-ng-emscripten/espeak-ng.data'));
  const table = JSON.parse(readFileSync(join(folder, 'espeak-ng-data-files.json'), 'utf8')) as Array<
    [path: string, start: number, end: number]
  >;
  const folders = new Set<string>();
  for (const [path, start, end] of table) {
    const cut = path.lastIndexOf('/');
    const parent = path.slice(0, cut);
    if (!folders.has(parent)) {
      module.FS.mkdirTree(parent);
      folders.add(parent);
    }
    module.FS.createDataFile(parent, path.slice(cut + 1), data.subarray(start, end), true, false, true);
  }
}

/**
 * Runs `create` with the clock at 0. eSpeak reads the clock once, when it starts, to seed its
 * random numbers (measured: a "+f3" voice spoke a sentence differently in each process until
 * then): with a fixed seed every instance, in every process, speaks it the same way.
 */
export function seededAtZero<T>(create: () => T): T {
  const now = Date.now;
  Date.now = () => 0;
  try {
    return create();
  } finally {
    Date.now = now;
  }
}

/** Loads a new instance: each call is a module of its own, with its own memory. */
export async function loadEspeakNg(): Promise<EspeakNg> {
  const folder = buildFolder();
  const require = createRequire(import.meta.url);
  const load = require(join(folder, 'espeak-ng.cjs')) as (options: {
    wasmBinary: Uint8Array;
  }) => Promise<EmscriptenModule>;
  const module = await load({ wasmBinary: readFileSync(join(folder, 'espeak-ng.wasm')) });
  mountData(module, require, folder);
  const sampleRate = seededAtZero(() => module._ns_initialize());
  if (sampleRate <= 0) throw new Error(`eSpeak NG could not start (${sampleRate})`);
  return bindings(module, sampleRate);
}

function bindings(module: EmscriptenModule, sampleRate: number): EspeakNg {
  /** Calls `call` with `text` as a NUL-terminated UTF-8 copy in the module's memory. */
  const withString = <T>(text: string, call: (pointer: number) => T): T => {
    const bytes = module.lengthBytesUTF8(text) + 1;
    const pointer = module._malloc(bytes);
    if (pointer === 0) throw new Error('eSpeak NG is out of memory');
    try {
      module.stringToUTF8(text, pointer, bytes);
      return call(pointer);
    } finally {
      module._free(pointer);
    }
  };
  /** A string the bindings malloc'd, read and freed. */
  const takeString = (pointer: number): string | undefined => {
    if (pointer === 0) return undefined;
    const text = module.UTF8ToString(pointer);
    module._free(pointer);
    return text;
  };
  return {
    sampleRate,
    setVoiceByName: (name) => withString(name, (p) => module._ns_set_voice_by_name(p)),
    setVoiceByLanguage: (language) => withString(language, (p) => module._ns_set_voice_by_language(p)),
    setParameter: (which, value) => module._ns_set_parameter(which, value),
    synthesize(text) {
      withString(text, (p) => module._ns_synthesize(p));
      const heap = module.HEAPU8.buffer;
      const samples = new Int16Array(heap, module._ns_samples(), module._ns_sample_count()).slice();
      const ints = new Int32Array(heap, module._ns_events(), module._ns_event_count() * 4);
      const events: EspeakEvent[] = [];
      for (let at = 0; at < ints.length; at += 4) {
        events.push({
          type: ints[at]!,
          textPosition: ints[at + 1]!,
          length: ints[at + 2]!,
          audioMs: ints[at + 3]!,
        });
      }
      return { samples, events };
    },
    phonemeTrace: (text) => takeString(withString(text, (p) => module._ns_phoneme_trace(p))),
    textToPhonemes: (text) => takeString(withString(text, (p) => module._ns_text_to_phonemes(p, 1))) ?? '',
    listVoices: () =>
      (takeString(module._ns_list_voices()) ?? '')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => {
          const [identifier = '', ...languages] = line.split('\t');
          return {
            identifier,
            languages: languages.map((entry) => {
              const space = entry.indexOf(' ');
              return { priority: Number(entry.slice(0, space)), name: entry.slice(space + 1) };
            }),
          };
        }),
    memory: () => module.HEAPU8,
    heapEnd: () => module._ns_heap_end(),
  };
}
