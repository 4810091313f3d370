/** Scenarios of shape rather than task: runaway, growing, the loops, refusal, truncation, pause, stop sequences. */
import type Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { filler } from "../../../checker/provider/scenarios/helpers.js";
import { drive } from "./driver.js";
import { replyTokens } from "./render.js";
import { ask, clientFor, expectUsageAddsUp, useProvider } from "./support.js";

const provider = useProvider();

const answer = (message: Anthropic.Message) => (message.content[0] as Anthropic.TextBlock).text;
const calls = (replies: Anthropic.Message[]) =>
  replies.map((r) =>
    r.content
      .filter((b) => b.type === "tool_use")
      .map((b) => `${b.name} ${JSON.stringify(b.input)}`)
      .join(" + "),
  );

describe("runaway", () => {
  it("asks for list_files on every turn and never ends", async () => {
    const run = await drive(clientFor(provider(), "runaway"), "Tidy the folder.", { tools: { list_files: () => "a.txt" }, maxCalls: 25 });
    expect(run.calls).toBe(25);
    expect(run.replies.every((r) => r.stop_reason === "tool_use")).toBe(true);
    expect(new Set(calls(run.replies))).toEqual(new Set(["list_files {}"]));
  });
});

describe("growing", () => {
  it("makes the prompt grow by about grow tokens each turn, and finishes after turns steps", async () => {
    const client = clientFor(provider(), "growing", { options: { turns: 5, grow: 200 } });
    const run = await drive(client, "Read every page.", { tools: { fetch_page: (input) => `page ${String(input["page"])}` } });
    expect(run.calls).toBe(6);
    expect(answer(run.final)).toBe("Finished after 5 steps.");
    const inputs = run.replies.map((r) => r.usage.input_tokens);
    for (let i = 1; i < inputs.length; i++) expect(inputs[i]! - inputs[i - 1]!).toBeGreaterThanOrEqual(200);
    await expectUsageAddsUp(client, { model: run.final.model, messages: run.messages }, run.final.usage);
  });
});

describe.each([
  ["loop-repeat", ['search_docs {"q":"rate limit"}', 'search_docs {"q":"rate limit"}']],
  ["loop-cycle", ['read_file {"path":"config.yaml"}', 'write_file {"path":"config.yaml","content":"retries: 3\\n"}', 'read_file {"path":"config.yaml"}']],
  [
    "loop-stall",
    [
      'edit_file {"path":"app.py","patch":"attempt 1"}',
      'run_tests {"after_patch":1}',
      'edit_file {"path":"app.py","patch":"attempt 2"}',
      'run_tests {"after_patch":2}',
    ],
  ],
])("%s", (scenario, shape) => {
  const ok = () => "ok";
  const tools = { search_docs: ok, read_file: ok, write_file: ok, run_tests: () => "3 failed", edit_file: ok };
  const first = shape[0]!.split(" ")[0]!;

  it("keeps repeating its shape while nothing tells it otherwise", async () => {
    const run = await drive(clientFor(provider(), scenario), "Fix it.", { tools, maxCalls: shape.length });
    expect(calls(run.replies)).toEqual(shape);
    expect(run.final.stop_reason).toBe("tool_use");
  });

  it("stops and explains once a tool result comes back marked is_error, whatever it says", async () => {
    const nudge = () => ({ text: "zzz", isError: true });
    const run = await drive(clientFor(provider(), scenario), "Fix it.", { tools: { ...tools, [first]: nudge } });
    expect(run.calls).toBe(2);
    expect(answer(run.final)).toBe("I was going round in circles, so I stopped after 1 tool calls. What blocks me: nothing I try changes the result.");
  });

  it("takes no notice of a nudge's words when the result is not marked is_error", async () => {
    const words = () => "You are repeating an identical call; you appear to be cycling with no measurable progress. Step cap.";
    const run = await drive(clientFor(provider(), scenario), "Fix it.", { tools: { ...tools, [first]: words }, maxCalls: shape.length });
    expect(calls(run.replies)).toEqual(shape);
  });

  it("ignores nudges with stubborn=1", async () => {
    const nudge = () => ({ text: "You are repeating yourself; stop.", isError: true });
    const stubborn = clientFor(provider(), scenario, { options: { stubborn: 1 } });
    const run = await drive(stubborn, "Fix it.", { tools: Object.fromEntries(Object.keys(tools).map((k) => [k, nudge])), maxCalls: 6 });
    expect(run.calls).toBe(6);
    expect(run.final.stop_reason).toBe("tool_use");
  });
});

describe("stop reasons", () => {
  it("refusal: empty content, stop_reason refusal, by create and by stream", async () => {
    const client = clientFor(provider(), "refusal");
    const message = await client.messages.create(ask("Do something bad."));
    expect(message).toMatchObject({ content: [], stop_reason: "refusal", stop_details: { type: "refusal" }, usage: { output_tokens: 0 } });
    const streamed = await client.messages.stream(ask("Do something bad.")).finalMessage();
    expect(streamed).toMatchObject({ content: [], stop_reason: "refusal" });
  });

  it("truncated: cut at max_tokens, with output_tokens equal to max_tokens", async () => {
    const message = await clientFor(provider(), "truncated").messages.create(ask("Write at length.", { max_tokens: 40 }));
    expect(message.stop_reason).toBe("max_tokens");
    expect(message.usage.output_tokens).toBe(40);
    const text = answer(message);
    expect(text.length).toBeGreaterThan(40);
    expect(filler(40 + 64, "the answer").startsWith(text)).toBe(true);
  });

  it("pause: pause_turn first, the rest once the paused turn is sent back", async () => {
    const client = clientFor(provider(), "pause");
    const first = await client.messages.create(ask("Research this."));
    expect(first.stop_reason).toBe("pause_turn");
    expect(answer(first)).toBe("Looking through the sources…");
    const messages: Anthropic.MessageParam[] = [
      { role: "user", content: "Research this." },
      { role: "assistant", content: first.content },
    ];
    const second = await client.messages.create({ ...ask(""), messages });
    expect(second.stop_reason).toBe("end_turn");
    expect(answer(second)).toBe("Here is the rest of the answer.");
  });

  it("stop_sequences: the reply ends before the first sequence found, with stop_reason stop_sequence", async () => {
    const client = clientFor(provider(), "echo");
    const message = await client.messages.create(ask("one two STOP three END", { stop_sequences: ["END", "STOP"] }));
    expect(message).toMatchObject({ stop_reason: "stop_sequence", stop_sequence: "STOP" });
    expect(answer(message)).toBe("You said: one two ");
    expect(message.usage.output_tokens).toBe(replyTokens(message.content));
    const unmatched = await client.messages.create(ask("nothing to stop", { stop_sequences: ["END"] }));
    expect(unmatched).toMatchObject({ stop_reason: "end_turn", stop_sequence: null });
  });

  it("a stop sequence at the very start leaves no empty text block behind", async () => {
    const client = clientFor(provider(), "echo");
    const message = await client.messages.create(ask("anything", { stop_sequences: ["You"] }));
    expect(message).toMatchObject({ stop_reason: "stop_sequence", stop_sequence: "You", content: [] });
    expect(message.usage.output_tokens).toBe(0);
  });
});
