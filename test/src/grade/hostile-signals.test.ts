/**
 * Signals, graded where even a grader that failed to refuse them could reach nothing but
 * the test's own processes: `lab grade` runs as the first process of a PID namespace made
 * for the test, so kill(-1) from a submission can only reach what that grading started.
 * Without such a namespace here, these tests are skipped (kill(-1) is never tried outside one).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { PID_NAMESPACE_ENV } from "../../../checker/run/walls/pid-namespace.js";
import { RUN_MESSAGES } from "../../../checker/model/result.js";
import { refusedSignal } from "../../../checker/run/walls/signal-wall.js";
import { pidNamespaceWrap } from "./hostile-arm.js";
import { classCopy, gradeChild, tempDir, type ChildRun } from "./support.js";

const wrap = pidNamespaceWrap();
const LEARNERS = ["ada", "18-kills-parent", "19-kills-own-group", "23-kills-everyone"];

interface Row {
  learner: string;
  state: string;
  detail: string | null;
}

async function gradeInNamespace(env: NodeJS.ProcessEnv): Promise<{ run: ChildRun; rows: Map<string, Row> }> {
  const dir = classCopy(LEARNERS);
  const out = join(tempDir("out"), "grades.json");
  const run = await gradeChild(dir, { exercises: "1", format: "json", out }, { env, wrap: wrap! }).done;
  const rows = (JSON.parse(readFileSync(out, "utf8")) as { rows: Row[] }).rows;
  return { run, rows: new Map(rows.map((row) => [row.learner, row])) };
}

describe.skipIf(!wrap)("signals from learner code, graded inside a PID namespace made for the test", () => {
  let own: { run: ChildRun; rows: Map<string, Row> };
  let fallback: { run: ChildRun; rows: Map<string, Row> };

  beforeAll(async () => {
    own = await gradeInNamespace(process.env);
    // Workers without namespaces of their own: only process._kill's refusal stands between.
    fallback = await gradeInNamespace({ ...process.env, [PID_NAMESPACE_ENV]: "off" });
  }, 120_000);

  test("grading finishes, exits 0 and the honest learner passes, with and without worker namespaces", () => {
    for (const { run, rows } of [own, fallback]) {
      expect(run).toMatchObject({ code: 0, signal: null });
      expect(rows.get("ada")).toMatchObject({ state: "pass", detail: null });
    }
  });

  test("kill(-1) is refused, with and without worker namespaces", () => {
    for (const { rows } of [own, fallback]) {
      expect(rows.get("23-kills-everyone")).toMatchObject({ state: "error", detail: RUN_MESSAGES.importFailed(refusedSignal(-1)) });
    }
  });

  test("kill(0) is refused, with and without worker namespaces", () => {
    for (const { rows } of [own, fallback]) {
      expect(rows.get("19-kills-own-group")).toMatchObject({ state: "error", detail: RUN_MESSAGES.importFailed(refusedSignal(0)) });
    }
  });

  test("kill(ppid) is refused: the namespace's shell in one (pid 1), lab grade itself (pid 1 in the test's namespace) without", () => {
    for (const { rows } of [own, fallback]) {
      expect(rows.get("18-kills-parent")).toMatchObject({ state: "error", detail: RUN_MESSAGES.importFailed(refusedSignal(1)) });
    }
  });
});
