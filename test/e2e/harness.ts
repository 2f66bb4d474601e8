/**
 * Browser-test harness: the real headless server (`serve`, as a user runs it) on a free port
 * with a throw-away data dir, and Debian's Chromium driven by playwright-core.
 */

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { ROOT } from '../../electron/launch/build';
import { compileCliForRun } from '../fixtures/cli-clone';
import { launchBrowser as launchChromium } from '../fixtures/browser';
import { refusingUrl } from '../fixtures/callback-receiver';
import { skipFirstRunOffer } from '../fixtures/first-run-settings';
import { speakingPiperPack } from '../fixtures/neural-pack';
import { VoiceMirror } from '../fixtures/voice-mirror';
import type { CatalogueEntry } from '../../electron/shared/voice-packs';

export { CHROMIUM } from '../fixtures/browser';

/** The one Chromium of a `run.ts` run, once `shareBrowser` has launched it. */
let shared: Promise<Browser> | undefined;

/**
 * `run.ts`: launches one Chromium for every suite of the run (a launch costs about as much CPU
 * as a short suite's pages); `launchBrowser` then hands out views of it. Resolves with its close.
 */
export async function shareBrowser(): Promise<() => Promise<void>> {
  shared = launchChromium();
  const browser = await shared;
  return async () => {
    shared = undefined;
    await browser.close();
  };
}

/**
 * A headless Chromium for a suite: its own (standalone scripts), or a view of the run's shared
 * one whose `close` closes only the contexts and pages the suite opened through it, so each
 * suite still starts without cookies or storage and leaves nothing open.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!shared) return launchChromium();
  const browser = await shared;
  const opened = new Set<BrowserContext>();
  const track = (context: BrowserContext) => {
    opened.add(context);
    context.on('close', () => opened.delete(context));
    return context;
  };
  const view: Pick<Browser, 'close' | 'newContext' | 'newPage'> = {
    async close() {
      await Promise.all([...opened].map((context) => context.close()));
    },
    async newContext(options) {
      return track(await browser.newContext(options));
    },
    async newPage(options) {
      const page = await browser.newPage(options);
      track(page.context());
      return page;
    },
  };
  return new Proxy(browser, {
    get(target, key) {
      if (key in view) return view[key as keyof typeof view];
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

export interface Studio {
  /** http://127.0.0.1:<port> */
  url: string;
  /**
   * The newest printed sign-in address: each works once and serve prints the next after a
   * sign-in, so two reads may differ (keep the value to open the same address twice).
   */
  loginUrl: string;
  /** Throw-away folder of settings.json (never the real user's settings). */
  settingsDir: string;
  stop(): Promise<void>;
}

export interface StudioOptions {
  /** Leave the first-run voice offer unanswered (its own suite). */
  firstRun?: boolean;
  /** Data and settings folders the caller keeps (a restart on the same folders); else temporary ones, removed by `stop`. */
  folders?: { dataDir: string; settingsDir: string };
  /** Without `--port`: serve takes the data folder's last port, as a user's restart does. */
  lastPort?: boolean;
  /** Engine worker threads (default 2). */
  poolSize?: number;
}

/** The run's compiled CLI (`compileServe`), else undefined: `serve` then runs from the sources through tsx. */
let compiledCli: string | undefined;

/**
 * `run.ts`: compiles the CLI once, as `npm run build:cli` does (the package's "bin"), into a temp
 * folder laid out as a clone (test/fixtures/cli-clone.ts) with the built UI linked, so that each
 * suite's `serve` starts from the bundle: about half the CPU of compiling the sources through
 * tsx at every start (test/fixtures/compiled-cli.ts does the same for the CLI's vitest files).
 * Resolves with the removal of the folder.
 */
export async function compileServe(): Promise<() => void> {
  const cli = await compileCliForRun();
  symlinkSync(join(ROOT, 'dist/renderer'), join(cli.app, 'dist/renderer'), 'junction');
  [compiledCli] = cli.args();
  return () => {
    compiledCli = undefined;
    cli.remove();
  };
}

/**
 * Starts `serve --port 0` (temp data and settings folders unless given) and resolves with the
 * addresses it printed. The first-run voice offer is answered (skipped) beforehand unless
 * `firstRun` is set, as it is for the suite about it.
 */
