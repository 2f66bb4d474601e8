/** Types of freshness.mjs (plain JavaScript, so the CLI launcher needs no TypeScript loader). */

export declare const CLI_ENTRY: 'dist/cli/narration-studio.js';
export declare const CLI_SOURCES: readonly string[];
export declare const UI_SOURCES: readonly string[];
export declare const UI_INDEX: 'dist/renderer/index.html';
/** True when the output is missing or older than the newest input. */
export declare function isStale(outputMtimeMs: number | undefined, inputMtimesMs: Iterable<number>): boolean;
/** Modification times of a file, or of every file under a folder (node_modules skipped). */
export declare function mtimes(path: string): Generator<number>;
/** True when `output` (relative to `root`) is missing or older than a file of `sources`. */
export declare function isOutputStale(root: string, output: string, sources: readonly string[]): boolean;
