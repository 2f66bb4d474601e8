// @ts-check
/**
 * package.json "prepare" (run by `npm install` and `npm ci` in a clone): builds the CLI
 * (dist/cli, package.json "bin") and the studio UI (dist/renderer, when its sources changed).
 * It never fails the install: a step that cannot run says why, and the first
 * `npm run say|serve|keys|voices` builds what is missing (electron/launch/cli.mjs).
 */

import process from 'node:process';

/** @param {unknown} error */
const reason = (error) => (error instanceof Error ? error.message : String(error));

/** @type {typeof import('./build') | undefined} */
let build;
try {
  const { tsImport } = await import('tsx/esm/api');
  build = await tsImport('./build.ts', import.meta.url);
} catch (error) {
  process.stderr.write(
    `narration-studio: the build cannot run here (${reason(error)}); \`npm run say\` and \`npm run serve\` build on first use.\n`,
  );
}
if (build) {
  try {
    await build.buildCli();
  } catch (error) {
    process.stderr.write(
      `narration-studio: building the CLI failed (${reason(error)}); \`npm run say\` builds it on first use.\n`,
    );
  }
  try {
    build.buildUiIfStale();
  } catch (error) {
    process.stderr.write(
      `narration-studio: building the studio UI failed (${reason(error)}); \`npm run serve\` builds it on first use.\n`,
    );
  }
}
