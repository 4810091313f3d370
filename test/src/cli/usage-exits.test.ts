import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { main } from "../../../src/cli/main.js";
import { CONTEXT_MESSAGES } from "../../../src/commands/context.js";
import { PROVIDER_MESSAGES } from "../../../src/commands/provider.js";
import { TRACE_MESSAGES } from "../../../src/commands/trace.js";
import { TRIAGE_MESSAGES } from "../../../src/commands/triage.js";
import { fakeIo } from "../screen/streams.js";
import { tempDir } from "../../support/temp-dir.js";

// Wrong usage is exit 2 in every command: a missing argument, or a file named that is not there.
function folder() {
  const cwd = tempDir("usage");
  writeFileSync(join(cwd, "lab.config.ts"), `export default { workspace: "./ws" };\n`);
  return cwd;
}

async function run(args: string[], cwd: string) {
  const io = fakeIo({ tty: false, cwd });
  const code = await main(["node", "lab", ...args], io);
  return { code, err: io.stderr.frames.join("") };
}

test("a missing argument: exit 2 with a sentence, for every command that takes one", async () => {
  const cwd = folder();
  for (const args of [["start"], ["check"], ["hint"], ["show"], ["reset"], ["solution"], ["trace"], ["show", "1", "--tier"], ["check", "1", "--file"]]) {
    const { code, err } = await run(args, cwd);
    expect(code, args.join(" ")).toBe(2);
    expect(err, args.join(" ")).toMatch(/^error: (missing required argument|option '.+' argument missing)/);
  }
  const triage = await run(["triage"], cwd);
  expect([triage.code, triage.err]).toEqual([2, `${TRIAGE_MESSAGES.noQuestion}\n`]);
});

test("a file that is not there: exit 2 and one sentence naming it, in lab check, lab trace and lab provider", async () => {
  const cwd = folder();
  const workspaceFile = join(cwd, "ws/01-tool-loop.ts");
  expect(await run(["check", "1"], cwd)).toEqual({ code: 2, err: `${CONTEXT_MESSAGES.noWorkspaceFile(workspaceFile, 1)}\n` });
  expect(await run(["check", "1", "--file", "gone.ts"], cwd)).toEqual({ code: 2, err: `${CONTEXT_MESSAGES.noFile(join(cwd, "gone.ts"))}\n` });
  expect(await run(["trace", "gone.jsonl"], cwd)).toEqual({ code: 2, err: `${TRACE_MESSAGES.unreadable("gone.jsonl", "ENOENT")}\n` });
  expect(await run(["provider", "--port", "0", "--scenarios", "gone.ts"], cwd)).toEqual({
    code: 2,
    err: `${PROVIDER_MESSAGES.noScenarioFile(join(cwd, "gone.ts"))}\n`,
  });
  expect(PROVIDER_MESSAGES.noScenarioFile("/x/gone.ts")).toBe("There is no scenario file at /x/gone.ts.");
});
