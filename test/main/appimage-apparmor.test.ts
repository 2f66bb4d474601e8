/**
 * assets/linux/appimage-apparmor.sh: the AppArmor profile that lets the AppImage's Chromium
 * sandbox start on Ubuntu 24.04+, for the AppImage's own path (the sandbox stays on).
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../electron/launch/build';

const script = join(ROOT, 'assets/linux/appimage-apparmor.sh');
const dir = mkdtempSync(join(tmpdir(), 'ns apparmor '));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = (...args: string[]) => spawnSync('sh', [script, ...args], { encoding: 'utf8' });

describe.runIf(process.platform === 'linux')('the AppImage’s AppArmor profile', () => {
  it('allows user namespaces to that one file, by its full path (spaces included), sandbox on', () => {
    const appimage = join(dir, 'Narration Studio-0.1.0-x86_64.AppImage');
    writeFileSync(appimage, '');
    const { status, stdout } = run('--print', appimage);
    expect(status).toBe(0);
    expect(stdout).toContain('abi <abi/4.0>,');
    expect(stdout).toContain(`profile narration-studio-appimage "${appimage}" flags=(unconfined) {`);
    expect(stdout).toMatch(/^ {2}userns,$/m);
    expect(stdout).not.toMatch(/no-sandbox/);
  });

  it('refuses a missing file and a path the profile could not quote', () => {
    expect(run('--print', join(dir, 'missing.AppImage')).status).toBe(2);
    const quoted = join(dir, 'say "hi".AppImage');
    writeFileSync(quoted, '');
    const { status, stderr } = run('--print', quoted);
    expect(status).toBe(2);
    expect(stderr).toMatch(/without double quotes/);
  });
});
