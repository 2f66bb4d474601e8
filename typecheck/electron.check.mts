// Compiled only by tsconfig.electron.json (npm run typecheck:electron), where the electron
// package is installed: proves the real API is assignable to the subsets the shell and the
// preload use, so those hand-written interfaces cannot drift from Electron's own types.
import type * as Electron from 'electron';
import type { ElectronMain } from '../electron/main/electron-types';
import type { PreloadElectron } from '../electron/preload/bridge';

declare const real: typeof Electron;
export const main: ElectronMain = real;
export const preload: PreloadElectron = real;
