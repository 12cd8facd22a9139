// Minimal preload: the console is a plain web app talking HTTP to the embedded server, so it needs no
// Node access. It only tells the page it runs inside the desktop shell.
import { contextBridge } from 'electron';

contextBridge.exposeInMainWorld('pbxDesktop', { isDesktop: true, platform: process.platform });
