/**
 * Request builders for the cache audit: one shaped token for token like the chapter's healthy
 * call, healthy and weak ones, and one per invalidator the chapter says to inject on
 * purpose (a clock in the system prompt, a tool's keys reordered, a model switch). Each
 * call of a factory returns a builder with its own counter, so tests do not share state.
 */
import type Anthropic from "#anthropic-sdk";
import { padToTokens } from "../../../checker/testing/index.js";

export type BuildRequest = (question: string) => Anthropic.MessageCreateParamsNonStreaming;

/** The chapter's healthy call: what it reads, writes and leaves uncached, and its output. */
export const CHAPTER_CALL = { cacheRead: 18_400, cacheWrite: 6_100, uncachedIn: 210, output: 400 } as const;

export const CACHE_MODEL = "claude-opus-5";
const ROUTED_MODELS = ["claude-opus-5", "claude-sonnet-5", "claude-haiku-4-5"] as const;
const ephemeral = { type: "ephemeral" as const };

const memo = new Map<string, string>();
/** padToTokens, remembered: the long stable texts are built once per worker. */
function sized(head: string, tokens: number): string {
  const key = `${tokens}\u0000${head}`;
  let text = memo.get(key);
  if (text === undefined) {
    text = padToTokens(head, tokens);
    memo.set(key, text);
  }
  return text;
}

/**
 * A stable 18,400-token system prompt behind a breakpoint, then this turn's 6,100 new
 * tokens of conversation (holding the question) behind a second one, then 210 tokens of
 * instructions after the last breakpoint: every warm call reads 18,400, writes 6,100 and
 * leaves 210 uncached.
 */
export function chapterBuilder(): BuildRequest {
  return (question) => ({
    model: CACHE_MODEL,
    max_tokens: 1024,
    system: [
      {
        type: "text",
        text: sized("You are the support agent of a parcel company. The house rules follow.\n", CHAPTER_CALL.cacheRead),
        cache_control: ephemeral,
      },
    ],
    messages: [
      {
        role: "user",
        content: [
          {
            type: "text",
            text: padToTokens(`The conversation so far, ending with the customer's question: ${question}\n`, CHAPTER_CALL.cacheWrite),
            cache_control: ephemeral,
          },
          { type: "text", text: sized("Answer the customer's latest question in two sentences.", CHAPTER_CALL.uncachedIn) },
        ],
      },
    ],
  });
}

const TOOL = {
  name: "lookup_order",
  description: "Looks up one order by its id.",
  input_schema: { type: "object" as const, properties: { order_id: { type: "string" } }, required: ["order_id"] },
};
const rules = () => sized("You are the support agent of a parcel company. The house rules follow.\n", 1_500);

/** A tool and a 1,500-token system prompt behind a breakpoint, the question after it. */
export function healthyBuilder(): BuildRequest {
  return (question) => ({
    model: CACHE_MODEL,
    max_tokens: 256,
    tools: [TOOL],
    system: [{ type: "text", text: rules(), cache_control: ephemeral }],
    messages: [{ role: "user", content: question }],
  });
}

/** The healthy builder with a clock at the top of the system prompt, one second later on every call. */
export function stampedBuilder(): BuildRequest {
  let tick = 0;
  const healthy = healthyBuilder();
  return (question) => {
    tick += 1;
    const clock = `Now: 2026-07-30T09:15:${String(tick % 60).padStart(2, "0")}Z`;
    return { ...healthy(question), system: [{ type: "text", text: `${clock}\n${rules()}`, cache_control: ephemeral }] };
  };
}

const KEY_ORDERS = [
  ["name", "description", "input_schema"],
  ["description", "input_schema", "name"],
  ["input_schema", "name", "description"],
] as const;

/** The healthy builder whose tool object comes back with its keys in another order on every call. */
export function rotatedKeysBuilder(): BuildRequest {
  let calls = 0;
  const healthy = healthyBuilder();
  return (question) => {
    const order = KEY_ORDERS[calls++ % KEY_ORDERS.length]!;
    const tool = Object.fromEntries(order.map((key) => [key, TOOL[key]])) as unknown as Anthropic.Tool;
    return { ...healthy(question), tools: [tool] };
  };
}

/** The healthy builder behind a router that sends each call to the next of three models. */
export function modelRouterBuilder(): BuildRequest {
  let calls = 0;
  const healthy = healthyBuilder();
  return (question) => ({ ...healthy(question), model: ROUTED_MODELS[calls++ % ROUTED_MODELS.length]! });
}

/** A breakpoint after the first 1,100 tokens of a 4,400-token stable system prompt: about a quarter is read. */
export function earlyBreakpointBuilder(): BuildRequest {
  return (question) => ({
    model: CACHE_MODEL,
    max_tokens: 256,
    system: [
      { type: "text", text: sized("House rules, part 1 of 4.\n", 1_100), cache_control: ephemeral },
      { type: "text", text: sized("House rules, parts 2 to 4.\n", 3_300) },
    ],
    messages: [{ role: "user", content: question }],
  });
}

/** 1,100 cached tokens and a 9,900-token question: a warm call reads exactly a tenth of its input. */
export function tenthBuilder(): BuildRequest {
  return shareBuilder(1_100, 9_900);
}

/** A warm call reads exactly `cached` tokens (the system block) and leaves `uncached` uncached (the question). */
export function shareBuilder(cached: number, uncached: number): BuildRequest {
  return (question) => ({
    model: CACHE_MODEL,
    max_tokens: 256,
    system: [{ type: "text", text: sized("House rules, the short version.\n", cached), cache_control: ephemeral }],
    messages: [{ role: "user", content: padToTokens(`${question}\n`, uncached) }],
  });
}
