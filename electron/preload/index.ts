/**
 * Preload of the main window (sandboxed, bundled to CommonJS: a sandboxed preload may only
 * `require('electron')`). Exposes the DesktopApi and nothing else.
 */

import { DESKTOP_API_GLOBAL } from '../shared/desktop-api';
import { createDesktopBridge, type PreloadElectron } from './bridge';

// Typed through PreloadElectron rather than `import 'electron'`: see electron/main/electron-types.ts.
declare const require: (id: 'electron') => PreloadElectron;
const { contextBridge, ipcRenderer } = require('electron');
contextBridge.exposeInMainWorld(
  DESKTOP_API_GLOBAL,
  createDesktopBridge((channel, ...args) => ipcRenderer.invoke(channel, ...args)),
);
