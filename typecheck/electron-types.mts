/**
 * `npm run typecheck:electron`: type-checks the desktop shell, the preload and the shared
 * code against Electron's own typings (electron.check.mts proves the real API fits the
 * subsets the shell is written against). The typings are Electron's `electron.d.ts`: from
 * node_modules/electron where it is installed, else from the package's tarball on the npm
 * registry (`npm pack`, which downloads no binary), kept under node_modules/.cache.
 */

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extract } from 'tar';

const root = fileURLToPath(new URL('../', import.meta.url));
const version: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).optionalDependencies
  .electron;
const cache = join(root, 'node_modules/.cache/electron-types', version);

function electronTypes(): string {
  const installed = join(root, 'node_modules/electron');
  if (existsSync(join(installed, 'electron.d.ts'))) {
    const installedVersion = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).version;
    if (installedVersion === version) return join(installed, 'electron.d.ts');
  }
  const types = join(cache, 'electron.d.ts');
  if (existsSync(types)) return types;
  const packed = mkdtempSync(join(tmpdir(), 'electron-types-'));
  try {
    const name = execFileSync(
      'npm',
      ['pack', `electron@${version}`, '--silent', '--pack-destination', packed],
      {
        encoding: 'utf8',
        shell: process.platform === 'win32',
      },
    ).trim();
    mkdirSync(cache, { recursive: true });
    extract({ file: join(packed, name), cwd: cache, strip: 1, sync: true }, ['package/electron.d.ts']);
  } finally {
    rmSync(packed, { recursive: true, force: true });
  }
  if (!existsSync(types)) throw new Error(`electron@${version}'s package has no electron.d.ts`);
  return types;
}

const config = join(cache, 'tsconfig.json');
mkdirSync(cache, { recursive: true });
const types = electronTypes();
writeFileSync(
  config,
  JSON.stringify({
    extends: join(root, 'tsconfig.electron.json'),
    include: [join(root, 'typecheck'), join(root, 'electron'), types],
  }),
);
process.stdout.write(`Type-checking against electron@${version}'s typings (${types})\n`);
try {
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', config, '--noEmit'], {
    stdio: 'inherit',
  });
} catch {
  process.exitCode = 1;
}
