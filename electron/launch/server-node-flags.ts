/**
 * The Node flags a long-running server process starts with: package.json's "serve" and "start"
 * scripts pass them to `node` and `tsx`, and the benchmarks start their servers with them, so
 * what is measured is what runs. Node reads them only as a process starts; a server started as
 * `node dist/cli/narration-studio.js serve` should be given them too (docs/USER-GUIDE.md).
 *
 * `--v8-pool-size=1`: Node starts four V8 background threads whatever the machine. On two cores
 * they compete with the event loop and the render threads, and the compiles they run at start
 * (SQLite's WebAssembly among them) leave their freed memory in one malloc arena each. With one,
 * measured side by side on the 2-core machine (docs/BENCHMARKS.md, Footprint): `serve` idle
 * 4 s after start 137–138 MB against 155–174 MB, and submits under load no slower.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--v8-pool-size=1'];
