/**
 * What a person is told when natural voices cannot run: the Visual C++ runtime missing on
 * Windows, macOS older than 13.4, or the loader's own words; never a raw "module could not be
 * found".
 */

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  loadRuntime,
  runtimeProblem,
  VC_REDIST_URL,
} from '../../../../electron/core/engine/onnx/onnx-session';

const require = createRequire(import.meta.url);
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('runtimeProblem', () => {
  it('names the Visual C++ Redistributable, with its link, when Windows cannot load the binding’s DLLs', () => {
    // Node's words on Windows when a DLL the .node file imports is missing (microsoft/onnxruntime#14064).
    const error = Object.assign(
      new Error(
        'The specified module could not be found.\r\n\\\\?\\C:\\Program Files\\Narration Studio\\resources\\app.asar.unpacked\\node_modules\\onnxruntime-node\\bin\\napi-v6\\win32\\x64\\onnxruntime_binding.node',
      ),
      { code: 'ERR_DLOPEN_FAILED' },
    );
    const win = { platform: 'win32', arch: 'x64', release: '10.0.22631' } as const;
    // onnxruntime.dll is beside the binding: the runtime is what is missing.
    const x64 = runtimeProblem(win, error, () => true)!;
    expect(x64).toContain('Microsoft Visual C++ Redistributable');
    expect(x64).toContain(VC_REDIST_URL.x64);
    expect(x64).not.toContain('specified module');
    expect(runtimeProblem({ ...win, arch: 'arm64' }, error, () => true)).toContain(VC_REDIST_URL.arm64);
    // An older runtime lacks an entry point the binding imports.
    const old = new Error(
      'The specified procedure could not be found.\r\n\\\\?\\C:\\x\\onnxruntime_binding.node',
    );
    expect(runtimeProblem(win, old, () => true)).toMatch(/version 14\.40 or later/);
  });

  it('says to reinstall, not to install the runtime, when onnxruntime.dll itself is missing', () => {
    const error = new Error(
      'The specified module could not be found.\r\n\\\\?\\C:\\Apps\\NS\\resources\\app.asar.unpacked\\node_modules\\onnxruntime-node\\bin\\napi-v6\\win32\\x64\\onnxruntime_binding.node',
    );
    const asked: string[] = [];
    const message = runtimeProblem(
      { platform: 'win32', arch: 'x64', release: '10.0.22631' },
      error,
      (path) => {
        asked.push(path);
        return false;
      },
    )!;
    expect(asked).toEqual([
      'C:\\Apps\\NS\\resources\\app.asar.unpacked\\node_modules\\onnxruntime-node\\bin\\napi-v6\\win32\\x64\\onnxruntime.dll',
    ]);
    expect(message).toMatch(/onnxruntime\.dll is missing\. Reinstall Narration Studio/);
    expect(message).not.toMatch(/Visual C\+\+/);
  });

  it('refuses before loading on macOS older than 13.4 (Darwin 22.5), and lets 13.4 and later try', () => {
    for (const release of ['21.6.0', '22.4.0', '22.1.0'])
      expect(runtimeProblem({ platform: 'darwin', arch: 'arm64', release }), release).toMatch(
        /macOS 13\.4 or later/,
      );
    for (const release of ['22.5.0', '22.6.0', '23.0.0', '25.1.0'])
      expect(runtimeProblem({ platform: 'darwin', arch: 'arm64', release }), release).toBeUndefined();
  });

  it('loadRuntime says so as ENGINE_FAILED on old macOS, without trying to load', async () => {
    await expect(loadRuntime({ platform: 'darwin', arch: 'x64', release: '21.6.0' })).rejects.toMatchObject({
      code: 'ENGINE_FAILED',
      message: expect.stringMatching(/macOS 13\.4 or later/),
    });
  });

  it.runIf(process.platform === 'linux')(
    'passes on the loader’s own words for a real failed load elsewhere',
    () => {
      // The real binding, copied away from the shared library it links to: dlopen fails for real.
      const binding = require.resolve(
        `onnxruntime-node/bin/napi-v6/linux/${process.arch}/onnxruntime_binding.node`,
      );
      const dir = mkdtempSync(join(tmpdir(), 'ns-ort-'));
      dirs.push(dir);
      copyFileSync(binding, join(dir, 'onnxruntime_binding.node'));
      // In a fresh Node: a process that has loaded the runtime already (another test file in
      // the same worker) would find the library by its name and load the copy.
      const load = spawnSync(
        process.execPath,
        [
          '-e',
          'try { require(process.argv[1]); } catch (e) { process.stdout.write(e.message); process.exit(3); }',
          join(dir, 'onnxruntime_binding.node'),
        ],
        { encoding: 'utf8' },
      );
      expect(load.status).toBe(3);
      const error = new Error(load.stdout);
      expect(dirname(binding)).not.toBe(dir);
      const message = runtimeProblem({ platform: 'linux', arch: process.arch, release: '6.1.0' }, error)!;
      expect(message).toMatch(
        /^The neural voice runtime \(onnxruntime-node\) could not be loaded: .*libonnxruntime/,
      );
    },
  );
});
