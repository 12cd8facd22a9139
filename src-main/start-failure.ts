import type { DesktopSettings } from './desktop-settings.ts';

/** Turns a start-up error into a title and a message that tells the operator what to do. */
export function describeStartFailure(
  error: unknown,
  settings: DesktopSettings,
  userDataDir: string,
): { title: string; message: string } {
  const code = (error as { code?: string }).code;
  const text = error instanceof Error ? error.message : String(error);
  if (code === 'EADDRINUSE') {
    return {
      title: 'The port is already in use',
      message:
        `Another program is listening on ${settings.host}:${settings.port}.\n\n` +
        `Close that program, or choose another port in ${settings.settingsFile}, for example {"port": 0} to let ` +
        'the system pick a free one. Then start PBX Console again.',
    };
  }
  if (code === 'EACCES') {
    return {
      title: 'Not allowed to listen on this port',
      message:
        `The system refused ${settings.host}:${settings.port}. Ports below 1024 need extra rights: ` +
        `choose a port above 1024 in ${settings.settingsFile}.`,
    };
  }
  if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
    return {
      title: 'The server is not built',
      message: `${text}\n\nRun "npm run build" in the application folder, then start again.`,
    };
  }
  if (/NODE_MODULE_VERSION|was compiled against a different Node\.js version/.test(text)) {
    return {
      title: 'The database driver is built for another runtime',
      message: `${text}\n\nRun "npm run desktop:install" to rebuild better-sqlite3 for Electron, then start again.`,
    };
  }
  if ((error as { name?: string }).name === 'ConfigError') {
    return {
      title: 'The configuration is invalid',
      message: `${text}\n\nFix ${settings.settingsFile} or the PBX_* environment variables.`,
    };
  }
  return {
    title: 'PBX Console could not start',
    message: `${text}\n\nThe data directory is ${userDataDir}. Check that it is writable and that the disk is not full, then start again.`,
  };
}
