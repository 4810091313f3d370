import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, test } from "vitest";
import { agent, type Dispatch } from "lab:impl";
import { useScenario, WEATHER_CITIES, type ScenarioSession } from "lab:test";

type Param = Anthropic.MessageParam;
type Block = Anthropic.ContentBlockParam;

const CAPITAL_TOOLS: Anthropic.Tool[] = [
  {
    name: "get_capital",
    description: "The capital city of a country.",
    input_schema: { type: "object", properties: { country: { type: "string" } }, required: ["country"] },
  },
  {
    name: "get_weather",
    description: "Current weather in a city.",
    input_schema: { type: "object", properties: { city: { type: "string" }, day: { type: "string" } }, required: ["city"] },
  },
];
const WEATHER_TOOLS = CAPITAL_TOOLS.slice(1);
const FETCH_PAGE: Anthropic.Tool[] = [
  { name: "fetch_page", description: "Fetches one page of the report.", input_schema: { type: "object", properties: { page: { type: "integer" } } } },
];
const LIST_FILES: Anthropic.Tool[] = [
  { name: "list_files", description: "Lists the files in the workspace.", input_schema: { type: "object", properties: {} } },
];

/** More model calls than any test here needs: a loop with no cap is cut off by the network, not by the test timeout. */
const FUSE = 40;


function open(scenario: string, options: Record<string, number> = {}): Promise<ScenarioSession> {
  return useScenario(scenario, { options, fuse: FUSE });
}

/** A live check: its assertions hold whatever the model says, so `lab check 1 --live` runs it against a real model. */
function openLive(scenario: string): Promise<ScenarioSession> {
  return useScenario(scenario, { live: true, fuse: FUSE });
}

const settle = <T>(promise: Promise<T>) =>
  promise.then(
    (answer) => ({ answer, error: null }),
    (error: unknown) => ({ answer: null, error }),
  );

const blocksOf = (message: Param): Block[] =>
  typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;

function resultText(block: Anthropic.ToolResultBlockParam): string {
  if (block.content === undefined) return "";
  if (typeof block.content === "string") return block.content;
  return block.content.map((part) => ("text" in part ? part.text : "")).join("\n");
}

/** Every tool_result block the harness sent, in the last (fullest) request. */
function sentResults(session: ScenarioSession): Anthropic.ToolResultBlockParam[] {
  const last = session.bodies().at(-1);
  return (last?.messages ?? []).flatMap(blocksOf).filter((b): b is Anthropic.ToolResultBlockParam => b.type === "tool_result");
}

/**
 * The shape the API requires and the chapter insists on: each assistant turn that asks
 * for tools is followed by exactly ONE user message, and that message answers every id.
 */
function expectOneResultMessagePerTurn(messages: Param[]): void {
  messages.forEach((message, i) => {
    if (message.role !== "assistant") return;
    const asked = blocksOf(message).filter((b) => b.type === "tool_use").map((b) => (b as Anthropic.ToolUseBlockParam).id);
    if (asked.length === 0) return;
    const next = messages[i + 1];
    expect(next?.role, `message ${i + 1} should carry the results of message ${i}`).toBe("user");
    const answered = blocksOf(next!)
      .filter((b): b is Anthropic.ToolResultBlockParam => b.type === "tool_result")
      .map((b) => b.tool_use_id);
    expect([...answered].sort(), `message ${i + 1} should answer every tool_use id of message ${i}`).toEqual([...asked].sort());
    expect(messages[i + 2]?.role, `results of message ${i} continue in a second user message`).not.toBe("user");
  });
}

/** Every tool_use id in the transcript is answered by one tool_result, and no result answers an unknown id. How the results are grouped into messages is the parallel test's business. */
function expectEveryIdAnswered(messages: Param[]): void {
  const asked = messages
    .filter((m) => m.role === "assistant")
    .flatMap(blocksOf)
    .filter((b): b is Anthropic.ToolUseBlockParam => b.type === "tool_use")
    .map((b) => b.id);
  const answered = messages
    .filter((m) => m.role === "user")
    .flatMap(blocksOf)
    .filter((b): b is Anthropic.ToolResultBlockParam => b.type === "tool_result")
    .map((b) => b.tool_use_id);
  expect([...answered].sort(), "tool_result ids sent back").toEqual([...asked].sort());
}

