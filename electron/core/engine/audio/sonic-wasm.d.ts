// The package ships JavaScript only (Sonic compiled to WASM by Emscripten); this is the part of
// its API the engine uses (audio/pitch-shift.ts). Pointers are byte offsets into the heap; read
// the HEAP views after every call, as they are replaced when the heap grows.
declare module '@echogarden/sonic-wasm' {
  export interface SonicModule {
    HEAPF32: Float32Array;
    _malloc(bytes: number): number;
    _free(ptr: number): void;
    /** Returns 0 when out of memory. */
    _sonicCreateStream(sampleRate: number, numChannels: number): number;
    _sonicDestroyStream(stream: number): void;
    /** Time-stretch factor: 2 plays twice as fast, pitch kept. */
    _sonicSetSpeed(stream: number, speed: number): void;
    /** Returns 0 when the stream could not grow its buffers. */
    _sonicWriteFloatToStream(stream: number, samples: number, numSamples: number): number;
    /** Returns the number of samples read (at most maxSamples). */
    _sonicReadFloatFromStream(stream: number, samples: number, maxSamples: number): number;
    /** Processes what is buffered so it can be read, as if the input ended here. */
    _sonicFlushStream(stream: number): number;
  }
  const load: (moduleArg?: object) => Promise<SonicModule>;
  export default load;
}
