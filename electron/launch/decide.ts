/** Whether `npm start` can open the desktop app or falls back to the headless server. */

import { DEFAULT_PORT, type Settings } from '../shared/settings';

export type LaunchDecision =
  | { mode: 'electron'; binary: string }
  | { mode: 'headless'; /** One sentence for the terminal. */ reason: string };

export interface LaunchFacts {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  /** Arguments after `npm start --`. */
  args: readonly string[];
  /** What `require('electron')` gave: the binary's path, or the error it threw. */
  electron: { path: string } | { error: string };
  fileExists(path: string): boolean;
}

const FALLBACK =
  'so Narration Studio starts as a local server instead: open the address below in your browser.';

/**
 * Electron when its binary is installed and there is a display; else the headless server,
 * with the reason. `--headless` (or NARRATION_STUDIO_HEADLESS=1) asks for the server.
 */
export function decideLaunch(facts: LaunchFacts): LaunchDecision {
  if (facts.args.includes('--headless') || facts.env.NARRATION_STUDIO_HEADLESS === '1') {
    return { mode: 'headless', reason: `Headless mode was requested, ${FALLBACK}` };
  }
  if ('error' in facts.electron || !facts.fileExists(facts.electron.path)) {
    return {
      mode: 'headless',
      reason: `The Electron binary is not installed on this machine (npm skips the optional electron package when it cannot download it), ${FALLBACK}`,
    };
  }
  if (facts.platform === 'linux' && !facts.env.DISPLAY && !facts.env.WAYLAND_DISPLAY) {
    return {
      mode: 'headless',
      reason: `There is no graphical display (neither DISPLAY nor WAYLAND_DISPLAY is set), ${FALLBACK}`,
    };
  }
  return { mode: 'electron', binary: facts.electron.path };
}

/**
 * The `serve` arguments for the fallback: the user's, plus port, data folder, voice mapping and
 * allowed origins from the settings (each unless the user gave that option). A port left at the
 * default is not passed: `serve` then listens where this data folder's server listened last.
 */
export function headlessServeArgs(
  args: readonly string[],
  settings: Pick<Settings, 'port' | 'dataDir'> &
    Partial<Pick<Settings, 'unknownVoices' | 'voiceAliases'>> & { allowedOrigins?: readonly string[] },
): string[] {
  const given = args.filter((a) => a !== '--headless');
  const has = (flag: string) => given.some((a) => a === flag || a.startsWith(`${flag}=`));
  const aliases = Object.entries(settings.voiceAliases ?? {});
  return [
    ...given,
    // The default port is no choice: serve then takes the data folder's last port (same address each start).
    ...(has('--port') || settings.port === DEFAULT_PORT ? [] : ['--port', String(settings.port)]),
    ...(has('--data-dir') || settings.dataDir === null ? [] : ['--data-dir', settings.dataDir]),
    ...(has('--unknown-voices') || !settings.unknownVoices || settings.unknownVoices === 'refuse'
      ? []
      : ['--unknown-voices', settings.unknownVoices]),
    ...(has('--voice-alias')
      ? []
      : aliases.flatMap(([code, voice]) => ['--voice-alias', `${code}=${voice}`])),
    ...(has('--allow-origin') ? [] : (settings.allowedOrigins ?? []).flatMap((o) => ['--allow-origin', o])),
  ];
}
