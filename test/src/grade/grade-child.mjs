// `lab grade` as a real process of its own, against the fixture class's exercises, so a
// test can send it a real SIGINT or SIGKILL. Usage: node grade-child.mjs '<json [dir, flags]>'
import { resolve } from "node:path";
import { gradeCommand } from "../../../dist/src/commands/grade.js";
import { processIo } from "../../../dist/src/terminal/io.js";

const fixture = resolve(import.meta.dirname, "../../fixtures/class");
const paths = { root: resolve(fixture, "../../.."), exercises: resolve(fixture, "exercises"), solutions: resolve(fixture, "solutions") };
const [dir, flags] = JSON.parse(process.argv[2] ?? "[]");
try {
  process.exitCode = await gradeCommand(dir ?? undefined, flags ?? {}, processIo(), paths);
} catch (err) {
  process.stderr.write(`${err.message}\n`);
  process.exitCode = err.exitCode ?? 70;
}