/** What makes a block the same block, whether it went back as the SDK returned it or was copied into a param. */
function essence(block: Block | Anthropic.ContentBlock): unknown {
  if (block.type === "text") return { type: "text", text: block.text };
  if (block.type === "tool_use") return { type: "tool_use", id: block.id, name: block.name, input: block.input };
  return { type: block.type };
}

/** The assistant turns of the last request, next to the replies the provider sent for them. */
function turnsSentBack(session: ScenarioSession): { sent: unknown[][]; replied: unknown[][] } {
  const calls = session.calls();
  const assistant = (calls.at(-1)!.body as Anthropic.MessageCreateParams).messages.filter((m) => m.role === "assistant");
  return {
    sent: assistant.map((m) => blocksOf(m).map(essence)),
    replied: calls.slice(0, -1).map((c) => (c.response as Anthropic.Message).content.map(essence)),
  };
}

describe("01 tool loop", () => {
  test("capital → weather: tools run in order with the model's arguments, and the answer quotes their results (block-as-input bug)", async () => {
    const session = await open("capital-weather");
    const ran: Array<[string, Record<string, unknown>]> = [];
    const dispatch: Dispatch = (name, input) => {
      ran.push([name, input]);
      return name === "get_capital" ? "Tokyo" : "18C, light rain";
    };

    const answer = await agent(session.client, "What is the weather in the capital of Japan?", CAPITAL_TOOLS, dispatch);

    expect(ran, "each tool gets the input the model wrote for it, and nothing else").toEqual([
      ["get_capital", { country: "Japan" }],
      ["get_weather", { city: "Tokyo" }],
    ]);
    expect(answer).toContain("Tokyo");
    expect(answer).toContain("18C, light rain");
    expect(session.calls()).toHaveLength(3);
    const last = session.bodies().at(-1)!;
    expect(last.messages.filter((m) => m.role === "assistant")).toHaveLength(2);
    expectOneResultMessagePerTurn(last.messages);
  });

  test("parallel calls are answered in ONE user message, every id, in 3 model calls (split-results bug)", async () => {
    const session = await open("weather");
    const dispatch: Dispatch = () => "21C, clear";

    const answer = await agent(session.client, "What is the weather in Paris, Tokyo and Lima, today and tomorrow?", WEATHER_TOOLS, dispatch);

    const messages = session.bodies().at(-1)!.messages;
    const asked = messages.filter((m) => m.role === "assistant").flatMap(blocksOf).filter((b) => b.type === "tool_use");
    const carriers = messages.filter((m) => m.role === "user" && blocksOf(m).some((b) => b.type === "tool_result"));
    expect(asked, "tool_use blocks the model asked for").toHaveLength(6);
    expect(carriers, "user messages that carried results back").toHaveLength(2);
    expectOneResultMessagePerTurn(messages);
    // Split results teach the model to ask one tool per turn: every extra round trip shows here.
    expect(session.calls(), "model calls").toHaveLength(3);
    for (const city of WEATHER_CITIES) expect(answer).toContain(`${city}: 21C, clear today, 21C, clear tomorrow.`);
  });

  test("a tool that returns nothing still gets a tool_result for its id (skip-empty-result bug)", async () => {
    const session = await open("weather");
    const dispatch: Dispatch = (_name, input) => (input["city"] === "Lima" ? "" : "12C, fog");

    const answer = await agent(session.client, "Weather in Paris, Tokyo and Lima, please.", WEATHER_TOOLS, dispatch);

    expect(typeof answer).toBe("string");
    expect(answer).toContain("Paris: 12C, fog today");
    expectEveryIdAnswered(session.bodies().at(-1)!.messages);
    expect(sentResults(session)).toHaveLength(6);
  });

  test("a tool that throws reaches the model as is_error with its message, and the run finishes (tool-error-escapes bug)", async () => {
    const session = await open("capital-weather");
    const dispatch: Dispatch = (name) => {
      if (name === "get_weather") throw new Error("forecast service timed out for Paris");
      return "Paris";
    };

    const answer = await agent(session.client, "What is the weather in the capital of France?", CAPITAL_TOOLS, dispatch);

    const failed = sentResults(session).filter((r) => r.is_error === true);
    expect(failed, "tool_result blocks sent with is_error: true").toHaveLength(1);
    expect(resultText(failed[0]!)).toContain("forecast service timed out for Paris");
    // The scripted model quotes the error it was shown, so the answer proves it arrived.
    expect(answer).toContain("forecast service timed out for Paris");
  });

  test("each tool_use block goes back in the assistant turn, so every result answers an id the history holds (text-only-history bug)", async () => {
    const session = await open("capital-weather");
    const dispatch: Dispatch = (name) => (name === "get_capital" ? "Lima" : "19C, overcast");

    const answer = await agent(session.client, "What is the weather in the capital of Peru?", CAPITAL_TOOLS, dispatch);

    expect(answer).toContain("19C, overcast");
    expect(session.calls().map((c) => c.status), "HTTP status of each model call").toEqual([200, 200, 200]);
    const { sent, replied } = turnsSentBack(session);
    const toolUses = (turns: unknown[][]) => turns.map((t) => t.filter((b) => (b as Block).type === "tool_use"));
    expect(toolUses(sent), "tool_use blocks of each assistant turn sent back").toEqual(toolUses(replied));
  });

  test("the whole reply goes back, its text as well as its tool calls (tool-use-only-history bug)", async () => {
    // Each turn of this scenario writes notes and then asks for the next page.
    const session = await open("growing", { turns: 3, grow: 40 });
    const dispatch: Dispatch = (_name, input) => `page ${String(input["page"])}: nothing new`;

    const answer = await agent(session.client, "Read the report page by page and take notes.", FETCH_PAGE, dispatch);

    expect(answer).toContain("Finished after 3 steps");
    const { sent, replied } = turnsSentBack(session);
    expect(replied.flat().some((b) => (b as Block).type === "text"), "the replies carried text").toBe(true);
    expect(sent, "each assistant turn, block by block, against the reply it came from").toEqual(replied);
  });

  test("a reply cut off at max_tokens throws instead of passing for an answer (truncation-as-answer bug)", async () => {
    const session = await open("truncated");
    const outcome = agent(session.client, "Write the whole report.", LIST_FILES, () => "", { maxTokens: 200 });

    await expect(outcome).rejects.toThrow(Error);
    await expect(outcome, "the error says why").rejects.toThrow(/\S/);
    expect(session.calls()[0]?.response).toMatchObject({ stop_reason: "max_tokens" });
  });

  test("the system prompt given in the options reaches the model on every call (system-dropped bug)", async () => {
    const session = await open("capital-weather");
    const system = "You are a terse weather assistant. Answer in one sentence.";

    await agent(session.client, "What is the weather in the capital of Japan?", CAPITAL_TOOLS, (name) => (name === "get_capital" ? "Tokyo" : "18C"), { system });

    // A string or text blocks: what counts is the text the model reads.
    const sent = session.bodies().map((b) => (typeof b.system === "string" || b.system === undefined ? b.system : b.system.map((block) => block.text).join("")));
    expect(sent).toEqual([system, system, system]);
  });

  test("a refusal with empty content returns a short decline, not a crash (refusal-crash bug)", async () => {
    const session = await open("refusal");

    const answer = await agent(session.client, "Help me with something you will not do.", LIST_FILES, () => "");

    expect(typeof answer).toBe("string");
    expect(answer.trim().length).toBeGreaterThan(0);
    expect(session.calls()).toHaveLength(1);
  });

  test("a model that never stops is halted with an Error after exactly 12 model calls (no-default-cap bug)", async () => {
    const session = await open("runaway");

    const error = await agent(session.client, "Tidy up the workspace.", LIST_FILES, () => "notes.txt\nreport.md").then(
      () => null,
      (err: unknown) => err,
    );

    expect(error).toBeInstanceOf(Error);
    expect(error, "the cap is the harness's own error, not a failed request").not.toBeInstanceOf(Anthropic.APIError);
    expect((error as Error).message, "the error says why").toMatch(/\S/);
    expect(session.calls()).toHaveLength(12);
  });

  test("a model that never stops is stopped: with maxSteps 20, an Error after 20 model calls and no 21st (no-step-cap bug)", async () => {
    const session = await open("runaway");

    const error = await agent(session.client, "Tidy up the workspace.", LIST_FILES, () => "notes.txt", { maxSteps: 20 }).then(
      () => null,
      (err: unknown) => err,
    );

    expect(error).toBeInstanceOf(Error);
    expect(error, "the cap is the harness's own error, not a failed request").not.toBeInstanceOf(Anthropic.APIError);
    expect(session.calls()).toHaveLength(20);
  });

  test("maxSteps: 1 allows one model call, not two: the cap counts calls, the first included (cap-off-by-one bug)", async () => {
    const session = await open("runaway");

    const error = await agent(session.client, "Tidy up the workspace.", LIST_FILES, () => "notes.txt", { maxSteps: 1 }).then(
      () => null,
      (err: unknown) => err,
    );

    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(Anthropic.APIError);
    expect(session.calls(), "model calls with maxSteps: 1").toHaveLength(1);
  });

  test("maxSteps sets the cap: 3 means exactly 3 model calls, then an Error (hard-coded-cap bug)", async () => {
    const session = await open("runaway");

    const error = await agent(session.client, "Tidy up the workspace.", LIST_FILES, () => "notes.txt", { maxSteps: 3 }).then(
      () => null,
      (err: unknown) => err,
    );

    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(Anthropic.APIError);
    expect(session.calls()).toHaveLength(3);
  });

  // Live checks: whatever the model asks, each tool gets the input it wrote, every turn's results
  // go back in one user message, and the cap holds.
  test("live: a turn's results go back in ONE user message (split-results bug)", async () => {
    const session = await openLive("weather");
    const ran: Array<[string, unknown]> = [];
    const dispatch: Dispatch = (name, input) => (ran.push([name, input]), "21C, clear");

    const goal = "What is the weather in Paris, Tokyo and Lima, today and tomorrow? Look each one up with get_weather.";
    const { answer, error } = await settle(agent(session.client, goal, WEATHER_TOOLS, dispatch, { maxSteps: 6 }));

    expect(session.calls().filter((c) => c.status === 200).length, "model calls answered").toBeGreaterThan(0);
    expect(session.calls().length, "model calls, with maxSteps 6").toBeLessThanOrEqual(6);
    const messages = session.bodies().at(-1)!.messages;
    expectOneResultMessagePerTurn(messages);
    expectEveryIdAnswered(messages);
    const asked = messages
      .filter((m) => m.role === "assistant")
      .flatMap(blocksOf)
      .filter((b): b is Anthropic.ToolUseBlockParam => b.type === "tool_use")
      .map((b) => [b.name, b.input]);
    expect(ran.slice(0, asked.length), "what each tool was handed, against what the model asked").toEqual(asked);
    if (error === null) expect(typeof answer).toBe("string");
  });

  test("live: maxSteps 2 allows 2 model calls, then an Error (no-step-cap bug)", async () => {
    const session = await openLive("runaway");

    const goal = "List the files in the workspace with list_files, then list them again to be sure.";
    const { error } = await settle(agent(session.client, goal, LIST_FILES, () => "notes.txt\nreport.md", { maxSteps: 2 }));

    const calls = session.calls();
    expect(calls.filter((c) => c.status === 200).length, "model calls answered").toBeGreaterThan(0);
    expect(calls.length, "model calls with maxSteps 2").toBeLessThanOrEqual(2);
    const last = calls.at(-1)?.response as Anthropic.Message | undefined;
    if (calls.length === 2 && last?.stop_reason === "tool_use") {
      expect(error, "a run still asking for tools at the cap ends in the harness's own error").toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(Anthropic.APIError);
    }
  });
});
