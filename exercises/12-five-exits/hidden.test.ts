import Anthropic from "@anthropic-ai/sdk";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { approve, load, newRun, pending, reject, run, subagent, type RunState, type Tool, type TraceEvent } from "lab:impl";
import { learnerCaughtUp, useScenario, type ScenarioSession } from "lab:test";

/** The contract's opus prices, USD per token: the tests price the wire themselves. */
const OPUS = { in: 5e-6, out: 25e-6 };
const CENT = 1e-9;

const FILES: Record<string, string> = {
  "access.log": "GET /health 200\nGET /health 200",
  "errors.log": "worker 7 timed out after 30000 ms\nworker 3 restarted",
  "notes.txt": "Remember to rotate the logs.",
};

/** More model calls than any run here needs: a loop that never stops is cut off by the network, not the test timeout. */
const FUSE = 60;

/** A fetch that runs `hook` with each call's number (from 1) before sending it. */
function hooked(hook: (call: number) => Promise<void> | void): typeof fetch {
  let made = 0;
  return async (input, init) => {
    await hook(++made);
    return fetch(input, init);
  };
}

/** A session; with a hook, its calls go through the test's own fetch so the hook runs before each. */
const open = (scenario: string, hook?: (call: number) => Promise<void> | void, options: Record<string, number> = {}): Promise<ScenarioSession> =>
  useScenario(scenario, { options, fuse: FUSE, ...(hook && { client: { fetch: hooked(hook) } }) });

/** What every call the provider answered cost, priced by the test. */
function wireCosts(session: ScenarioSession): number[] {
  return session.calls().flatMap((c) => (c.usage ? [c.usage.input_tokens * OPUS.in + c.usage.output_tokens * OPUS.out] : []));
}
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** The workspace's tools; `ran` lists every real run, as "name:path". */
function workspace(flags: { readOnly?: boolean; needsApproval?: boolean; hang?: string } = {}) {
  const ran: string[] = [];
  const deleted: string[] = [];
  const schema: Anthropic.Tool.InputSchema = { type: "object", properties: { path: { type: "string" } } };
  // Frozen, so each crosses to the learner's realm as a copy: its fields are read there without a round trip.
  const tools: Tool[] = [
    Object.freeze<Tool>({
      name: "list_files", description: "Lists the files.", input_schema: { type: "object", properties: {} }, readOnly: flags.readOnly,
      run: () => {
        ran.push("list_files");
        return Object.keys(FILES).join("\n");
      },
    }),
    Object.freeze<Tool>({
      name: "read_file", description: "Reads one file.", input_schema: schema, readOnly: flags.readOnly,
      run: (input) => {
        const path = String(input["path"]);
        if (flags.hang === "read_file") return new Promise<string>(() => {});
        ran.push(`read_file:${path}`);
        if (!(path in FILES)) throw new Error(`no such file: ${path}. Call list_files to see what exists.`);
        return FILES[path]!;
      },
    }),
    Object.freeze<Tool>({
      name: "delete_file", description: "Deletes one file.", input_schema: schema, needsApproval: flags.needsApproval,
      run: (input) => {
        ran.push(`delete_file:${String(input["path"])}`);
        deleted.push(String(input["path"]));
        return "";
      },
    }),
  ];
  return { tools, ran, deleted };
}

/** A forecast tool for the `weather` scenario, which asks for three cities in one turn. */
const forecast: Tool = {
  name: "get_weather", description: "Today's or tomorrow's weather for one city.",
  input_schema: { type: "object", properties: { city: { type: "string" }, day: { type: "string" } } },
  run: (input) => `sunny in ${String(input["city"])} ${String(input["day"] ?? "today")}`,
};

/** The ids of every tool call the provider served, in order. */
const servedCallIds = (session: ScenarioSession) =>
  session.calls().flatMap((c) => ((c.response as Anthropic.Message | undefined)?.content ?? []).flatMap((b) => (b.type === "tool_use" ? [b.id] : [])));

/** Where a request's tool results sit: for each assistant turn that asked for tools, the messages after it that answer it. */
function carriersOfResults(messages: Anthropic.MessageParam[]): number[][] {
  const carriers: number[][] = [];
  messages.forEach((m, i) => {
    if (m.role !== "assistant" || typeof m.content === "string") return;
    const ids = new Set(m.content.flatMap((b) => (b.type === "tool_use" ? [b.id] : [])));
    if (ids.size === 0) return;
    const holding: number[] = [];
    for (let j = i + 1; j < messages.length && messages[j]!.role === "user"; j++) {
      const content = messages[j]!.content;
      if (typeof content !== "string" && content.some((b) => b.type === "tool_result" && ids.has(b.tool_use_id))) holding.push(j);
    }
    carriers.push(holding);
  });
  return carriers;
}

