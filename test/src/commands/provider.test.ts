import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { CASSETTE_MESSAGES, RECORDER_MESSAGES } from "../../../checker/provider/index.js";
import { PROVIDER_MESSAGES } from "../../../src/commands/provider.js";
import { RECORD_MESSAGES } from "../../../src/commands/provider-record.js";
import { tempDir } from "../../support/temp-dir.js";
import { until } from "../../support/until.js";

const bin = join(import.meta.dirname, "../../../bin/lab.js");
const children: ChildProcess[] = [];
afterEach(() => children.splice(0).forEach((c) => c.kill("SIGKILL")));

function lab(args: string[], cwd = tempDir("provider-cmd")) {
  const child = spawn(process.execPath, [bin, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  let err = "";
  child.stdout!.on("data", (c: Buffer) => (out += c));
  child.stderr!.on("data", (c: Buffer) => (err += c));
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  const waitFor = async (pattern: RegExp) => {
    await until(() => pattern.test(out), `printing ${pattern}: ${out}${err}`, 5_000, 25).catch(() => {
      throw new Error(`never printed ${pattern}: ${out}${err}`);
    });
    return pattern.exec(out)!;
  };
  return { child, cwd, exited, waitFor, out: () => out, err: () => err };
}

const TOOLS: Anthropic.Tool[] = [
  { name: "get_weather", description: "Weather for a city", input_schema: { type: "object", properties: { city: { type: "string" } } } },
];

async function weatherConversation(baseURL: string, apiKey = "lab"): Promise<string> {
  const client = new Anthropic({ baseURL, apiKey, maxRetries: 0 });
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Weather in Paris, Tokyo and Lima, today and tomorrow?" }];
  for (let turn = 0; turn < 10; turn++) {
    const reply = await client.messages.create({ model: "claude-opus-5", max_tokens: 1024, tools: TOOLS, messages });
    if (reply.stop_reason !== "tool_use") return reply.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    messages.push({ role: "assistant", content: reply.content });
    messages.push({
      role: "user",
      content: reply.content.flatMap((b) => (b.type === "tool_use" ? [{ type: "tool_result" as const, tool_use_id: b.id, content: "14C, rain" }] : [])),
    });
  }
  throw new Error("the conversation did not end");
}

describe("lab provider", () => {
  test("serves the official SDK, prints a line per request, and stops cleanly on Ctrl-C", async () => {
    const run = lab(["provider", "--port", "0"]);
    const [, origin] = await run.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    // The scenario list follows the first line in writes of its own.
    await run.waitFor(/^ {2}weather {2,}get_weather for Paris, Tokyo and Lima/m);
    const answer = await weatherConversation(`${origin}/s/weather`);
    expect(answer).toContain("Lima: 14C, rain today, 14C, rain tomorrow.");
    await run.waitFor(/(POST \/s\/weather\/v1\/messages {2}200 [^\n]*\n[^\n]*){3}/);
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(0);
    expect(run.out().trimEnd().endsWith(PROVIDER_MESSAGES.stopped)).toBe(true);
  });

  test("serves the openai SDK on /v1/chat/completions and prints its line with the finish reason", async () => {
    const run = lab(["provider", "--port", "0"]);
    const [, origin] = await run.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await run.waitFor(/new OpenAI\(\{ baseURL: "http:\/\/127\.0\.0\.1:\d+\/s\/weather\/v1"/);
    const client = new OpenAI({ baseURL: `${origin}/s/echo/v1`, apiKey: "lab", maxRetries: 0 });
    const reply = await client.chat.completions.create({ model: "claude-haiku-4-5", messages: [{ role: "user", content: "hi" }] });
    expect(reply.choices[0]!.message.content).toBe("You said: hi");
    await run.waitFor(/POST \/s\/echo\/v1\/chat\/completions {2}200 stop {2}in \d+ · out \d+/);
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(0);
  });

  test("a port in use is one sentence and exit code 1, not a stack trace", async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", r));
    const { port } = blocker.address() as AddressInfo;
    try {
      const run = lab(["provider", "--port", String(port)]);
      expect(await run.exited).toBe(1);
      expect(run.err()).toBe(`${PROVIDER_MESSAGES.portInUse(port)}\n`);
    } finally {
      blocker.close();
    }
  });

  test("loads a user's scenario file and writes every exchange to a JSONL log", async () => {
    const cwd = tempDir("provider-cmd");
    writeFileSync(
      join(cwd, "mine.ts"),
      `import { defineScenario, text } from "harness-lab/scenarios";\n` +
        `export default [defineScenario({ name: "hello", description: "says hello", reply: (ctx) => text(\`hello, turn \${ctx.turn}\`) })];\n`,
    );
    const run = lab(["provider", "--port", "0", "--scenarios", "mine.ts", "--log", "log.jsonl"], cwd);
    const [, origin] = await run.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    // The scenario list follows the first line in writes of its own.
    await run.waitFor(/^ {2}hello {2,}says hello$/m);
    const client = new Anthropic({ baseURL: `${origin}/s/hello`, apiKey: "lab", maxRetries: 0 });
    const reply = await client.messages.create({ model: "claude-haiku-4-5", max_tokens: 32, messages: [{ role: "user", content: "hi" }] });
    expect(reply.content).toEqual([{ type: "text", text: "hello, turn 0" }]);
    await run.waitFor(/POST \/s\/hello\/v1\/messages {2}200/);
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(0);
    const lines = readFileSync(join(cwd, "log.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { path: string; status: number; scenario: string });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ path: "/s/hello/v1/messages", status: 200, scenario: "hello" });
  });

  test("a user's scenario declares its options; others are a 400 on the request's line, and the provider keeps serving", async () => {
    const cwd = tempDir("provider-cmd");
    writeFileSync(
      join(cwd, "mine.ts"),
      `import { defineScenario, integer, text } from "harness-lab/scenarios";\n` +
        `export default [defineScenario({ name: "count", description: "counts", options: { n: integer(1, 3) }, reply: (ctx) => text(\`n=\${ctx.options.n}\`) })];\n`,
    );
    const run = lab(["provider", "--port", "0", "--scenarios", "mine.ts"], cwd);
    const [, origin] = await run.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const ask = (path: string) =>
      fetch(`${origin}${path}/v1/messages`, {
        method: "POST",
        headers: { "x-api-key": "lab", "anthropic-version": "2023-06-01" },
        body: JSON.stringify({ model: "claude-opus-5", max_tokens: 32, messages: [{ role: "user", content: "hi" }] }),
      }).then(async (r) => [r.status, ((await r.json()) as { error?: { message: string } }).error?.message ?? "ok"]);
    expect(await ask("/s/count/n=2")).toEqual([200, "ok"]);
    expect(await ask("/s/count/n=9")).toEqual([400, 'Option "n" of scenario "count" must be an integer from 1 to 3; got "9".']);
    expect(await ask("/s/%ZZ")).toEqual([400, 'The path segment "%ZZ" is not valid percent-encoding.']);
    await run.waitFor(/POST \/s\/%ZZ\/v1\/messages {2}400 invalid_request_error: The path segment "%ZZ" is not valid percent-encoding\./);
    expect(await ask("/s/count/n=3")).toEqual([200, "ok"]);
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(0);
  });

  test("a scenario whose options are not declared with the helpers is refused when loaded", async () => {
    const cwd = tempDir("provider-cmd");
    writeFileSync(
      join(cwd, "odd.ts"),
      `export default [{ name: "odd", description: "d", options: { n: "int" }, reply: () => ({ kind: "drop", when: "before-headers" }) }];\n`,
    );
    const run = lab(["provider", "--port", "0", "--scenarios", "odd.ts"], cwd);
    expect(await run.exited).toBe(1);
    expect(run.err()).toBe(`${PROVIDER_MESSAGES.badScenario(join(cwd, "odd.ts"), 0)}\n`);
  });

  test("a scenario file without scenarios is refused in one sentence", async () => {
    const cwd = tempDir("provider-cmd");
    writeFileSync(join(cwd, "empty.ts"), "export default [];\n");
    const run = lab(["provider", "--port", "0", "--scenarios", "empty.ts"], cwd);
    expect(await run.exited).toBe(1);
    expect(run.err()).toBe(`${PROVIDER_MESSAGES.noScenarios(join(cwd, "empty.ts"))}\n`);
  });

  test("--record forwards to another provider and writes a cassette without the key; --replay serves it back", async () => {
    const upstream = lab(["provider", "--port", "0"]);
    const [, upstreamOrigin] = await upstream.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const cwd = tempDir("provider-cmd");
    const recorder = lab(["provider", "--port", "0", "--record", `${upstreamOrigin}/s/weather`, "--out", "cassette.jsonl"], cwd);
    const [, recorderOrigin] = await recorder.waitFor(/Recording on (http:\/\/127\.0\.0\.1:\d+)/);
    const key = "sk-ant-cli-0123456789abcdef";
    const answer = await weatherConversation(recorderOrigin!, key);
    expect(answer).toContain("Lima: 14C, rain today, 14C, rain tomorrow.");
    await recorder.waitFor(/(POST \/v1\/messages {2}200 recorded {2}\d+ ms\n[^]*){3}/);
    recorder.child.kill("SIGINT");
    expect(await recorder.exited).toBe(0);
    const cassette = readFileSync(join(cwd, "cassette.jsonl"), "utf8");
    expect(cassette.trim().split("\n")).toHaveLength(3);
    expect(cassette.includes(key)).toBe(false);

    const replay = lab(["provider", "--port", "0", "--replay", "cassette.jsonl"], cwd);
    const [, replayOrigin] = await replay.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await replay.waitFor(new RegExp(PROVIDER_MESSAGES.replaying(3, "cassette.jsonl").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")));
    expect(await weatherConversation(replayOrigin!, "any-other-key")).toBe(answer);
    await replay.waitFor(/POST \/v1\/messages {2}200 replayed exchange 3 /);
    replay.child.kill("SIGINT");
    upstream.child.kill("SIGINT");
    expect(await replay.exited).toBe(0);
  });

  test.each([
    [["--record", "http://127.0.0.1:1"], PROVIDER_MESSAGES.onlyWith("--record", "--out")],
    [["--out", "c.jsonl"], PROVIDER_MESSAGES.onlyWith("--out", "--record")],
    [["--record", "ftp://example.com", "--out", "c.jsonl"], RECORDER_MESSAGES.badUpstream("ftp://example.com")],
    [["--record", "http://127.0.0.1:1", "--out", "c.jsonl", "--latency", "100"], PROVIDER_MESSAGES.notWith("--record", "--latency")],
    [["--replay", "c.jsonl", "--scenarios", "mine.ts"], PROVIDER_MESSAGES.notWith("--replay", "--scenarios")],
    [["--replay", "missing.jsonl"], CASSETTE_MESSAGES.unreadable("missing.jsonl", "ENOENT")],
    [["--record", "http://127.0.0.1:1", "--out", "no/such/folder/c.jsonl"], RECORD_MESSAGES.unwritable("no/such/folder/c.jsonl", "ENOENT")],
  ])("lab provider %j is one sentence and exit 2", async (args, sentence) => {
    const run = lab(["provider", "--port", "0", ...args]);
    expect(await run.exited).toBe(2);
    expect(run.err()).toBe(`${sentence}\n`);
  });

  test("--latency and --per-token are said at start; a value that is not milliseconds is exit 2", async () => {
    const run = lab(["provider", "--port", "0", "--latency", "300", "--per-token", "20"]);
    await run.waitFor(new RegExp(PROVIDER_MESSAGES.pacing(300, 20).replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")));
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(0);
    const bad = lab(["provider", "--port", "0", "--latency", "soon"]);
    expect(await bad.exited).toBe(2);
    expect(bad.err()).toMatch(/a time is milliseconds from 0 to 600000\./);
  });
});
