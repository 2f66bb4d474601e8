/**
 * The part of the WebAssembly JavaScript API the engine uses (entry-checksum.ts, peak-scan.ts,
 * mp3.ts). Node has the global; @types/node 20 does not type it, and core is type-checked
 * without the browser's DOM library (electron/tsconfig.json), which is where TypeScript keeps it.
 * These declarations merge into that namespace wherever both are loaded.
 */
declare namespace WebAssembly {
  class Module {
    constructor(bytes: ArrayBufferView | ArrayBuffer);
  }
  class Instance {
    constructor(module: Module, importObject?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    readonly buffer: ArrayBuffer;
  }
  function compile(bytes: ArrayBufferView | ArrayBuffer): Promise<Module>;
}
