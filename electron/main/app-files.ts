/**
 * Files the desktop app loads at run time, relative to the app's root (the repository in
 * development, app.asar when packaged). One list for the composition root, the build and the
 * packaging test, so a renamed output cannot leave the package without it.
 */
export const APP_FILES = {
  /** package.json "main". */
  main: 'dist/electron/main/index.js',
  /** The engine's worker threads (the export's resampling: core/engine/export/parallel-resampling.ts) and the readers' child processes (core/manuscripts/reader-process.ts). */
  workers: [
    'dist/electron/main/engine-host-worker.js',
    'dist/electron/main/espeak-worker.js',
    'dist/electron/main/manuscript-reader-child.js',
    'dist/electron/main/project-archive-child.js',
    'dist/electron/main/resampling-worker.js',
  ],
  preload: 'dist/electron/preload/index.cjs',
  uiDir: 'dist/renderer',
  uiIndex: 'dist/renderer/index.html',
  /** The window's icon (Linux and Windows; macOS uses the bundle's). */
  icon: 'assets/icons/512x512.png',
} as const;

/**
 * The tray icon of each OS: macOS wants a menu-bar Template image (16×16, with a 32×32 @2x
 * beside it that Electron picks on Retina screens), Windows an ICO with the notification
 * area's sizes, Linux a small PNG.
 */
export function trayIcon(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'assets/tray/trayTemplate.png';
  if (platform === 'win32') return 'assets/tray/tray.ico';
  return 'assets/icons/32x32.png';
}
