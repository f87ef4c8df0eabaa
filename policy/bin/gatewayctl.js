#!/usr/bin/env node
// Thin shim so the bin link exists before the first build; the CLI itself is compiled TypeScript.
import { main } from '../dist/src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
