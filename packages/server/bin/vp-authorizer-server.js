#!/usr/bin/env node
// The package's command. A file that exists before the build, so that package managers can link
// it while installing a workspace whose dist/ is not built yet; the command itself is built.
import '../dist/cli.js';
