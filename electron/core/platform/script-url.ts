/**
 * Where the script of a worker thread or a child process is: `name` beside the module that starts
 * it, TypeScript when that module runs from the sources (tsx, vitest) and JavaScript when it is
 * built (electron/launch/build.ts writes every worker and child beside the bundle). The eSpeak and
 * engine-host workers, the resampling worker, and the manuscript and project-archive readers
 * ask here when they start one.
 *
 * `runBuiltScripts(dir)` names the built scripts in `dir` instead, for every start after it. The
 * tests use it (test/fixtures/compiled-cli-setup.ts): a process that runs the core from its
 * sources then starts the same compiled workers and children a user's app starts, at half the CPU
 * of compiling them again through tsx each time (an eSpeak worker ≈ 0.47 s instead of 0.92 s).
 */

let builtScripts: URL | undefined;

/** The script `name` (without extension) beside the module at `moduleUrl` (its import.meta.url). */
export function scriptBeside(name: string, moduleUrl: string): URL {
  if (builtScripts) return new URL(`./${name}.js`, builtScripts);
  return new URL(moduleUrl.endsWith('.ts') ? `./${name}.ts` : `./${name}.js`, moduleUrl);
}

/** From now on, the built scripts in the folder `dir` (undefined: beside each module again). */
export function runBuiltScripts(dir: URL | undefined): void {
  builtScripts = dir && !dir.href.endsWith('/') ? new URL(`${dir.href}/`) : dir;
}
