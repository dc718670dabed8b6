#!/usr/bin/env node
// The `cellfleet` command (packages/cli): plain JavaScript, so `npm install -g ./packages/cli` runs it
// with node alone, no build step.
import { main } from "../src/main.js";

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
});
