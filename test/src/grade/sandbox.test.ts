import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { SIGNALS_ENV } from "../../../checker/run/walls/signal-wall.js";
import { FIXTURES_ENV } from "../../../checker/testing/fixtures.js";
import { permissionFlag, workerSandbox } from "../../../src/grade/sandbox.js";
import { realmFlags } from "../../../checker/realm/host.js";
import { tempDir } from "./support.js";

test("the permission flag of the Node that runs: --permission where it exists, else the experimental one", () => {
  expect(permissionFlag(new Set(["--permission"]))).toBe("--permission");
  expect(permissionFlag(new Set(["--experimental-permission"]))).toBe("--experimental-permission");
});

test("workers may read only the given folders (as spelled and as real paths), write nowhere, start no process; only their realm may start a thread, and learner code none", () => {
  const real = tempDir("sandbox");
  const link = join(tempDir("link"), "lab");
  symlinkSync(real, link);
  const { execArgv } = workerSandbox([link], 768);
  expect(execArgv).toEqual([
    permissionFlag(),
    `--allow-fs-read=${join(link, "*")}`,
    `--allow-fs-read=${join(realpathSync(real), "*")}`,
    "--allow-worker",
    "--disable-warning=ExperimentalWarning",
    "--disable-warning=SecurityWarning",
    "--max-old-space-size=768",
  ]);
  expect(execArgv.some((flag) => /^--allow-(fs-write|child-process)/.test(flag))).toBe(false);
  // The learner's realm is walled by the same permissions, named again, but for the right to start threads.
  expect(realmFlags(execArgv)).toEqual([
    permissionFlag(),
    ...execArgv.filter((flag) => flag.startsWith("--allow-fs-read")),
    "--disable-warning=ExperimentalWarning",
  ]);
});

test("the workers' whole environment is a fixed handful of variables, whatever the grader's holds", () => {
  process.env["LAB_GRADE_TEST_SECRET"] = "do-not-pass-on";
  try {
    // LAB_SIGNALS: the worker refuses to signal any process but its own (checker/run/walls/signal-wall.ts).
    expect(workerSandbox([], 512).env).toEqual({ PATH: "/usr/local/bin:/usr/bin:/bin", TZ: "UTC", LANG: "C.UTF-8", [SIGNALS_ENV]: "own" });
  } finally {
    delete process.env["LAB_GRADE_TEST_SECRET"];
  }
});

test("with a temp folder, workers may read and write there and nowhere else, and it is their TMPDIR", () => {
  const tmp = realpathSync(tempDir("sandbox-tmp"));
  const { execArgv, env } = workerSandbox([], 512, tmp);
  expect(execArgv.filter((flag) => flag.startsWith("--allow-fs-write"))).toEqual([`--allow-fs-write=${join(tmp, "*")}`]);
  expect(execArgv).toContain(`--allow-fs-read=${join(tmp, "*")}`);
  expect(env["TMPDIR"]).toBe(tmp);
  expect(env[FIXTURES_ENV], "where the lab lays fixtures the workers may not make").toBe(join(tmp, "lab-fixtures"));
});

test("a worker started while its temp folder is being emptied (there for no moment) may still write in it once it is back", () => {
  const tmp = join(realpathSync(tempDir("sandbox-gap")), "tmp");
  const { execArgv } = workerSandbox([], 256, tmp);
  rmSync(tmp, { recursive: true, force: true });
  // The worker starts with no folder there, then the folder comes back, as emptying it leaves it.
  const script = [
    `const fs = require("node:fs");`,
    `fs.mkdirSync(${JSON.stringify(tmp)}, { recursive: true });`,
    `fs.writeFileSync(${JSON.stringify(join(tmp, "note.txt"))}, "written");`,
    `try { fs.writeFileSync(${JSON.stringify(`${tmp}-evil`)}, "x"); } catch (err) { console.log(err.code); }`,
  ].join("\n");
  const worker = spawnSync(process.execPath, [...execArgv, "-e", script], { encoding: "utf8" });
  expect(worker.stderr).not.toMatch(/ERR_ACCESS_DENIED/);
  expect(worker.stdout.trim(), "a sibling whose name extends the folder's is still refused").toBe("ERR_ACCESS_DENIED");
  expect(readFileSync(join(tmp, "note.txt"), "utf8")).toBe("written");
  mkdirSync(tmp, { recursive: true });
});
