// Desktop entry: owns the embedded server's lifecycle and one window on it. All logic lives in
// src-server (API) and src-renderer (console); this file only wires them into Electron.
import { app, BrowserWindow, dialog, session, shell } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PbxServer } from '../src-server/index.ts';
import { readDesktopSettings } from './desktop-settings.ts';
import { startEmbeddedServer } from './embedded-server.ts';
import { describeStartFailure } from './start-failure.ts';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, '..');
let server: PbxServer | undefined;
let window: BrowserWindow | undefined;
let stopping = false;

function openWindow(url: string): void {
  window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'PBX Console',
    autoHideMenuBar: true,
    webPreferences: {
      preload: join(outDir, 'preload', 'index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  });
  const origin = new URL(url).origin;
  // Links to elsewhere open in the system browser; the window never leaves the console.
  window.webContents.setWindowOpenHandler(({ url: target }) => {
    if (/^https?:/.test(target)) void shell.openExternal(target);
    return { action: 'deny' };
  });
  window.webContents.on('will-navigate', (event, target) => {
    if (new URL(target).origin !== origin) event.preventDefault();
  });
  window.once('ready-to-show', () => window?.show());
  window.on('closed', () => (window = undefined));
  void window.loadURL(url);
}

async function start(): Promise<void> {
  // The console needs no camera, microphone, notifications or location: only writing to the clipboard (copy buttons).
  session.defaultSession.setPermissionRequestHandler((_contents, permission, grant) =>
    grant(permission === 'clipboard-sanitized-write'),
  );
  const userDataDir = app.getPath('userData');
  const settings = readDesktopSettings(userDataDir);
  try {
    server = await startEmbeddedServer(outDir, userDataDir, settings);
  } catch (error) {
    const { title, message } = describeStartFailure(error, settings, userDataDir);
    await dialog.showMessageBox({ type: 'error', title, message: title, detail: message, buttons: ['Quit'] });
    app.exit(1);
    return;
  }
  // Loopback address on purpose: the console then uses the localhost bypass and needs no login.
  openWindow(`http://127.0.0.1:${server.port}/`);
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('window-all-closed', () => app.quit());
  app.on('activate', () => {
    if (!window && server) openWindow(`http://127.0.0.1:${server.port}/`);
  });
  // Stop the server (HTTP, workers, database) before the process exits.
  app.on('before-quit', (event) => {
    if (!server || stopping) return;
    event.preventDefault();
    stopping = true;
    const running = server;
    server = undefined;
    running.stop().finally(() => app.quit());
  });
  // Ctrl+C in the terminal that ran `npm run desktop` takes the same clean path as closing the window.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
  app.whenReady().then(start, (error: unknown) => {
    dialog.showErrorBox('PBX Console could not start', String(error));
    app.exit(1);
  });
}
