#!/usr/bin/env node
// The installed command: runs the built CLI (npm run build:server creates it).
import '../out/server/cli.js';
