/** Exercise fixtures: real links from git, laid down where a walled worker can use them. */
import { spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, readFileSync, readlinkSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { labPaths } from "../../../checker/paths.js";
import { exerciseFixtures, FIXTURE_ERRORS, FIXTURES_ENV, fixturesIn, layFixtures } from "../../../checker/testing/fixtures.js";
import { workerSandbox } from "../../../src/grade/sandbox.js";
import { tempDir } from "../../support/temp-dir.js";

const OFFLOADING = join(labPaths().exercises, "08-offloading");
const LINKS = { "planted-link/agent-artifacts/innocent.txt": "../outside/secret.txt", "linked-root/artifacts-link": "real-artifacts" };

afterEach(() => {
  delete process.env[FIXTURES_ENV];
});

describe("exercise 8's fixtures", () => {
  test("are links in the checkout and in git (mode 120000), each relative and inside the folder", () => {
    for (const [path, target] of Object.entries(LINKS)) {
      const link = join(OFFLOADING, "fixtures", path);
      expect(lstatSync(link).isSymbolicLink(), path).toBe(true);
      expect(readlinkSync(link)).toBe(target);
    }
    const git = spawnSync("git", ["ls-files", "-s", "--", "fixtures"], { cwd: OFFLOADING, encoding: "utf8" });
    const modes = Object.fromEntries(
      git.stdout
        .trim()
        .split("\n")
        .map((line) => [line.split("\t")[1], line.split(" ")[0]]),
    );
    expect(Object.keys(LINKS).map((path) => modes[`fixtures/${path}`])).toEqual(["120000", "120000"]);
  });

  test("are laid down as the same relative links, which resolve inside the copy", () => {
    const copy = layFixtures(OFFLOADING, "08-offloading", tempDir("fixtures-lay"))!;
    for (const [path, target] of Object.entries(LINKS)) expect(readlinkSync(join(copy, path))).toBe(target);
    expect(readFileSync(join(copy, "planted-link/agent-artifacts/innocent.txt"), "utf8")).toBe(
      readFileSync(join(copy, "planted-link/outside/secret.txt"), "utf8"),
    );
    expect(realpathSync(join(copy, "linked-root/artifacts-link"))).toBe(realpathSync(join(copy, "linked-root/real-artifacts")));
  });

  test("unwalled, a test gets a fresh copy inside the folder it gives", () => {
    const into = realpathSync(tempDir("fixtures-own"));
    const first = exerciseFixtures("08-offloading", into);
    const second = exerciseFixtures("08-offloading", into);
    expect(first.startsWith(`${into}/`)).toBe(true);
    expect(second).not.toBe(first);
    expect(lstatSync(join(first, "linked-root/artifacts-link")).isSymbolicLink()).toBe(true);
  });
});

describe("laying fixtures down", () => {
  /** An exercise folder whose fixtures hold one link, `name` → `target`. */
  function exerciseWithLink(target: string): string {
    const dir = tempDir("fixtures-exercise");
    mkdirSync(join(dir, "fixtures/inner"), { recursive: true });
    writeFileSync(join(dir, "fixtures/inner/file.txt"), "x");
    symlinkSync(target, join(dir, "fixtures/inner/link"));
    return dir;
  }

  test.each([
    ["an absolute link", "/etc/passwd"],
    ["a link that climbs out", "../../outside.txt"],
  ])("%s is refused, and nothing is copied", (_, target) => {
    const into = tempDir("fixtures-into");
    expect(() => layFixtures(exerciseWithLink(target), "99-x", into)).toThrow(FIXTURE_ERRORS.linkOutside("inner/link", target));
    expect(() => lstatSync(join(into, "99-x"))).toThrow(/ENOENT/);
  });

  test("the refusal, word for word", () => {
    expect(FIXTURE_ERRORS.linkOutside("inner/link", "/etc/passwd")).toBe(
      "inner/link points at /etc/passwd, outside its fixtures folder: a link out of the folder would be a way through the workers' walls, so fixtures may link only inside it.",
    );
  });

  test("an exercise without fixtures lays nothing down, and a test asking for them is told so", () => {
    expect(layFixtures(join(labPaths().exercises, "01-tool-loop"), "01-tool-loop", tempDir("fixtures-none"))).toBeNull();
    const folder = join(labPaths().exercises, "01-tool-loop", "fixtures");
    expect(() => exerciseFixtures("01-tool-loop", tempDir("fixtures-none"))).toThrow(FIXTURE_ERRORS.none("01-tool-loop", folder));
    expect(FIXTURE_ERRORS.none("01-tool-loop", folder)).toBe(`Exercise 01-tool-loop has no fixtures: there is no folder ${folder}.`);
  });

  test("walled (LAB_FIXTURES set), a test gets the lab's copy, or is told the lab laid none", () => {
    const tmp = tempDir("fixtures-walled");
    process.env[FIXTURES_ENV] = workerSandbox([], 512, tmp).env[FIXTURES_ENV];
    expect(process.env[FIXTURES_ENV]).toBe(fixturesIn(tmp));
    expect(() => exerciseFixtures("08-offloading", "/nowhere")).toThrow(FIXTURE_ERRORS.notLaid("08-offloading", fixturesIn(tmp)));
    expect(FIXTURE_ERRORS.notLaid("08-offloading", "/t")).toBe(
      "The lab laid no fixtures for 08-offloading in /t: this worker may not make them itself (it runs walled off).",
    );
    const laid = layFixtures(OFFLOADING, "08-offloading", fixturesIn(tmp));
    expect(exerciseFixtures("08-offloading", "/nowhere")).toBe(laid);
  });
});

test("why fixtures exist: a walled worker may not make a link, even inside its own writable folder", () => {
  const tmp = realpathSync(tempDir("fixtures-why"));
  const { execArgv } = workerSandbox([], 512, tmp);
  const script = `require("node:fs").symlinkSync("target", ${JSON.stringify(join(tmp, "link"))})`;
  const run = spawnSync(process.execPath, [...execArgv.filter((f) => !f.startsWith("--max-old")), "-e", script], { encoding: "utf8" });
  expect(run.status).not.toBe(0);
  expect(run.stderr).toContain("fs.symlink API requires full fs.read and fs.write permissions");
});
