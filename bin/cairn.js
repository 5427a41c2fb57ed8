#!/usr/bin/env node
// Entry point of the `cairn` command: the compiled CLI lives in dist/ (built by `npm run build`).
import "../dist/faces/cli/main.js";
