// A setup file of Stryker's vitest config: Stryker's sandbox copies no symlinks, so the exercise's
// fixtures (exercise 8's links) are laid from the real folder into a fresh temp folder for each run
// of the hidden test, the way the lab lays them for a walled worker (LAB_FIXTURES).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { FIXTURES_ENV, layFixtures } from "../dist/checker/testing/fixtures.js";

const exercise = process.env["LAB_MUTATION_EXERCISE"] ?? "";
const from = process.env["LAB_MUTATION_ROOT"] ?? "";
const laid = mkdtempSync(join(tmpdir(), "lab-mutation-fixtures-"));
if (layFixtures(join(from, "exercises", exercise), exercise, laid)) process.env[FIXTURES_ENV] = laid;
afterAll(() => rmSync(laid, { recursive: true, force: true }));
