import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, onTestFinished, test } from "vitest";
import { OWNER_FILE, ownedTempDir, pidNamespace, removeStale } from "../../../../checker/run/walls/owned-temp.js";
import { tempDir } from "../../../support/temp-dir.js";

/** A pid that belonged to a process of ours that has exited. */
function deadPid(): number {
  const run = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(run.stdout);
}

function folder(parent: string, name: string, owner: string | null): string {
  const dir = join(parent, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "hidden.test.ts"), "a copy\n");
  if (owner !== null) writeFileSync(join(dir, OWNER_FILE), owner);
  return dir;
}

test("removes the folders of owners that are gone, keeps live ones, unowned ones and other prefixes", () => {
  const parent = tempDir("owned");
  const sleeper = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
  onTestFinished(() => void sleeper.kill("SIGKILL"));
  const dead = folder(parent, "lab-grade-dead01", `${deadPid()} \n`);
  const live = folder(parent, "lab-grade-live01", `${sleeper.pid} \n`);
  const probe = ownedTempDir("lab-probe-");
  onTestFinished(() => void spawnSync("rm", ["-rf", probe]));
  const self = folder(parent, "lab-grade-self01", readFileSync(join(probe, OWNER_FILE), "utf8"));
  const unowned = folder(parent, "lab-grade-none01", null);
  const other = folder(parent, "lab-run-dead01", `${deadPid()} \n`);
  expect(removeStale("lab-grade-", parent)).toEqual(["lab-grade-dead01"]);
  expect([dead, live, self, unowned, other].map(existsSync)).toEqual([false, true, true, true, true]);
});

test.runIf(process.platform === "linux")("a live pid that started at another time than the one recorded (a reused pid) counts as gone", () => {
  const parent = tempDir("owned");
  folder(parent, "lab-run-reused", `${process.pid} 1\n`);
  expect(removeStale("lab-run-", parent)).toEqual(["lab-run-reused"]);
});

test("a new folder records its owner, so the next one made can judge it", () => {
  const dir = ownedTempDir("lab-probe-");
  onTestFinished(() => void spawnSync("rm", ["-rf", dir]));
  const [pid, started] = readFileSync(join(dir, OWNER_FILE), "utf8").trim().split(" ");
  expect(Number(pid)).toBe(process.pid);
  if (process.platform === "linux") expect(started).toMatch(/^\d+$/);
});

test("a folder made in another PID namespace is never judged here: its pid means another process here (another lab's test sandbox)", () => {
  const parent = tempDir("owned");
  const elsewhere = folder(parent, "lab-grade-nsother", `${deadPid()} 1 pid:[1]\n`);
  const here = folder(parent, "lab-grade-nshere1", `${deadPid()} 1 ${pidNamespace()}\n`);
  expect(removeStale("lab-grade-", parent)).toEqual(["lab-grade-nshere1"]);
  expect([elsewhere, here].map(existsSync)).toEqual([true, false]);
});
