import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../electron/launch/server-node-flags';

const scripts = (
  JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

describe('the Node flags of a server process', () => {
  it('are the ones package.json starts "serve" and "start" with', () => {
    const flags = SERVER_NODE_FLAGS.join(' ');
    expect(scripts.serve).toBe(`node ${flags} electron/launch/cli.mjs serve`);
    expect(scripts.start).toBe(`tsx ${flags} electron/launch/index.ts`);
  });

  it('are flags this Node takes: it starts with them and warns of nothing', () => {
    const run = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, '-e', 'process.stdout.write("ok")'], {
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('ok');
  });
});
