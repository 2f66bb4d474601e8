/**
 * `npm run test:faults [-- --scale <n>] [-- --seed <n>] [-- --only <name,...>]`: the fault
 * suite. Real server, real engine, real SQLite files, real HTTP on 127.0.0.1; every scenario
 * records checks and figures, and the run exits non-zero if any check failed.
 */

import { compileCliForRun } from '../fixtures/cli-clone';
import { cpuSeconds, type FaultContext, type Scenario } from './harness';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const scale = Number(arg('scale') ?? 1);
if (!(scale > 0)) throw new Error('--scale must be a positive number');
const seed = Number(arg('seed') ?? Math.floor(Math.random() * 2 ** 31));
const only = arg('only')?.split(',');

const modules = ['./callbacks', './workers', './storage', './kill9', './idempotency', './multi-instance'];
const scenarios: Scenario[] = [];
for (const path of modules) {
  const mod = (await import(path)) as { scenarios: Scenario[] };
  scenarios.push(...mod.scenarios);
}

console.log(`faults: seed ${seed}, scale ${scale} (reproduce with --seed ${seed} --scale ${scale})`);
let passed = 0;
let failed = 0;
const figures: string[] = [];
const started = Date.now();
const cli = await compileCliForRun();
for (const scenario of scenarios) {
  if (only && !only.includes(scenario.name)) continue;
  console.log(`\n== ${scenario.name}: ${scenario.title}`);
  const t0 = Date.now();
  const cpu0 = cpuSeconds();
  const ctx: FaultContext = {
    scale,
    cli,
    seed,
    check(name, ok, detail) {
      if (ok) passed++;
      else failed++;
      console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` (${detail})` : ''}`);
    },
    figure(name, value) {
      const line = `${scenario.name}: ${name} = ${value}`;
      figures.push(line);
      console.log(`  figure ${name} = ${value}`);
    },
    log(message) {
      console.log(`  .. ${message}`);
    },
  };
  try {
    await scenario.run(ctx);
  } catch (error) {
    ctx.check('scenario ran to the end', false, (error as Error).stack ?? String(error));
  }
  console.log(`  (${((Date.now() - t0) / 1000).toFixed(1)} s, CPU ${(cpuSeconds() - cpu0).toFixed(1)} s)`);
}
console.log('\nfigures:');
for (const line of figures) console.log(`  ${line}`);
console.log(
  `\nseed ${seed}, ${((Date.now() - started) / 1000).toFixed(1)} s, CPU ${cpuSeconds().toFixed(1)} s`,
);
console.log(`faults: ${passed} passed, ${failed} failed`);
cli.remove();
process.exit(failed === 0 ? 0 : 1);
