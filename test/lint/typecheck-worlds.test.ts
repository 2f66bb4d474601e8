/**
 * Separate worlds: the repository's own tsconfigs (renderer/tsconfig.json, electron/tsconfig.json,
 * electron/shared/tsconfig.json, the ones `npm run typecheck` builds) type-check a probe file as
 * if it lived in each world, beside that world's real files: the renderer has the browser's
 * globals and not Node's, core has Node's and not the browser's, shared code has neither. The
 * probe is virtual (served by the compiler host, never written); the other files of the program
 * are the config's own, so a package typing that pulled Node's globals into the renderer would
 * show here. Only the probe is checked (the rest is parsed and bound), which keeps this quick.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** One use of a global per line, so a diagnostic's line says which global it is about. */
const PROBE_LINES = {
  Buffer: "export const buffer = Buffer.from('x');",
  process: 'export const env = process.env;',
  document: 'export const title = document.title;',
  window: 'export const width = window.innerWidth;',
  // ES2023 itself: present in every world.
  es2023: 'export const last = [1, 2].findLast((n) => n > 0);',
} as const;
type Global = keyof typeof PROBE_LINES;
const PROBE = Object.values(PROBE_LINES).join('\n');

/** The globals whose line has an error when the probe is checked at `probePath` with `config`. */
function undefinedGlobals(config: string, probePath: string): Global[] {
  const configPath = join(root, config);
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`${config} could not be read`);
  expect(parsed.errors).toEqual([]);
  const probe = join(root, probePath);
  // The probe sits among files the config really checks.
  expect(parsed.fileNames.some((name) => dirname(name) === dirname(probe))).toBe(true);
  // Without project references: the program reads the sources the world imports, so no build
  // output (.tsbuild) is needed.
  const options: ts.CompilerOptions = {
    ...parsed.options,
    composite: false,
    incremental: false,
    declaration: false,
    emitDeclarationOnly: false,
    noEmit: true,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.getSourceFile = (fileName, language, ...rest) =>
    fileName === probe
      ? ts.createSourceFile(fileName, PROBE, language)
      : getSourceFile(fileName, language, ...rest);
  host.fileExists = (fileName) => fileName === probe || fileExists(fileName);
  const program = ts.createProgram({ rootNames: [...parsed.fileNames, probe], options, host });
  const file = program.getSourceFile(probe);
  if (!file) throw new Error('the probe is not in the program');
  const diagnostics = [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)];
  const lines = new Set(diagnostics.map((d) => file.getLineAndCharacterOfPosition(d.start ?? 0).line));
  // Each error is about the global of its line, not something else wrong in the probe.
  for (const d of diagnostics) {
    const line = file.getLineAndCharacterOfPosition(d.start ?? 0).line;
    const global = Object.keys(PROBE_LINES)[line] as Global;
    expect(ts.flattenDiagnosticMessageText(d.messageText, '\n')).toContain(`'${global}'`);
  }
  return (Object.keys(PROBE_LINES) as Global[]).filter((_, line) => lines.has(line));
}

describe('each world is type-checked with its own globals (npm run typecheck)', () => {
  it('the renderer has the browser and not Node: Buffer and process do not compile', () => {
    expect(undefinedGlobals('renderer/tsconfig.json', 'renderer/src/world-probe.ts')).toEqual([
      'Buffer',
      'process',
    ]);
  });

  it('core has Node and not the browser: document and window do not compile', () => {
    expect(undefinedGlobals('electron/tsconfig.json', 'electron/core/world-probe.ts')).toEqual([
      'document',
      'window',
    ]);
  });

  it('shared code has neither side: none of the four compiles', () => {
    expect(undefinedGlobals('electron/shared/tsconfig.json', 'electron/shared/world-probe.ts')).toEqual([
      'Buffer',
      'process',
      'document',
      'window',
    ]);
  });
});
