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

import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
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
  /**
   * 0 when loaded; otherwise eSpeak keeps the voice it had. `byFile`: asks for the voice by its
   * file's path where the name names one file (`VoiceFileIndex`), which loads it without eSpeak's
   * list of voices. The same voice, speaking alike sample for sample; but eSpeak keeps the name it
   * was asked for, and SSML that closes a `<voice>` chooses the voice to go back to by it
   * ("en-us" goes back to British English, its path to American: measured against the wasm2js
   * build), so a text with SSML must be spoken after a voice set by its name.
   */
  setVoiceByName(name: string, options?: { byFile?: boolean }): number;
  /** Whether `setVoiceByName(name, { byFile: true })` loads the voice without eSpeak's list of voices. */
  loadsVoiceDirectly(name: string): boolean;
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

/** The byte range of one file in the package's data bundle. */
type DataFile = [path: string, start: number, end: number];

/** Reads `files`' bytes from the bundle at `bundle` (each range alone: the bundle is 24 MB, a worker needs ~1). */
function readRanges(bundle: string, files: readonly DataFile[]): Uint8Array[] {
  const fd = openSync(bundle, 'r');
  try {
    return files.map(([, start, end]) => {
      const bytes = new Uint8Array(end - start);
      readSync(fd, bytes, 0, bytes.length, start);
      return bytes;
    });
  } finally {
    closeSync(fd);
  }
}

/**
 * The dictionaries a voice file's name or language needs: its `dictionary` line, else its first
 * language before a "-" (as eSpeak names it: "en-us" reads en_dict, "vi-vn-x-central" vi_dict).
 */
function dictionariesByVoice(voiceFiles: ReadonlyMap<string, string>): Map<string, Set<string>> {
  const index = new Map<string, Set<string>>();
  for (const [path, text] of voiceFiles) {
    const languages = [...text.matchAll(/^language[ \t]+(\S+)/gmu)].map((m) =>
      (m[1] as string).toLowerCase(),
    );
    const dictionary = /^dictionary[ \t]+(\S+)/mu.exec(text)?.[1] ?? languages[0]?.split('-')[0];
    if (!dictionary) continue;
    for (const key of [path.slice(path.lastIndexOf('/') + 1).toLowerCase(), ...languages]) {
      let set = index.get(key);
      if (!set) index.set(key, (set = new Set()));
      set.add(dictionary);
    }
  }
  return index;
}

/** Where eSpeak's language voice files are, in the module's file system. */
const LANG_FOLDER = '/usr/share/espeak-ng-data/lang/';

/**
 * Where a data file is put: a language voice file under its name in lower case ("gmw/en-US" as
 * "gmw/en-us"), so that eSpeak finds it by the name it is asked for, which it lower-cases, without
 * reading all 140 of them (`VoiceFileIndex`). No two of them differ only in case (tested).
 */
function mountedPath(path: string): string {
  return path.startsWith(LANG_FOLDER) ? path.toLowerCase() : path;
}

/**
 * The language voice files, for loading one by its name without eSpeak's list of voices. Asked
 * for "en-us", `espeak_SetVoiceByName` first looks for a file of that name directly in lang/ (it
 * has none: the file is gmw/en-US) and then reads every voice file to make its list (~75 ms of a
 * worker's start, on a `say`'s path) to pick, from it, the voice whose "name" line is the name
 * asked for, else whose identifier is, else whose identifier ends in "/" and the name. Where that
 * choice is one file and no "name" line is the name, the index gives the file's path to ask for
 * instead: eSpeak loads it directly, the same voice, sample for sample (tested).
 */
interface VoiceFileIndex {
  /** The name to ask eSpeak for: the voice file's lower-cased identifier and any "+variant", or `name` itself. */
  direct(name: string): string;
  /** Whether eSpeak loads `name` without making its list of voices. */
  loadsDirectly(name: string): boolean;
  /** The identifier as the package names the file ("gmw/en-US") for the mounted one ("gmw/en-us"). */
  identifier(mounted: string): string;
}

