#!/usr/bin/env node
// Command-line entry of the headless runner (package.json "bin"). The runner is TypeScript
// built by `npm run build:cli` into dist-cli/.
import { existsSync } from 'node:fs';

const entry = new URL('../dist-cli/live-bench.js', import.meta.url);
if (!existsSync(entry)) {
  console.error('live-bench: the runner is not built yet. Run `npm run build:cli` (or `npm start`) in the project folder first.');
  process.exit(2);
}
const { main, runCli } = await import(entry.href);
// runCli turns an error escaping main into exit 4 with its message, never 1 like a failed verdict.
// Exit explicitly: worker threads and sockets that are closing must not keep a CI job waiting.
process.exit(await runCli(main, process.argv.slice(2)));
