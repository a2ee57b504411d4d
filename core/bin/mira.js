#!/usr/bin/env node
// The first line Mira runs: from here every ending signal and SIGUSR1 are Mira's, before the runtime's
// modules are loaded (they, and reading the profile, take most of the start-up). This module alone is
// imported before; it imports nothing.
import { StartUpGuard } from '../dist/start-up-guard.js';

const startUp = new StartUpGuard().install();
const { main } = await import('../dist/cli.js');

// Exit explicitly: the console's line reader may still be waiting on standard input.
process.exit(await main(process.argv.slice(2), startUp));