function voiceFileIndex(voiceFiles: ReadonlyMap<string, string>): VoiceFileIndex {
  const identifiers = new Map<string, string>();
  const byLastPart = new Map<string, string | null>();
  const names = new Set<string>();
  for (const [path, text] of voiceFiles) {
    const identifier = path.slice(LANG_FOLDER.length);
    const key = identifier.toLowerCase();
    identifiers.set(key, identifier);
    const last = key.slice(key.lastIndexOf('/') + 1);
    byLastPart.set(last, byLastPart.has(last) ? null : key);
    const name = /^name[ \t]+(.*)$/mu.exec(text)?.[1]?.trim();
    if (name) names.add(name.toLowerCase());
  }
  /**
   * The mounted identifier eSpeak loads for `base` (no variant) without its list: a file directly
   * in lang/ of that name ("eu"), else the one file its list would give when no "name" line is it.
   */
  const resolve = (base: string): string | undefined => {
    const key = base.toLowerCase();
    if (identifiers.has(key) && !key.includes('/')) return key;
    // eSpeak compares at most 39 bytes of a name; a voice's "name" line wins over any file.
    if (key === '' || Buffer.byteLength(key) > 38 || names.has(key)) return undefined;
    if (identifiers.has(key)) return key;
    return byLastPart.get(key) ?? undefined;
  };
  const split = (name: string): [string, string] => {
    const plus = name.indexOf('+');
    return plus < 0 ? [name, ''] : [name.slice(0, plus), name.slice(plus)];
  };
  return {
    direct(name) {
      const [base, variant] = split(name);
      const found = resolve(base);
      return found === undefined ? name : `${found}${variant}`;
    },
    loadsDirectly: (name) => resolve(split(name)[0]) !== undefined,
    identifier: (mounted) => identifiers.get(mounted) ?? mounted,
  };
}

/**
 * Puts the package's data files where eSpeak reads them (PATH_ESPEAK_DATA): all but the
 * dictionaries at once (736 KB), and a language's dictionary when a voice of it is first set
 * (`ensure`); the 117 dictionaries are 23 MB, of which a render reads one or two.
 */
function mountData(
  module: EmscriptenModule,
  require: NodeJS.Require,
  folder: string,
): { voices: VoiceFileIndex; ensure(voice: string): void; ensureAll(): boolean; complete(): boolean } {
  const bundle = require.resolve('@echogarden/espeak-ng-emscripten/espeak-ng.data');
  const table = JSON.parse(readFileSync(join(folder, 'espeak-ng-data-files.json'), 'utf8')) as DataFile[];
  const folders = new Set<string>();
  const mount = (files: readonly DataFile[]): Uint8Array[] => {
    const contents = readRanges(bundle, files);
    contents.forEach((bytes, i) => {
      const path = mountedPath((files[i] as DataFile)[0]);
      const cut = path.lastIndexOf('/');
      const parent = path.slice(0, cut);
      if (!folders.has(parent)) {
        module.FS.mkdirTree(parent);
        folders.add(parent);
      }
      module.FS.createDataFile(parent, path.slice(cut + 1), bytes, true, false, true);
    });
    return contents;
  };
  const dictionaries = new Map<string, DataFile>();
  const rest: DataFile[] = [];
  for (const file of table) {
    const name = /\/([^/]+)_dict$/u.exec(file[0])?.[1];
    if (name) dictionaries.set(name, file);
    else rest.push(file);
  }
  const decoder = new TextDecoder();
  const voiceFiles = new Map<string, string>();
  mount(rest).forEach((bytes, i) => {
    const path = (rest[i] as DataFile)[0];
    if (path.startsWith(LANG_FOLDER)) voiceFiles.set(path, decoder.decode(bytes));
  });
  const byVoice = dictionariesByVoice(voiceFiles);
  const voices = voiceFileIndex(voiceFiles);
  const mountDictionaries = (names: Iterable<string>): void => {
    const files: DataFile[] = [];
    for (const name of names) {
      const file = dictionaries.get(name);
      if (file) files.push(file);
      dictionaries.delete(name);
    }
    mount(files);
  };
  // eSpeak starts with English.
  mountDictionaries(['en']);
  return {
    voices,
    ensure: (voice) => mountDictionaries(byVoice.get((voice.split('+')[0] ?? '').toLowerCase()) ?? []),
    /** Every dictionary is mounted. */
    complete: () => dictionaries.size === 0,
    // A voice whose dictionary the index did not name: every dictionary left, once.
    ensureAll() {
      if (dictionaries.size === 0) return false;
      mountDictionaries([...dictionaries.keys()]);
      return true;
    },
  };
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
  const data = mountData(module, require, folder);
  const sampleRate = seededAtZero(() => module._ns_initialize());
  if (sampleRate <= 0) throw new Error(`eSpeak NG could not start (${sampleRate})`);
  return bindings(module, sampleRate, data);
}

