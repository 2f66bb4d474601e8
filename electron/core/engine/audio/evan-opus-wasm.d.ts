// @evan/opus's WASM build (libopus compiled with Emscripten, one instance per thread), which
// ships no typings; this is the part the Opus encoder uses (audio/opus-ogg.ts). `ctl` takes
// libopus's request numbers (opus_defines.h); `encode` returns a new array.
declare module '@evan/opus/wasm/index.js' {
  export class Encoder {
    constructor(options: {
      channels: 1 | 2;
      sample_rate: 8000 | 12000 | 16000 | 24000 | 48000;
      application: 'voip' | 'audio' | 'restricted_lowdelay';
    });
    /** A getter request with no argument returns its value; a setter throws on an error code. */
    ctl(request: number, value?: number): number;
    /** One frame of interleaved 16-bit PCM; the packet's bytes. */
    encode(pcm: Int16Array): Uint8Array;
    /** Frees the encoder's WASM memory at once (else when it is collected). */
    drop(): void;
  }
  const opus: { Encoder: typeof Encoder };
  export default opus;
}
