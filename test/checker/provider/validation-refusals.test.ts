/** What the real API refuses, refused the same way: unknown models, max_tokens past the ceiling, temperature, tool_choice. */
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { MODEL_MESSAGES, MODELS, startProvider } from "../../../checker/provider/index.js";
import { MESSAGES } from "../../../checker/provider/validate.js";
import { ask, clientFor, expectErrorResponse, MODEL, post, rejection, useProvider } from "./support.js";

const provider = useProvider();
type Body = Record<string, unknown>;
const TOOLS = [{ name: "lookup", input_schema: { type: "object" } }];
const withTools = (extra: Body): Body => ({ ...ask("hi"), tools: TOOLS, ...extra });

describe("models", () => {
  it("knows the exercises' three models, with their real output ceilings", () => {
    expect(MODELS).toMatchObject({
      "claude-opus-5": { maxOutputTokens: 128_000 },
      "claude-sonnet-5": { maxOutputTokens: 128_000 },
      "claude-haiku-4-5": { maxOutputTokens: 64_000 },
    });
  });

  it.each(["gpt-4", "claude-3-opus", "claude-opus-5 ", "CLAUDE-OPUS-5", "constructor", "__proto__"])(
    "%j is a 404 not_found_error saying model: NAME, through the SDK as NotFoundError",
    async (model) => {
      const err = await rejection(clientFor(provider()).messages.create({ ...ask("hi"), model }));
      expect(err).toBeInstanceOf(Anthropic.NotFoundError);
      expect(err.error).toMatchObject({ error: { type: "not_found_error", message: MODEL_MESSAGES.notFound(model) } });
    },
  );

  it("count_tokens refuses an unknown model the same way", async () => {
    expectErrorResponse(await post(provider(), "/v1/messages/count_tokens", JSON.stringify({ ...ask("hi"), model: "gpt-4" })), 404, "model: gpt-4");
  });

  it("a 10 MB model name is a 400 that does not echo it", async () => {
    const got = await post(provider(), "/v1/messages", JSON.stringify({ ...ask("hi"), model: "m".repeat(10 * 1024 * 1024) }));
    expectErrorResponse(got, 400, MODEL_MESSAGES.nameTooLong);
    expect(got.text.length).toBeLessThan(1000);
  });

  it("serves a model added with startProvider({ models })", async () => {
    const own = await startProvider({ models: { "claude-lab-tiny": { maxOutputTokens: 10 } } });
    try {
      expect((await clientFor(own).messages.create({ ...ask("hi"), model: "claude-lab-tiny", max_tokens: 10 })).model).toBe("claude-lab-tiny");
      const err = await rejection(clientFor(own).messages.create({ ...ask("hi"), model: "claude-lab-tiny", max_tokens: 11 }));
      expect(err.error.error.message).toBe(MODEL_MESSAGES.overCeiling(11, 10, "claude-lab-tiny"));
    } finally {
      await own.close();
    }
  });
});

describe("max_tokens", () => {
  it.each([
    ["claude-opus-5", 128_001, 128_000],
    ["claude-sonnet-5", 3_000_000, 128_000],
    ["claude-haiku-4-5", 64_001, 64_000],
    ["claude-opus-5", 2_147_483_647, 128_000],
  ])("%s with max_tokens %i is the API's 400 naming the ceiling %i", async (model, maxTokens, ceiling) => {
    const got = await post(provider(), "/s/truncated/v1/messages", JSON.stringify({ ...ask("hi"), model, max_tokens: maxTokens }));
    expectErrorResponse(got, 400, `max_tokens: ${maxTokens} > ${ceiling}, which is the maximum allowed number of output tokens for ${model}`);
  });

  it("accepts exactly the ceiling", async () => {
    // Raw: the SDK itself refuses a non-streaming request this large.
    const got = await post(provider(), "/v1/messages", JSON.stringify({ ...ask("hi"), model: "claude-haiku-4-5", max_tokens: 64_000 }));
    expect(got.status).toBe(200);
  });

  it.each([1e21, 2 ** 53, -1e21])("max_tokens %d is not an integer the API takes", async (maxTokens) => {
    const got = await post(provider(), "/v1/messages", `{"model":"${MODEL}","max_tokens":${maxTokens},"messages":[{"role":"user","content":"hi"}]}`);
    expectErrorResponse(got, 400, maxTokens < 0 ? MESSAGES.atLeastOne("max_tokens") : MESSAGES.integer("max_tokens"));
  });
});

describe("temperature", () => {
  it.each([
    [-5, MESSAGES.atLeast("temperature", 0)],
    [-0.01, MESSAGES.atLeast("temperature", 0)],
    [1.01, MESSAGES.atMost("temperature", 1)],
    [1e21, MESSAGES.atMost("temperature", 1)],
  ])("%d is refused", async (temperature, message) => {
    expectErrorResponse(await post(provider(), "/v1/messages", JSON.stringify({ ...ask("hi"), temperature })), 400, message);
  });

  // Raw: this SDK version no longer sends temperature, but older clients and hand-made requests do.
  it.each([0, 0.5, 1])("%d is accepted", async (temperature) => {
    expect((await post(provider(), "/v1/messages", JSON.stringify({ ...ask("hi"), temperature }))).status).toBe(200);
  });
});

