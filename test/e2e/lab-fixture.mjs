// `lab start N` on the fixture exercises, for the terminal test: the same command the
// CLI runs, with the fixture folders instead of the lab's real exercises, which change.
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "../..");
const fixtures = join(root, "test/fixtures/lab");
const { startCommand } = await import(join(root, "dist/src/commands/start.js"));
const { processIo } = await import(join(root, "dist/src/terminal/io.js"));

const [command, key, ...flags] = process.argv.slice(2);
if (command !== "start" || !key) throw new Error("usage: lab-fixture.mjs start N [--poll] [--live URL]");
const paths = { root, exercises: join(fixtures, "exercises"), solutions: join(fixtures, "solutions") };
const live = flags.includes("--live") ? flags[flags.indexOf("--live") + 1] : undefined;
process.exitCode = await startCommand(key, { poll: flags.includes("--poll") || undefined, live }, processIo(), paths);
