/**
 * The Windows installer's own script (assets/installer/vc-redist.nsh, electron-builder's
 * `nsis.include`): compiled by NSIS's makensis (Debian's `nsis`), warnings as errors, inside an
 * installer that calls its `customInit` from `.onInit` as electron-builder's template does.
 */

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../electron/launch/build';
import { VC_REDIST_URL } from '../../electron/core/engine/onnx/onnx-session';

const dir = mkdtempSync(join(tmpdir(), 'ns-nsis-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function compile(include: string): string {
  const script = join(dir, 'installer.nsi');
  writeFileSync(
    script,
    [
      'Unicode true',
      `OutFile "${join(dir, 'installer.exe')}"`,
      'RequestExecutionLevel user',
      `!include "${include}"`,
      'Function .onInit',
      '  !insertmacro customInit',
      'FunctionEnd',
      'Section',
      'SectionEnd',
    ].join('\n'),
  );
  return execFileSync('makensis', ['-V2', '-WX', script], { encoding: 'utf8' });
}

describe('the NSIS installer’s Visual C++ runtime check', () => {
  const include = join(ROOT, 'assets/installer/vc-redist.nsh');

  it('is the include electron-builder uses', () => {
    expect(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')).toMatch(
      /^nsis:\n(?: {2}#.*\n)* {2}include: assets\/installer\/vc-redist\.nsh$/m,
    );
  });

  it('compiles with makensis, warnings as errors', () => {
    compile(include);
    expect(existsSync(join(dir, 'installer.exe'))).toBe(true);
  });

  it('checks the runtime’s registry key for the machine’s arch and offers the app’s own links', () => {
    const text = readFileSync(include, 'utf8');
    expect(text).toContain('SOFTWARE\\Microsoft\\VisualStudio\\14.0\\VC\\Runtimes');
    expect(text).toContain(VC_REDIST_URL.x64);
    expect(text).toContain(VC_REDIST_URL.arm64);
    // Silent installs go on without asking.
    expect(text).toMatch(/\/SD IDNO/);
  });

  it('would fail the build on a broken script (the check above can fail)', () => {
    const broken = join(dir, 'broken.nsh');
    writeFileSync(broken, readFileSync(include, 'utf8').replace('${EndIf}\n!macroend', '!macroend'));
    expect(() => compile(broken)).toThrow();
  });
});