export async function startStudio(
  extraArgs: string[] = [],
  { firstRun = false, folders, lastPort = false, poolSize = 2 }: StudioOptions = {},
): Promise<Studio> {
  const dataDir = folders?.dataDir ?? mkdtempSync(join(tmpdir(), 'studio-e2e-'));
  const settingsDir = folders?.settingsDir ?? mkdtempSync(join(tmpdir(), 'studio-e2e-settings-'));
  if (!firstRun) skipFirstRunOffer(settingsDir);
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [
      ...(compiledCli
        ? [compiledCli]
        : ['--import', 'tsx', join(process.cwd(), 'electron/core/cli/index.ts')]),
      'serve',
      ...(lastPort ? [] : ['--port', '0']),
      '--data-dir',
      dataDir,
      '--settings-dir',
      settingsDir,
      '--pool-size',
      String(poolSize),
      ...extraArgs,
    ],
    // The config folder points at the temp folder too, so nothing can reach the user's own.
    { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, XDG_CONFIG_HOME: settingsDir } },
  );
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const { url, loginUrl } = await new Promise<{ url: string; loginUrl: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start in time: ${err}`)), 60_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^listening on (\S+)\nopen (\S+)\n/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1]!, loginUrl: m[2]! });
      }
    });
    void exited.then(() => reject(new Error(`serve exited: ${err}`)));
  });
  // Each sign-in address works once; serve prints the next one after each sign-in.
  let latestLoginUrl = loginUrl;
  child.stdout.on('data', () => {
    const printed = [...out.matchAll(/^open (\S+)$/gm)];
    latestLoginUrl = printed[printed.length - 1]?.[1] ?? latestLoginUrl;
  });
  return {
    url,
    get loginUrl() {
      return latestLoginUrl;
    },
    settingsDir,
    async stop() {
      child.kill('SIGINT');
      await exited;
      if (folders) return;
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(settingsDir, { recursive: true, force: true });
    },
  };
}

/** A short retry policy, so a failing callback reaches its final state within a browser test. */
export const E2E_CALLBACK_ATTEMPTS = 3;
export const E2E_SERVE_ARGS = [
  '--callback-attempts',
  String(E2E_CALLBACK_ATTEMPTS),
  '--callback-delay-ms',
  '250',
];

/** The views of the main navigation by their English names (the sidebar's `data-view`). */
const NAV_VIEWS: Readonly<Record<string, string>> = {
  Projects: 'projects',
  Studio: 'studio',
  Voices: 'voices',
  'Voice library': 'library',
  Lexicon: 'lexicon',
  'How it will be read': 'reading',
  Export: 'export',
  History: 'history',
  Callbacks: 'callbacks',
  API: 'api',
  Settings: 'settings',
};

/**
 * The main navigation's link to a view, named in English; found by its view (`data-view`),
 * so that it is found in every interface language.
 */
export const nav = (page: Page, name: string): Locator =>
  page.locator(`nav.sidebar a[data-view="${NAV_VIEWS[name] ?? name}"]`);

/**
 * Generates in the Studio with a callback URL that refuses connections, opens Callbacks and
 * selects that request once it shows "failed"; returns its entry in the list.
 */
export async function generateWithRefusedCallback(page: Page): Promise<Locator> {
  const listed = page.getByRole('list', { name: 'Requests with a callback' }).getByRole('button');
  await nav(page, 'Callbacks').click();
  const before = await listed.count();
  await nav(page, 'Studio').click();
  await page.getByLabel('Callback URL (optional)').fill(await refusingUrl());
  await page.getByRole('button', { name: 'Generate' }).click();
  await nav(page, 'Callbacks').click();
  await listed.nth(before).waitFor({ timeout: 120_000 });
  const newest = listed.first();
  await newest.click();
  await newest.getByText('failed', { exact: true }).waitFor({ timeout: 120_000 });
  return newest;
}

export const SAMPLE_TEXT =
  'The lighthouse keeper climbed the stairs at dusk. Far below, the sea rolled in long grey lines. ' +
  'She lit the lamp and watched the beam sweep across the water. Somewhere out there, a small boat was finding its way home.';

/** The pack the browser tests download: English, speaks every English voice code under std-v1.6. */
export const E2E_PACK = speakingPiperPack('en_US-lessac-medium', { cardBytes: 1_000_000 });
/** Where the mirror serves the pack's model (a `hold` fault on it keeps the download going). */
export const E2E_PACK_MODEL = E2E_PACK.entry.files.find((f) => f.role === 'model')!.url;

export interface E2eVoiceMirror {
  mirror: VoiceMirror;
  /** `--voice-mirror <url> --voice-catalogue <file>` for `serve`: a catalogue of E2E_PACK alone. */
  args: string[];
  close(): Promise<void>;
}

/**
 * A local voice mirror serving E2E_PACK, and a catalogue file naming it (and `listed`: entries
 * shown in the catalogue but not served, for screenshots).
 */
export async function startVoiceMirror(listed: readonly CatalogueEntry[] = []): Promise<E2eVoiceMirror> {
  const mirror = await VoiceMirror.start();
  mirror.serve(E2E_PACK);
  const dir = mkdtempSync(join(tmpdir(), 'studio-e2e-catalogue-'));
  const file = join(dir, 'catalogue.json');
  writeFileSync(file, JSON.stringify([E2E_PACK.entry, ...listed]));
  return {
    mirror,
    args: ['--voice-mirror', mirror.url, '--voice-catalogue', file],
    async close() {
      mirror.release();
      await mirror.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A page of a vi-VN browser, with the errors the page threw. */
export interface VietnamesePage {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors of the page (each suite expects none). */
  pageErrors: string[];
}

/**
 * A vi-VN browser context (1280×800 unless `options` say otherwise) with one page open at
 * `address` (the sign-in address, or a view's with `baseURL` and `storageState` in `options`),
 * once the studio speaks Vietnamese (`<html lang="vi">`). The caller closes `context`.
 */
export async function openVietnamese(
  browser: Browser,
  address: string,
  options: BrowserContextOptions = {},
): Promise<VietnamesePage> {
  const context = await browser.newContext({
    locale: 'vi-VN',
    viewport: { width: 1280, height: 800 },
    ...options,
  });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(address);
  await page.waitForFunction(() => document.documentElement.lang === 'vi');
  return { context, page, pageErrors };
}