/** Every run's folder lives under one base, removed when the file's tests are done. */
const base = mkdtempSync(join(tmpdir(), "lab-12-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const tempDir = () => mkdtempSync(join(base, "run-"));

// Every test opens sessions, tools and folders of its own and shares nothing, so they run side by
// side (describe.concurrent): a run waits on its realm as often as on its provider, and another
// test's run fills the wait, so a save's verdict comes sooner; what each test printed stays its own.
// The two whose Stop has a grace in real time run alone, last; the two that poll use their own
// `expect`, the one that knows which test it belongs to.
describe.concurrent("12 five exits", () => {
  test("a reply cut off at max_tokens ends the run as failed, not completed (truncation-completes bug)", async () => {
    const session = await open("truncated");
    const end = await run(newRun("Write the whole report."), workspace().tools, { client: session.client, maxTokens: 100 });

    expect(session.calls()[0]?.response).toMatchObject({ stop_reason: "max_tokens" });
    expect(end.status).toBe("failed");
    expect(end.output).toBeNull();
    expect(end.error, "failed carries its reason").toMatch(/\S/);
  });

  test("an API error ends the run as failed with its message; run does not throw (api-error-throws bug)", async () => {
    const session = await open("bad-request");
    const end = await run(newRun("Summarise errors.log."), workspace().tools, { client: session.client });

    expect(end.status).toBe("failed");
    expect(end.interruption).toBeNull();
    expect(end.error).toContain("max_tokens: 200000 > 128000");
  });

  test("stubborn at maxTurns 6: max_turns_exceeded after exactly 6 model calls (turn-cap-off-by-one bug)", async () => {
    const session = await open("stubborn");
    // A read the process may never do: no wording can fix it, so the model retries until the cap.
    const denied: Tool = {
      name: "read_file", description: "Reads one file.", input_schema: { type: "object", properties: { path: { type: "string" } } },
      run: () => "Error: permission denied: /var/log/secure",
    };
    const end = await run(newRun("What does /var/log/secure say?"), [denied], { client: session.client, maxTurns: 6 });

    expect(end.status).toBe("max_turns_exceeded");
    expect(end.interruption).toEqual({ type: "max_turns" });
    expect(session.calls(), "model calls").toHaveLength(6);
    expect(end.turns).toBe(6);
    expect(end.output).toBeNull();
  });

  test("runaway at $0.01: budget_exceeded, every call on the books, at most one turn over (budget-checked-late bug)", async () => {
    const session = await open("runaway");
    const limit = 0.01;
    const end = await run(newRun("Tidy up the workspace."), workspace().tools, { client: session.client, maxBudgetUsd: limit, maxTurns: 1000 });

    const costs = wireCosts(session);
    expect(end.status, "how the run ended, with a budget of $0.01 and 1000 turns").toBe("budget_exceeded");
    expect(end.costUsd, "the run's books match what the provider charged (budget-checked-late bug)").toBeCloseTo(sum(costs), 9);
    expect(sum(costs)).toBeGreaterThanOrEqual(limit - CENT);
    // Checked before each call: only the call that crossed the line may be over it.
    expect(sum(costs.slice(0, -1)), "spent before the last call (budget-checked-late bug)").toBeLessThan(limit);
    expect(end.turns).toBe(costs.length);
  });

  test("a budget stop names its limit: max_budget in the interruption and in run_stopped (budget-interruption-max-turns bug)", async () => {
    const session = await open("runaway");
    const events: TraceEvent[] = [];
    const end = await run(newRun("Tidy up the workspace."), workspace().tools, Object.freeze({ client: session.client, maxBudgetUsd: 0.002, maxTurns: 1000, onEvent: (e: TraceEvent) => events.push(e) }));

    expect(end.status, "how the run ended, with a budget of $0.002 and 1000 turns").toBe("budget_exceeded");
    expect(end.interruption, "the interruption (budget-interruption-max-turns bug)").toEqual({ type: "max_budget" });
    expect(
      events.filter((e) => e.type === "run_stopped"),
      "the run_stopped events (budget-interruption-max-turns bug)",
    ).toEqual([expect.objectContaining({ status: "budget_exceeded", reason: "max_budget" })]);

    // Each model at its own price: the books match the wire priced at sonnet's and haiku's rates, quoted in USD per million tokens.
    const perMillion = new Map([
      ["claude-sonnet-5", { input: 3, output: 15 }],
      ["claude-haiku-4-5", { input: 1, output: 5 }],
    ] as const);
    for (const [model, usd] of perMillion) {
      const priced = await open("runaway");
      const short = await run(newRun("Tidy up the workspace.", { model }), workspace().tools, { client: priced.client, maxTurns: 2 });
      const charged = sum(priced.calls().map((c) => (c.usage!.input_tokens * usd.input + c.usage!.output_tokens * usd.output) / 1e6));
      expect(short.costUsd, `${model} at its own price`).toBeCloseTo(charged, 9);
    }

    // A budget stop is resumable: raised, the run goes on.
    const before = session.calls().length;
    const raised = await run(end, workspace().tools, { client: session.client, maxBudgetUsd: 0.004, maxTurns: 1000 });
    expect(raised.status).toBe("budget_exceeded");
    expect(session.calls().length, "more calls under the higher limit").toBeGreaterThan(before);
  });

  test("a run stopped at max_turns resumes with a higher cap and finishes at the same cost (limits-are-final bug)", async () => {
    const system = "You read logs for an operator. Quote what you find.";
    const whole = await open("plan");
    const reference = await run(newRun("Which log mentions a timeout?", { system }), workspace().tools, { client: whole.client });

    const session = await open("plan");
    const { tools, ran } = workspace();
    const stopped = await run(newRun("Which log mentions a timeout?", { system }), tools, { client: session.client, maxTurns: 1 });
    expect(stopped.status).toBe("max_turns_exceeded");
    const copy = JSON.parse(JSON.stringify(stopped)) as RunState;
    expect(copy, "the state is plain data").toEqual(stopped);

    const end = await run(copy, tools, { client: session.client, maxTurns: 20 });
    expect(end.status).toBe("completed");
    expect(end.output).toContain("worker 7 timed out");
    expect(session.calls(), "model calls across both runs").toHaveLength(3);
    expect(ran.sort()).toEqual(["list_files", "read_file:errors.log"]);
    expect(session.bodies().map((b) => b.system), "the system prompt travels with the state").toEqual([system, system, system]);
    expect(end.costUsd).toBeCloseTo(reference.costUsd, 9);

    const again = await run(end, tools, { client: session.client, maxTurns: 20 });
    expect(again.status, "a completed run is not resumed").toBe("completed");
    expect(session.calls()).toHaveLength(3);
  });

  test("recover under three error policies: told what happened it recovers, told nothing it gives up, fatal fails (tool-error-escapes bug)", async () => {
    const goal = "What does the timeout log say?";
    const told = await open("recover");
    const events: TraceEvent[] = [];
    const byMessage = await run(newRun(goal), workspace().tools, Object.freeze({ client: told.client, onEvent: (e: TraceEvent) => events.push(e) }));
    const vague = await open("recover");
    const byGeneric = await run(newRun(goal), workspace().tools, { client: vague.client, toolErrorText: () => "the tool failed" });
    const fatal = await open("recover");
    const byFatal = await run(newRun(goal), workspace().tools, { client: fatal.client, toolErrorsAreFatal: true });

    expect(byMessage.status).toBe("completed");
    expect(byMessage.output).toContain("worker 7 timed out");
    expect(told.calls(), "message policy: read, list, read, answer").toHaveLength(4);
    const sent = told.bodies().at(-1)!.messages.flatMap((m) => (typeof m.content === "string" ? [] : m.content));
    expect(sent).toContainEqual(expect.objectContaining({ type: "tool_result", is_error: true, content: expect.stringContaining("no such file: timeout.log") }));
    const failedRead = told.calls()[0]!.response as Anthropic.Message;
    const failedId = failedRead.content.find((b) => b.type === "tool_use")!.id;
    expect(events.find((e) => e.type === "tool_result" && e["callId"] === failedId), "the failed run in the trace").toMatchObject({ toolName: "read_file", ok: false });
    for (const e of events.filter((ev) => ev.type === "tool_result")) expect(e["ms"], "a tool's time in ms").toSatisfy((ms: number) => ms >= 0 && ms < 60_000);

    expect(byGeneric.status).toBe("completed");
    expect(byGeneric.output).toContain("no answer");
    expect(vague.calls(), "generic policy: read, give up").toHaveLength(2);

    expect(byFatal.status).toBe("failed");
    expect(byFatal.error).toContain("no such file: timeout.log");
    expect(fatal.calls(), "fatal policy: one call").toHaveLength(1);
    expect(byFatal.costUsd).toBeLessThan(byGeneric.costUsd);
    expect(byGeneric.costUsd).toBeLessThan(byMessage.costUsd);
  });

  test("a repeated read-only call is answered from the run's memory: the tool runs once (no-read-cache bug)", async () => {
    const session = await open("repeat-read");
    const { tools, ran } = workspace({ readOnly: true });
    const end = await run(newRun("What does errors.log say?"), tools, { client: session.client });

    expect(end.status).toBe("completed");
    expect(ran).toEqual(["read_file:errors.log"]);
    const results = session.bodies().at(-1)!.messages.flatMap((m) => (typeof m.content === "string" ? [] : m.content)).filter((b) => b.type === "tool_result");
    expect(results, "both tool_use ids are still answered").toHaveLength(2);
    expect(JSON.stringify(results)).toContain("worker 7 timed out");

    // The gate's key is the name and the input together: another read-only tool with the same input,
    // or the same tool with another input, runs.
    const count: Tool = { name: "count_files", description: "Counts the files.", input_schema: { type: "object", properties: {} }, readOnly: true, run: () => (ran.push("count_files"), "3") };
    const state = newRun("Which log mentions a timeout?");
    state.messages.push(
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_01List", name: "list_files", input: {} }, { type: "tool_use", id: "toolu_01Notes", name: "read_file", input: { path: "notes.txt" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01List", content: "access.log\nerrors.log\nnotes.txt" }, { type: "tool_result", tool_use_id: "toolu_01Notes", content: FILES["notes.txt"]! }] },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_01Count", name: "count_files", input: {} }, { type: "tool_use", id: "toolu_01Errors", name: "read_file", input: { path: "errors.log" } }] },
    );
    state.turns = 2;
    ran.length = 0;
    const gated = await run(state, [...tools, count], { client: (await open("plan")).client });
    expect(gated.status).toBe("completed");
    expect(ran.sort(), "neither is the earlier call").toEqual(["count_files", "read_file:errors.log"]);
  });

  test("a call to a tool that is not in the list goes back as an is_error result naming it; the run goes on (unknown-tool-crashes bug)", async () => {
    const session = await open("plan");
    const listing = workspace().tools.filter((t) => t.name === "list_files").map((t) => ({ ...t, readOnly: true }));
    const end = await run(newRun("Which log mentions a timeout?"), listing, { client: session.client });

    expect(end.status).toBe("completed");
    const sent = session.bodies().at(-1)!.messages.flatMap((m) => (typeof m.content === "string" ? [] : m.content));
    expect(sent.find((b) => b.type === "tool_result" && b.is_error === true), "the missing tool, named").toMatchObject({ content: expect.stringContaining("read_file") });
  });

  test("a repeated delete runs twice: two tool_use ids are two calls (caches-writes bug)", async () => {
    const session = await open("repeat-delete");
    const { tools, deleted } = workspace();
    const end = await run(newRun("Free some space."), tools, { client: session.client });

    expect(end.status).toBe("completed");
    expect(deleted).toEqual(["access.log", "access.log"]);
  });

  test("needsApproval stops the run before the delete and hands back the call; approve resumes it (approval-ignored bug)", async () => {
    const session = await open("destructive");
    const { tools, deleted } = workspace({ needsApproval: true });
    const events: TraceEvent[] = [];
    const stopped = await run(newRun("Free some disk space."), tools, Object.freeze({ client: session.client, onEvent: (e: TraceEvent) => events.push(e) }));

    expect(stopped.status).toBe("interrupted");
    expect(deleted, "nothing is deleted before a person decides").toEqual([]);
    expect(session.calls()).toHaveLength(2);
    const asked = session.calls()[1]!.response as Anthropic.Message;
    const call = asked.content.find((b): b is Anthropic.ToolUseBlock => b.type === "tool_use")!;
    expect(stopped.interruption).toMatchObject({ type: "approval", callId: call.id, toolName: "delete_file", input: { path: "access.log" } });
    expect(pending(stopped).map((c) => c.id)).toEqual([call.id]);
    expect(events.filter((e) => e.type === "approval_required")).toEqual([
      expect.objectContaining({ runId: stopped.runId, toolName: "delete_file", callId: call.id, input: { path: "access.log" } }),
    ]);

    const end = await run(approve(stopped, call.id), tools, { client: session.client });
    expect(end.status).toBe("completed");
    expect(deleted).toEqual(["access.log"]);
    expect(end.output).toContain("Deleted access.log");
  });

  test("a rejection goes into the transcript with its reason; with none the agent claims a deletion that never happened (reason-dropped bug)", async () => {
    // The state of a run that stopped for approval, built by hand: a run is data.
    const stoppedAtDelete = (): RunState => {
      const state = newRun("Free some disk space.");
      state.messages.push(
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_01ListFiles", name: "list_files", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01ListFiles", content: Object.keys(FILES).join("\n") }] },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_01DeleteAccess", name: "delete_file", input: { path: "access.log" } }] },
      );
      return Object.assign(state, {
        turns: 2, status: "interrupted" as const,
        interruption: { type: "approval" as const, callId: "toolu_01DeleteAccess", toolName: "delete_file", input: { path: "access.log" } },
      });
    };
    const withReason = await open("destructive");
    const a = workspace({ needsApproval: true });
    const reason = "The user declined: access.log is kept for the audit.";
    const told = await run(reject(stoppedAtDelete(), "toolu_01DeleteAccess", reason), a.tools, { client: withReason.client });
    const silent = await open("destructive");
    const b = workspace({ needsApproval: true });
    const lied = await run(reject(stoppedAtDelete(), "toolu_01DeleteAccess"), b.tools, { client: silent.client });

    expect([...a.deleted, ...b.deleted], "a rejected call never runs").toEqual([]);
    expect(JSON.stringify(withReason.bodies()[0]!.messages.at(-1)), "the reason is what the model reads").toContain("kept for the audit");
    expect(told.output).toContain("did not delete anything");
    // The chapter's measured lie: an empty slot reads as success.
    expect(lied.output).toContain("Deleted access.log");
    const slot = JSON.parse(JSON.stringify(silent.bodies()[0]!.messages.at(-1)!.content)) as Anthropic.ToolResultBlockParam[];
    const written = slot.find((b) => b.type === "tool_result" && b.tool_use_id === "toolu_01DeleteAccess")!;
    expect([undefined, "", []], "rejected with no reason: an empty text").toContainEqual(written.content);
  });

  test("a run abandoned inside a tool resumes from disk: only the outstanding call runs, no extra model call (resumes-with-model-call bug)", async ({ expect }) => {
    const whole = await open("plan");
    const reference = await run(newRun("Which log mentions a timeout?"), workspace().tools, { client: whole.client });

    const dir = tempDir();
    const session = await open("plan");
    const first = workspace({ hang: "read_file" });
    const state = newRun("Which log mentions a timeout?");
    void run(state, first.tools, { client: session.client, saveDir: dir }); // dies inside read_file: never settles
    await expect.poll(() => session.calls().length).toBe(2);
    await expect.poll(() => pending(load(dir, state.runId)).map((c) => c.name)).toEqual(["read_file"]);

    const second = workspace();
    const end = await run(load(dir, state.runId), second.tools, { client: session.client, saveDir: dir });
    expect(end.status).toBe("completed");
    expect([...first.ran, ...second.ran].sort()).toEqual(["list_files", "read_file:errors.log"]);
    expect(session.calls(), "model calls across both lives").toHaveLength(3);
    expect(end.costUsd).toBeCloseTo(reference.costUsd, 9);
  });

  test("a run that dies before its third call resumes from disk with both results: no tool runs twice (no-save-after-tools bug)", async ({ expect }) => {
    const dir = tempDir();
    let die = true;
    let reachedThird = false;
    let endFirstLife: (why: Error) => void = () => {};
    const hang = () => new Promise<void>((_, reject) => (endFirstLife = reject));
    const session = await open("plan", (n) => (n === 3 && die ? ((reachedThird = true), hang()) : undefined));
    const first = workspace();
    const state = newRun("Which log mentions a timeout?");
    void run(state, first.tools, { client: session.client, saveDir: dir }); // dies at the third call: never settles
    await expect.poll(() => reachedThird).toBe(true);
    expect(first.ran).toEqual(["list_files", "read_file:errors.log"]);

    die = false;
    const second = workspace();
    const restored = load(dir, state.runId);
    expect(restored.turns).toBe(2);
    expect(restored.costUsd).toBeCloseTo(sum(wireCosts(session)), 9);
    const end = await run(restored, second.tools, { client: session.client });
    expect(end.status).toBe("completed");
    expect(second.ran, "the second life runs nothing the first already did").toEqual([]);
    expect(end.costUsd).toBeCloseTo(sum(wireCosts(session)), 9);
    // The first life's call would hold the SDK's request timer for minutes in a worker kept for the next file.
    endFirstLife(new Error("the first life is over"));
  });

  test("the JSONL trace: one line per event, in order, the run id on every line (trace-missing-run-id bug)", async () => {
    const session = await open("plan");
    const file = join(tempDir(), "trace.jsonl");
    const seen: TraceEvent[] = [];
    const tools = workspace().tools.map((tool) =>
      tool.name === "read_file" ? Object.freeze<Tool>({ ...tool, run: (input, ctx) => (ctx.progress("opening errors.log"), tool.run(input, ctx)) }) : tool,
    );
    const end = await run(newRun("Which log mentions a timeout?"), tools, Object.freeze({ client: session.client, trace: file, onEvent: (e: TraceEvent) => seen.push(e) }));

    const lines = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as TraceEvent);
    expect(lines.map((l) => l.type)).toEqual(["turn", "tool_start", "tool_result", "turn", "tool_start", "tool_progress", "tool_result", "turn", "run_stopped"]);
    for (const line of lines) expect(line.runId, `${line.type} line`).toBe(end.runId);
    expect(seen.map((e) => [e.type, e.runId]), "onEvent gets the same events").toEqual(lines.map((l) => [l.type, l.runId]));
    const turns = lines.filter((l) => l.type === "turn");
    expect(turns.map((t) => t["turn"])).toEqual([1, 2, 3]);
    expect(turns.at(-1)!["costUsd"] as number).toBeCloseTo(end.costUsd, 9);
    expect(turns[0]!["input_tokens"]).toBe(session.calls()[0]!.usage!.input_tokens);
    expect(lines.find((l) => l.type === "tool_progress")).toMatchObject({ toolName: "read_file", label: "opening errors.log" });
    for (const l of lines.filter((line) => line.type === "tool_result")) {
      expect(l, "a tool that returned").toMatchObject({ ok: true });
      expect(l["ms"], "its time in ms").toSatisfy((ms: number) => ms >= 0 && ms < 60_000);
    }
    expect(lines.at(-1)).toMatchObject({ status: "completed", reason: null, turns: 3 });
  });

  test("a subagent behind a tool keeps its own window and turn cap, and stops with the caller's signal (subagent-ignores-limits bug)", async () => {
    const parent = await open("delegate");
    const child = await open("runaway");
    const research = subagent({ name: "research", description: "Investigates one question.", client: child.client, tools: workspace().tools, maxTurns: 3, maxBudgetUsd: 1 });
    const end = await run(newRun("Find the log that mentions a timeout."), [research], { client: parent.client });

    expect(research.readOnly).toBe(true);
    expect(research.input_schema).toMatchObject({ type: "object", properties: { question: { type: "string" } }, required: ["question"] });
    expect(end.status).toBe("completed");
    expect(child.bodies()[0]!.messages[0], "the child's goal is the question").toMatchObject({ role: "user", content: expect.stringContaining("timeout") });
    expect(end.output).toContain("From the research:");
    // The turn-cap test pins the exact count; here it is enough that the child's own cap of 3 held, not the default 20.
    expect(child.calls().length, "the child's model calls").toBeLessThanOrEqual(4);
    expect(JSON.stringify(parent.bodies()), "the parent sees a summary, not the child's transcript").not.toContain("list_files");

    const small = await open("runaway");
    const cheap = subagent({ name: "research", description: "Investigates.", client: small.client, tools: workspace().tools, maxTurns: 1, maxBudgetUsd: 1, model: "claude-haiku-4-5", system: "Be brief." });
    await cheap.run({ question: "Which log?" }, { signal: new AbortController().signal, progress: () => {} });
    expect(small.bodies()[0], "the child runs on its own model and system prompt").toMatchObject({ model: "claude-haiku-4-5", system: "Be brief." });

    const stop = new AbortController();
    const cancelled = await open("runaway", (n) => void (n === 2 && stop.abort("parent stopped")));
    const deep = subagent({ name: "research", description: "Investigates.", client: cancelled.client, tools: workspace().tools, maxTurns: 8, maxBudgetUsd: 1 });
    await Promise.resolve(deep.run({ question: "Which log?" }, { signal: stop.signal, progress: () => {} })).catch(() => "");
    expect(cancelled.calls().length, "the parent's Stop reaches the child").toBeLessThanOrEqual(2);
  });

  test("the state on disk is the state run returned, whichever way it stopped (final-stop-unsaved bug)", async () => {
    const dir = tempDir();
    const answering = await open("plan");
    const done = await run(newRun("Which log mentions a timeout?", { runId: "plan-1" }), workspace().tools, { client: answering.client, saveDir: dir });
    expect(done.status).toBe("completed");
    expect(load(dir, "plan-1"), "a completed run, as saved under the id it was given").toMatchObject({ status: "completed", output: done.output, turns: done.turns });

    const asking = await open("destructive");
    const waiting = await run(newRun("Free some disk space."), workspace({ needsApproval: true }).tools, { client: asking.client, saveDir: dir });
    expect(waiting.status).toBe("interrupted");
    expect(load(dir, waiting.runId), "a run waiting for a person, as saved").toMatchObject({ status: "interrupted", interruption: waiting.interruption });
  });

  test("the turn cap counts the run's model calls across resumes, not this call's (turns-per-call bug)", async () => {
    const session = await open("runaway");
    const { tools } = workspace();
    const first = await run(newRun("Tidy up the workspace."), tools, { client: session.client, maxTurns: 2 });
    expect(first.status).toBe("max_turns_exceeded");
    expect(session.calls()).toHaveLength(2);

    const same = await run(first, tools, { client: session.client, maxTurns: 2 });
    expect(same.status, "resumed under the cap it already reached").toBe("max_turns_exceeded");
    expect(session.calls(), "no model call past the cap").toHaveLength(2);
    const raised = await run(same, tools, { client: session.client, maxTurns: 3 });
    expect(raised.status).toBe("max_turns_exceeded");
    expect(session.calls(), "a cap one higher buys one more call").toHaveLength(3);
    expect(raised.turns).toBe(3);
  });

  test("pending finds the unanswered call of a two-call turn whose other call already has its result (pending-last-message bug)", async () => {
    // A process that died between the two calls of one turn: the listing is stored, the read is not.
    const state = newRun("Which log mentions a timeout?");
    state.messages.push(
      {
        role: "assistant",
        content: [
          { type: "text", text: "I will list the files and read errors.log." },
          { type: "tool_use", id: "toolu_01ListFiles", name: "list_files", input: {} },
          { type: "tool_use", id: "toolu_01ReadErrors", name: "read_file", input: { path: "errors.log" } },
        ],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01ListFiles", content: Object.keys(FILES).join("\n") }] },
    );
    state.turns = 1;
    expect(pending(state).map((c) => c.id)).toEqual(["toolu_01ReadErrors"]);

    const session = await open("plan");
    const { tools, ran } = workspace();
    const end = await run(state, tools, { client: session.client });
    expect(ran, "only the outstanding call runs").toEqual(["read_file:errors.log"]);
    expect(end.status).toBe("completed");
    expect(end.output).toContain("worker 7 timed out");
    expect(session.calls()).toHaveLength(1);

    // A reply that says something and asks for a tool is a tool turn: the call runs, the run goes on.
    const notes = await open("growing", undefined, { turns: 2, grow: 20 });
    const pages: string[] = [];
    const fetchPage: Tool = { name: "fetch_page", description: "Fetches one page.", input_schema: { type: "object", properties: { page: { type: "integer" } } }, run: (input) => (pages.push(String(input["page"])), "nothing new") };
    const read = await run(newRun("Read the report page by page."), [fetchPage], { client: notes.client });
    expect(read.status).toBe("completed");
    expect(pages).toEqual(["1", "2"]);
  });

  test("all results of one turn travel in one user message, a rejected one too (results-own-message bug)", async () => {
    const session = await open("weather");
    const end = await run(newRun("What is the weather in Paris, Tokyo and Lima, today and tomorrow?"), [forecast], { client: session.client });
    expect(end.status).toBe("completed");
    expect(session.calls(), "three cities a turn: two tool turns and the answer").toHaveLength(3);
    expect(carriersOfResults(session.bodies().at(-1)!.messages), "the messages holding each turn's results").toEqual([[2], [4]]);

    // A turn that asks to list and to delete: the listing runs, the delete waits for a person who rejects it.
    const state = newRun("Free some disk space.");
    state.messages.push({
      role: "assistant",
      content: [
        { type: "tool_use", id: "toolu_01ListFiles", name: "list_files", input: {} },
        { type: "tool_use", id: "toolu_01DeleteAccess", name: "delete_file", input: { path: "access.log" } },
      ],
    });
    state.turns = 1;
    const deciding = await open("destructive");
    const { tools, deleted } = workspace({ needsApproval: true });
    const stopped = await run(state, tools, { client: deciding.client });
    expect(stopped.interruption).toMatchObject({ type: "approval", callId: "toolu_01DeleteAccess" });
    const told = await run(reject(stopped, "toolu_01DeleteAccess", "The user declined."), tools, { client: deciding.client });
    expect(deleted).toEqual([]);
    expect(told.output).toContain("did not delete anything");
    expect(carriersOfResults(deciding.bodies().at(-1)!.messages), "both results in the one message after the turn").toEqual([[2]]);
  });

  test("tool_start and tool_result name the call they belong to (result-without-call-id bug)", async () => {
    const session = await open("weather");
    const events: TraceEvent[] = [];
    await run(newRun("What is the weather in Paris, Tokyo and Lima, today and tomorrow?"), [forecast], Object.freeze({ client: session.client, onEvent: (e: TraceEvent) => events.push(e) }));

    const asked = servedCallIds(session).sort();
    expect(asked).toHaveLength(6);
    const idsOf = (type: string) => events.filter((e) => e.type === type).map((e) => String(e["callId"])).sort();
    expect(idsOf("tool_start"), "each start names its call").toEqual(asked);
    expect(idsOf("tool_result"), "each result names its call").toEqual(asked);
  });

  test("a subagent that stops without an answer tells its parent so, never an empty result (subagent-empty-answer bug)", async () => {
    const child = await open("runaway");
    const research = subagent({ name: "research", description: "Investigates one question.", client: child.client, tools: workspace().tools, maxTurns: 2, maxBudgetUsd: 1 });
    const said = await research.run({ question: "Which log mentions a timeout?" }, { signal: new AbortController().signal, progress: () => {} });
    expect(child.calls(), "the child stopped on its cap").toHaveLength(2);
    expect(said.trim(), "what the parent reads from a child with no answer").not.toBe("");

    const parent = await open("delegate");
    const again = await open("runaway");
    const helper = subagent({ name: "research", description: "Investigates one question.", client: again.client, tools: workspace().tools, maxTurns: 2, maxBudgetUsd: 1 });
    const end = await run(newRun("Find the log that mentions a timeout."), [helper], { client: parent.client });
    expect(end.output, "the parent answers from what the child said").toMatch(/From the research: \S/);
  });

  test("a reply cut off at max_tokens with a tool call in it ends failed, and the call never runs (cut-tool-call-runs bug)", async () => {
    const session = await open("cut-tool-call");
    const { tools, ran } = workspace();
    const write: Tool = {
      name: "write_file", description: "Writes one file.", input_schema: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } } },
      run: (input) => (ran.push(`write_file:${String(input["path"])}`), "written"),
    };
    const end = await run(newRun("List the files, then write the report."), [...tools, write], { client: session.client, maxTokens: 200 });

    const reply = session.calls()[0]!.response as Anthropic.Message;
    expect(reply.stop_reason).toBe("max_tokens");
    expect(reply.content.map((b) => b.type), "the cut-off reply still holds a tool call").toContain("tool_use");
    expect(end.status).toBe("failed");
    expect(ran, "no call of a cut-off reply runs").toEqual([]);
    expect(session.calls()).toHaveLength(1);
  });

  test('a reply in two text blocks is the whole output, joined with "" or "\\n" (output-first-block-only bug)', async () => {
    const session = await open("plan", undefined, { split: 1 });
    const end = await run(newRun("Which log mentions a timeout?"), workspace().tools, { client: session.client });

    const last = session.calls().at(-1)!.response as Anthropic.Message;
    const [first, second] = last.content.flatMap((b) => (b.type === "text" ? [b.text] : []));
    expect(second, "the answer came in two text blocks").toBeDefined();
    expect(end.status).toBe("completed");
    // The joiner is the learner's choice: a newline if the output holds one, else nothing.
    const whole = end.output?.includes("\n") ? `${first!}\n${second!}` : first! + second!;
    expect(end.output, "both blocks, joined with nothing or a newline").toBe(whole);
  });

  // Alone (test.sequential): its grace is real time, which another test's work must not eat into.
  test.sequential("Stop pressed during a six-step tool ends the run at the step it reached; progress arrives on the way (signal-not-passed bug)", async () => {
    const session = await open("slow-tool");
    const events: TraceEvent[] = [];
    const stop = new AbortController();
    // The tool's six steps of work wait on gates the test opens, so no real time passes: Stop is
    // pressed while the tool waits at its third gate, and a tool that hears it stops there.
    const gate: { open: (() => void) | null; reached: () => void } = { open: null, reached: () => {} };
    let openAll = false;
    let stepsDone = 0;
    const atNextGate = () => new Promise<void>((resolve) => (gate.reached = resolve));
    const scan: Tool = {
      name: "scan_archive", description: "Scans the archive.", input_schema: { type: "object", properties: { folder: { type: "string" } } },
      async run(_input, { signal, progress }) {
        for (let step = 1; step <= 6; step++) {
          await new Promise<void>((resolve, fail) => {
            signal.addEventListener("abort", () => fail(signal.reason), { once: true });
            if (openAll) return resolve();
            gate.open = resolve;
            gate.reached();
          });
          stepsDone = step;
          progress(`scanned ${step * 200} of 1200 files`);
        }
        return "1200 files, 3 archives";
      },
    };
    let waiting = atNextGate();
    const ending = run(newRun("Scan the archive."), [scan], Object.freeze({ client: session.client, signal: stop.signal, onEvent: (e: TraceEvent) => events.push(e) }));
    for (let step = 1; step <= 2; step++) {
      await waiting;
      waiting = atNextGate();
      gate.open!();
    }
    await waiting;
    stop.abort("user pressed Stop");
    // A tool that never hears Stop would wait at its gate for ever: after a grace, let it run on, so
    // the test fails on what it did, not on a time limit.
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<false>((resolve) => (graceTimer = setTimeout(() => resolve(false), 500)));
    if (!(await Promise.race([ending.then(() => true), grace]))) {
      openAll = true;
      gate.open?.();
    }
    // Nothing of this test may outlive it in a worker kept for the next file.
    clearTimeout(graceTimer);
    const end = await ending;

    expect(stepsDone, "steps the tool finished: Stop reached it at its third (one that never hears Stop does all six)").toBe(2);
    expect(end.status).toBe("interrupted");
    expect(end.interruption).toEqual({ type: "cancelled", reason: "user pressed Stop" });
    const labels = events.filter((e) => e.type === "tool_progress").map((e) => e["label"]);
    expect(labels, "progress of the two steps done before the Stop").toEqual(["scanned 200 of 1200 files", "scanned 400 of 1200 files"]);
    expect(pending(end).map((c) => c.name), "the call cut short stays outstanding").toEqual(["scan_archive"]);
    expect(session.calls()).toHaveLength(1);

    // Stop pressed while a model call is on its way: that call is cancelled too, never answered
    // (the request goes out only once the learner's code has heard the Stop).
    const halt = new AbortController();
    const midCall = await open("runaway", async (n) => {
      if (n !== 2) return;
      halt.abort("user pressed Stop");
      await learnerCaughtUp();
    });
    const cut = await run(newRun("Tidy up the workspace."), workspace().tools, { client: midCall.client, signal: halt.signal });
    expect(cut.interruption).toEqual({ type: "cancelled", reason: "user pressed Stop" });
    expect(midCall.calls(), "the provider never got the second call").toHaveLength(1);
  });

  // Alone (test.sequential): its grace is real time, which another test's work must not eat into.
  test.sequential("with toolErrorsAreFatal, Stop during a tool still ends the run interrupted and cancelled (fatal-cancel-fails bug)", async () => {
    const session = await open("slow-tool");
    const stop = new AbortController();
    // The tool hears Stop and fails the way slow tools do, with an error of its own. One that never
    // hears it finishes after a grace, so the test fails on what the run did, not on a time limit.
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    const scan: Tool = {
      name: "scan_archive", description: "Scans the archive.", input_schema: { type: "object", properties: { folder: { type: "string" } } },
      run: (_input, { signal }) =>
        new Promise<string>((done, fail) => {
          signal.addEventListener("abort", () => fail(new Error("the scan was stopped")), { once: true });
          graceTimer = setTimeout(() => done("1200 files, 3 archives"), 500);
          stop.abort("user pressed Stop");
        }),
    };
    const end = await run(newRun("Scan the archive."), [scan], { client: session.client, signal: stop.signal, toolErrorsAreFatal: true });
    // Nothing of this test may outlive it in a worker kept for the next file.
    clearTimeout(graceTimer);

    expect(end.status, "Stop is not a tool error").toBe("interrupted");
    expect(end.interruption).toEqual({ type: "cancelled", reason: "user pressed Stop" });
    expect(pending(end).map((c) => c.name), "the call cut short stays outstanding").toEqual(["scan_archive"]);
  });
});
