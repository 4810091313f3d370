/** Exercise 12's scenarios do what their descriptions say, driven by the same small loop as the others. */
import type Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { drive, type Tools } from "./driver.js";
import { clientFor, MODEL, useProvider } from "./support.js";

const provider = useProvider();

const run = (scenario: string, goal: string, tools: Tools, maxSteps?: number) =>
  drive(clientFor(provider(), scenario), goal, { tools, ...(maxSteps ? { maxCalls: maxSteps } : {}) });
const answer = (message: Anthropic.Message) => (message.content[0] as Anthropic.TextBlock | undefined)?.text;
const asked = (replies: Anthropic.Message[]) =>
  replies.flatMap((r) => r.content.filter((b) => b.type === "tool_use").map((b) => `${b.name} ${JSON.stringify(b.input)}`));

describe("repeat-read", () => {
  it("asks for the same read twice with two ids, then quotes the second result", async () => {
    const result = await run("repeat-read", "What does errors.log say?", { read_file: () => "worker 7 timed out\nmore" });
    expect(asked(result.replies)).toEqual(['read_file {"path":"errors.log"}', 'read_file {"path":"errors.log"}']);
    const ids = result.replies.flatMap((r) => r.content.filter((b) => b.type === "tool_use").map((b) => b.id));
    expect(new Set(ids).size).toBe(2);
    expect(answer(result.final)).toBe("errors.log says: worker 7 timed out");
  });
});

describe("repeat-delete", () => {
  it("asks to delete access.log twice, then reports it", async () => {
    const result = await run("repeat-delete", "Free some space.", { delete_file: () => "" });
    expect(asked(result.replies)).toEqual(['delete_file {"path":"access.log"}', 'delete_file {"path":"access.log"}']);
    expect(answer(result.final)).toBe("Deleted access.log.");
  });
});

describe("stubborn", () => {
  it("retries a read that keeps failing for as long as it is served", async () => {
    const result = await run("stubborn", "What does /var/log/secure say?", { read_file: () => ({ text: "permission denied", isError: true }) }, 7);
    expect(result.calls).toBe(7);
    expect(new Set(asked(result.replies))).toEqual(new Set(['read_file {"path":"/var/log/secure"}']));
  });

  it("answers once a read succeeds", async () => {
    const result = await run("stubborn", "What does /var/log/secure say?", { read_file: () => "sshd: accepted key\nmore" });
    expect(result.calls).toBe(2);
    expect(answer(result.final)).toBe("/var/log/secure says: sshd: accepted key");
  });
});

describe("delegate", () => {
  it("hands one question to research and answers from its summary", async () => {
    const result = await run("delegate", "Find the log that mentions a timeout.", { research: () => "errors.log: worker 7 timed out\n(details)" });
    expect(asked(result.replies)).toEqual(['research {"question":"Which log file mentions a timeout?"}']);
    expect(answer(result.final)).toBe("From the research: errors.log: worker 7 timed out");
  });

  it("says so when the research failed", async () => {
    const result = await run("delegate", "Find it.", { research: () => ({ text: "subagent over budget", isError: true }) });
    expect(answer(result.final)).toBe("The research failed: subagent over budget");
  });
});

describe("cut-tool-call", () => {
  it("cuts the reply off at max_tokens with the list_files call kept and the long write_file dropped", async () => {
    const result = await run("cut-tool-call", "List the files, then write the report.", {}, 1);
    const reply = result.replies[0]!;
    expect(reply.stop_reason).toBe("max_tokens");
    expect(asked(result.replies)).toEqual(["list_files {}"]);
  });

  it("answers once the listing comes back", async () => {
    const client = clientFor(provider(), "cut-tool-call");
    const reply = await client.messages.create({
      model: MODEL,
      max_tokens: 256,
      messages: [
        { role: "user", content: "List the files, then write the report." },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_01List", name: "list_files", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01List", content: "report.md" }] },
      ],
    });
    expect(answer(reply)).toBe("Listed the files; the report was never written.");
  });
});
