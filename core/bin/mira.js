#!/usr/bin/env node
import { main } from '../dist/cli.js';

// Exit explicitly: the console's line reader may still be waiting on standard input.
process.exit(await main(process.argv.slice(2)));
