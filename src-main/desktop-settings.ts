import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the desktop app listens; read from `<userData>/desktop.json`, then PBX_HOST / PBX_PORT. */
export interface DesktopSettings {
  host: string;
  port: number;
  settingsFile: string;
}

/** Loopback by default so the console gets the localhost bypass; port 0 lets the OS pick a free one. */
export function readDesktopSettings(userDataDir: string, env: NodeJS.ProcessEnv = process.env): DesktopSettings {
  const settingsFile = join(userDataDir, 'desktop.json');
  let stored: { host?: unknown; port?: unknown } = {};
  try {
    stored = JSON.parse(readFileSync(settingsFile, 'utf8')) as typeof stored;
  } catch {
    // Missing or unreadable: defaults apply.
  }
  const host = env.PBX_HOST ?? (typeof stored.host === 'string' ? stored.host : '127.0.0.1');
  const rawPort = env.PBX_PORT ?? stored.port;
  const port =
    Number.isInteger(Number(rawPort)) && Number(rawPort) >= 0 && Number(rawPort) <= 65535 ? Number(rawPort) : 0;
  return { host, port, settingsFile };
}
