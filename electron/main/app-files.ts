/**
 * Files the desktop app loads at run time, relative to the app's root (the repository in
 * development, app.asar when packaged). One list for the composition root, the build and the
 * packaging test, so a renamed output cannot leave the package without it.
 */
export const APP_FILES = {
  /** package.json "main". */
  main: 'dist/electron/main/index.js',
  workers: ['dist/electron/main/engine-host-worker.js', 'dist/electron/main/espeak-worker.js'],
  preload: 'dist/electron/preload/index.cjs',
  uiDir: 'dist/renderer',
  uiIndex: 'dist/renderer/index.html',
  icon: 'assets/icons/512x512.png',
} as const;