/** A letter of a script other than Latin (Vietnamese included), for which eSpeak may switch language. */
const OTHER_SCRIPT = /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u;
/** Scripts and the language whose dictionary eSpeak may read their letters with (its alphabets' languages). */
const SCRIPT_LANGUAGES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\p{Script=Han}/u, 'cmn'],
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, 'ja'],
  [/\p{Script=Hangul}/u, 'ko'],
  [/\p{Script=Cyrillic}/u, 'ru'],
  [/\p{Script=Greek}/u, 'el'],
];
/** Any letter of those scripts. */
const KNOWN_SCRIPTS = new RegExp(SCRIPT_LANGUAGES.map(([script]) => script.source).join('|'), 'gu');
/** SSML that names a language or a voice ("xml:lang", "<voice"). */
const SSML_LANGUAGE = /xml:lang|<voice|<lang/iu;

function bindings(
  module: EmscriptenModule,
  sampleRate: number,
  data: ReturnType<typeof mountData>,
): EspeakNg {
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
  /**
   * A text eSpeak may read in another language: letters of another script (eSpeak switches to
   * that script's language, Cyrillic to Russian) or SSML naming a language. Every dictionary is
   * mounted before it, once; Latin text needs only the voice's.
   */
  const forText = (text: string): string => {
    if (data.complete()) return text;
    if (SSML_LANGUAGE.test(text)) data.ensureAll();
    else if (OTHER_SCRIPT.test(text)) {
      // A script beyond those named, every dictionary; else the named scripts' languages.
      if (OTHER_SCRIPT.test(text.replace(KNOWN_SCRIPTS, ''))) data.ensureAll();
      else for (const [script, language] of SCRIPT_LANGUAGES) if (script.test(text)) data.ensure(language);
    }
    return text;
  };
  /** Sets a voice with its dictionary mounted first; failing, once more with every dictionary. */
  const withDictionary = (voice: string, set: () => number): number => {
    data.ensure(voice);
    const code = set();
    return code !== 0 && data.ensureAll() ? set() : code;
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
    setVoiceByName: (name, options = {}) =>
      withDictionary(name, () =>
        withString(options.byFile ? data.voices.direct(name) : name, (p) => module._ns_set_voice_by_name(p)),
      ),
    loadsVoiceDirectly: (name) => data.voices.loadsDirectly(name),
    setVoiceByLanguage: (language) =>
      withDictionary(language, () => withString(language, (p) => module._ns_set_voice_by_language(p))),
    setParameter: (which, value) => module._ns_set_parameter(which, value),
    synthesize(text) {
      withString(forText(text), (p) => module._ns_synthesize(p));
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
    phonemeTrace: (text) => takeString(withString(forText(text), (p) => module._ns_phoneme_trace(p))),
    textToPhonemes: (text) =>
      takeString(withString(forText(text), (p) => module._ns_text_to_phonemes(p, 1))) ?? '',
    listVoices: () =>
      (takeString(module._ns_list_voices()) ?? '')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => {
          const [identifier = '', ...languages] = line.split('\t');
          return {
            identifier: data.voices.identifier(identifier),
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
