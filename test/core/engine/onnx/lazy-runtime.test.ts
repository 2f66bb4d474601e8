import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

/** Loads the given module in a fresh Node process and says whether onnxruntime-node got loaded. */
async function loadsRuntime(script: string): Promise<string> {
  const code = `
    import { createRequire } from 'node:module';
    ${script}
    const loaded = Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes('onnxruntime-node'));
    console.log(loaded ? 'loaded' : 'not loaded');`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', code],
    {
      cwd: new URL('../../../../', import.meta.url),
    },
  );
  return stdout.trim();
}

it('loads onnxruntime-node only when a model is opened, not when the loaders are imported', async () => {
  const imports = `
    await import('./electron/core/engine/onnx/piper-model.ts');
    const { loadRuntime } = await import('./electron/core/engine/onnx/onnx-session.ts');
    await import('./electron/core/engine/onnx/kokoro-model.ts');`;
  expect(await loadsRuntime(imports)).toBe('not loaded');
  expect(await loadsRuntime(`${imports}\n    await loadRuntime();`)).toBe('loaded');
});
