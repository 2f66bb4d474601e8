// The package ships JavaScript only; this is the part of its API the tests use (the engine runs
// native/espeak-ng's build of the same sources, engine/espeak/espeak-ng-wasm.ts, and reads this
// package's data file).
declare module '@echogarden/espeak-ng-emscripten' {
  export interface EspeakEvent {
    type:
      | 'word'
      | 'sentence'
      | 'phoneme'
      | 'mark'
      | 'end'
      | 'play'
      | 'msg_terminated'
      | 'samplerate'
      | 'list_terminated';
    text_position: number;
    word_length: number;
    audio_position: number;
    id?: string | number;
  }
  export interface ESpeakNGWorker {
    set_voice(name: string, language?: string, gender?: number): number;
    set_rate(wpm: number): number;
    set_pitch(pitch: number): number;
    set_range(range: number): number;
    set_volume(volume: number): number;
    get_samplerate(): number;
    synthesize(text: string, callback: (samples: Int16Array, events: EspeakEvent[]) => number): void;
    synthesize_ipa(text: string): { code: number; ipa: string };
    list_voices(
      type?: string,
    ): Array<{ name: string; identifier: string; languages: Array<{ priority: number; name: string }> }>;
    /** A pointer to a NUL-terminated UTF-8 string in HEAPU8; the caller frees it (`_free`). */
    convert_to_phonemes(text: string, useIpa: boolean): { ptr: number };
  }
  export interface ESpeakModule {
    eSpeakNGWorker: new () => ESpeakNGWorker;
    /** The module's heap; replaced when it grows, so read it after each call. */
    HEAPU8: Uint8Array;
    _free(ptr: number): void;
  }
  const load: () => Promise<ESpeakModule>;
  export default load;
}
