// The names and texts of vitest that the runner leans on, looked for in the installed vitest
// itself: an upgrade that renames one fails here, by name, before it fails a run somewhere.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { expect, test } from "vitest";
import {
  LAZY_RUN_CHUNKS,
  lazyRunChunkFiles,
  MESSAGE,
  TEST_PATH_KEY,
  vitestDist,
  WORKER_EMITTED_ERROR,
  WORKER_ENTRY,
  WORKER_EXITED,
  workerResponse,
} from "../../../checker/run/vitest-internals.js";

const chunks = join(vitestDist(), "chunks");
const code = [join(vitestDist(), WORKER_ENTRY), ...readdirSync(chunks).map((name) => join(chunks, name))]
  .filter((file) => file.endsWith(".js"))
  .map((file) => readFileSync(file, "utf8"))
  .join("\n");

test("the worker entry our pool forks is vitest's forks worker", () => {
  expect(existsSync(join(vitestDist(), WORKER_ENTRY))).toBe(true);
});

test("the worker protocol's markers and message types are vitest's", () => {
  const response = Object.keys(workerResponse(MESSAGE.started))[0]!;
  for (const marker of [response, "__vitest_worker_request__"]) expect(code, marker).toContain(marker);
  for (const type of Object.values(MESSAGE)) expect(code, type).toMatch(new RegExp(`(type: |type === |case )"${type}"`));
});

test("the texts of a dying worker are vitest's", () => {
  expect(code).toContain(WORKER_EXITED);
  expect(code).toContain(WORKER_EMITTED_ERROR);
});

test("the key vitest hangs on errors is vitest's", () => {
  expect(code).toContain(TEST_PATH_KEY);
});

test("the chunks a warm spare pre-imports exist and are the ones vitest's worker imports lazily", () => {
  const lazyImports = [...code.matchAll(/await import\('\.\/([^']+)'\)/g)].map((m) => m[1]);
  for (const file of lazyRunChunkFiles()) {
    expect(existsSync(file), file).toBe(true);
    expect(lazyImports).toContain(basename(file));
  }
  expect(lazyRunChunkFiles().map((f) => basename(f))).toEqual([...LAZY_RUN_CHUNKS]);
});