describe("tool_choice", () => {
  const TAG = (tag: string) => MESSAGES.toolChoiceTag(tag);
  it.each([
    ["a string", "auto", MESSAGES.toolChoiceObject],
    ["a number", 5, MESSAGES.toolChoiceObject],
    ["a list", [], MESSAGES.toolChoiceObject],
    ["true", true, MESSAGES.toolChoiceObject],
    ["no type", {}, MESSAGES.toolChoiceNoTag],
    ["OpenAI's function", { type: "function" }, TAG("function")],
    ["OpenAI's required", { type: "required" }, TAG("required")],
    ["a capitalised tag", { type: "TOOL" }, TAG("TOOL")],
    ["a numeric tag", { type: 1 }, TAG("1")],
    ["tool without a name", { type: "tool" }, MESSAGES.required("tool_choice.tool.name")],
    ["tool with a numeric name", { type: "tool", name: 5 }, MESSAGES.string("tool_choice.tool.name")],
    ["auto with a string flag", { type: "auto", disable_parallel_tool_use: "yes" }, MESSAGES.boolean("tool_choice.auto.disable_parallel_tool_use")],
    ["any with a numeric flag", { type: "any", disable_parallel_tool_use: 1 }, MESSAGES.boolean("tool_choice.any.disable_parallel_tool_use")],
  ])("%s is refused in the API's words", async (_, toolChoice, message) => {
    expectErrorResponse(await post(provider(), "/v1/messages", JSON.stringify(withTools({ tool_choice: toolChoice }))), 400, message);
  });

  it.each([{ type: "auto" }, { type: "any", disable_parallel_tool_use: true }, { type: "tool", name: "lookup" }, { type: "none" }])(
    "%j is accepted",
    async (toolChoice) => {
      const got = await post(provider(), "/v1/messages", JSON.stringify(withTools({ tool_choice: toolChoice })));
      expect(got.status).toBe(200);
    },
  );
});

describe("content block types", () => {
  const EXPECTED_TAGS =
    "'bash_code_execution_tool_result', 'code_execution_tool_result', 'container_upload', 'document', 'image', 'redacted_thinking', " +
    "'search_result', 'server_tool_use', 'text', 'text_editor_code_execution_tool_result', 'thinking', 'tool_result', " +
    "'tool_search_tool_result', 'tool_use', 'web_fetch_tool_result', 'web_search_tool_result'";
  const withAssistant = (block: Body): Body => ({
    ...ask("hi"),
    messages: [
      { role: "user", content: "hi" },
      { role: "assistant", content: [{ type: "text", text: "Looking." }, block] },
      { role: "user", content: "go on" },
    ],
  });

  it("a user block whose type is empty is the API's 400, word for word, through the SDK as BadRequestError", async () => {
    const body = { ...ask("hi"), messages: [{ role: "user", content: [{ type: "", text: "Wrap up now." }] }] };
    const message = `messages.0.content.0: Input tag '' found using 'type' does not match any of the expected tags: ${EXPECTED_TAGS}`;
    expectErrorResponse(await post(provider(), "/v1/messages", JSON.stringify(body)), 400, message);
    const err = await rejection(clientFor(provider()).messages.create(body as never));
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect(err.error.error.message).toBe(message);
  });

  it.each(["input_text", "tool-call", "Text", "reasoning"])("a block of type %j in an assistant message is refused, naming where", async (tag) => {
    const got = await post(provider(), "/v1/messages", JSON.stringify(withAssistant({ type: tag, text: "x" })));
    expectErrorResponse(got, 400, `messages.1.content.1: Input tag '${tag}' found using 'type' does not match any of the expected tags: ${EXPECTED_TAGS}`);
  });

  it("a tag past 100 characters is cut in the message", async () => {
    const got = await post(provider(), "/v1/messages", JSON.stringify(withAssistant({ type: "x".repeat(150) })));
    expectErrorResponse(
      got,
      400,
      `messages.1.content.1: Input tag '${"x".repeat(100)}…' found using 'type' does not match any of the expected tags: ${EXPECTED_TAGS}`,
    );
  });

  it.each([
    { type: "thinking", thinking: "The user wants the weather.", signature: "sig" },
    { type: "redacted_thinking", data: "opaque" },
    { type: "server_tool_use", id: "srvtoolu_01", name: "web_search", input: { query: "weather" } },
  ])("an assistant block of type $type is accepted", async (block) => {
    expect((await post(provider(), "/v1/messages", JSON.stringify(withAssistant(block)))).status).toBe(200);
  });

  it.each([
    { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
    { type: "document", source: { type: "text", media_type: "text/plain", data: "The sky is blue." } },
    { type: "search_result", source: "https://example.com", title: "Sky", content: [{ type: "text", text: "The sky is blue." }] },
  ])("a user block of type $type is accepted", async (block) => {
    const body = { ...ask("hi"), messages: [{ role: "user", content: [block, { type: "text", text: "What does it say?" }] }] };
    expect((await post(provider(), "/v1/messages", JSON.stringify(body))).status).toBe(200);
  });
});
