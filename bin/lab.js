#!/usr/bin/env node
// The launcher: everything else lives in dist/, built by `npm install` (prepare).
import { existsSync } from "node:fs";

// A reader that stops early (`lab show 1 --lesson | head`) closes the pipe: that ends the
// output, and is no error of lab's.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err) => {
    if (err.code !== "EPIPE") throw err;
    process.exit(0);
  });
}

const entry = new URL("../dist/src/cli/main.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write("lab is not built yet: run `npm install` (or `npm run build`) in the harness-lab folder.\n");
  process.exitCode = 1;
} else {
  const { main } = await import(entry.href);
  process.exitCode = await main(process.argv);
}
