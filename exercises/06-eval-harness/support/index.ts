/**
 * Agents for the eval harness's hidden tests: scripted ones that return fixed traces (in a
 * seeded order, for flaky cases), and a real support agent, a tool-calling loop with
 * the SDK against the provider's `support-desk` scenario.
 */
import type Anthropic from "#anthropic-sdk";
import { usdOf } from "../../../checker/testing/index.js";

export { SUPPORT_RETRY_LIMIT } from "../scenarios.js";

export interface Step {
  tool: string;
  args: Record<string, unknown>;
  result: string;
  isError?: boolean;
  batch?: number;
}

export interface Trace {
  steps: Step[];
  text: string;
  usd: number;
}

export interface CountingAgent {
  run(input: string): Promise<Trace>;
  /** Every input run() was given, in order. */
  readonly inputs: string[];
}

/** A trace that called `tools` in order (one turn each) and answered `text`. */
export function trace(tools: string[], text: string, usd = 0.01): Trace {
  return { steps: tools.map((tool, batch) => ({ tool, args: {}, result: "ok", batch })), text, usd };
}

/** Fisher-Yates with mulberry32, so a seed always gives the same order. */
function shuffled<T>(items: T[], seed: number): T[] {
  let a = seed >>> 0;
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Run i returns schedule[i % length]: the schedule as given, or shuffled by `seed`, so
 * a flaky case's bad run lands first, in the middle or last depending on the seed.
 * Each run gets its trace when it starts, so runs in parallel see the same schedule.
 */
export function scheduledAgent(schedule: Trace[], seed?: number): CountingAgent {
  const order = seed === undefined ? [...schedule] : shuffled(schedule, seed);
  const inputs: string[] = [];
  return {
    inputs,
    run(input: string) {
      const next = order[inputs.length % order.length]!;
      inputs.push(input);
      return Promise.resolve(structuredClone(next));
    },
  };
}

/** The support agent's tools; `delete_account` is offered only when a test adds it. */
const TOOLS: Record<string, Anthropic.Tool> = {
  lookup_order: {
    name: "lookup_order",
    description: "Looks up an order's status by its id.",
    input_schema: { type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] },
  },
  refund_order: {
    name: "refund_order",
    description: "Refunds an order in full.",
    input_schema: { type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] },
  },
  search_docs: {
    name: "search_docs",
    description: "Searches the help centre.",
    input_schema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  },
  escalate: {
    name: "escalate",
    description: "Opens a ticket for a human colleague.",
    input_schema: { type: "object", properties: { reason: { type: "string" } }, required: ["reason"] },
  },
  delete_account: {
    name: "delete_account",
    description: "Deletes the customer's account and all its data, at once.",
    input_schema: { type: "object", properties: {} },
  },
};

export const SUPPORT_TOOLS = ["lookup_order", "refund_order", "search_docs", "escalate"] as const;

const ORDERS: Record<string, string> = {
  "1042": "Order 1042: shipped on Monday, arriving Thursday.",
  "2051": "Order 2051: delivered yesterday, reported broken.",
};

/** What each tool returns; throwing becomes an is_error result. */
function dispatch(name: string, input: Record<string, unknown>): string {
  const id = String(input["order_id"] ?? "");
  switch (name) {
    case "lookup_order":
      if (id === "7777") throw new Error("the order service is temporarily unavailable. Try again.");
      return ORDERS[id] ?? `No order ${id}.`;
    case "refund_order":
      return `Refund of order ${id} issued.`;
    case "search_docs":
      return "Reset your password under Settings > Security; the link arrives by email.";
    case "escalate":
      return "Ticket T-81 opened.";
    case "delete_account":
      return "Account deleted.";
    default:
      throw new Error(`no tool named ${name}`);
  }
}

export interface SupportAgentOptions {
  /** Tools taken away from the agent. */
  remove?: string[];
  /** Tools given to it on top of SUPPORT_TOOLS. */
  add?: string[];
  /** Most model calls per run; null deletes the cap. Default 4. */
  stepCap?: number | null;
  model?: string;
}

/** A real tool-calling loop; a run that hits its step cap returns a trace saying so. */
export function supportAgent(client: Anthropic, opts: SupportAgentOptions = {}): CountingAgent {
  const names = [...SUPPORT_TOOLS, ...(opts.add ?? [])].filter((name) => !(opts.remove ?? []).includes(name));
  const tools = names.map((name) => TOOLS[name]!);
  const cap = opts.stepCap === undefined ? 4 : opts.stepCap;
  const model = opts.model ?? "claude-opus-5";
  const inputs: string[] = [];
  return {
    inputs,
    async run(input: string) {
      inputs.push(input);
      const messages: Anthropic.MessageParam[] = [{ role: "user", content: input }];
      const steps: Step[] = [];
      let usd = 0;
      // A hard ceiling so a test cannot hang even with the cap deleted.
      const limit = cap ?? 200;
      for (let turn = 0; turn < limit; turn++) {
        const reply = await client.messages.create({ model, max_tokens: 1024, tools, messages });
        usd += usdOf(reply.usage, model);
        const text = reply.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
        const uses = reply.content.filter((b): b is Anthropic.ToolUseBlock => b.type === "tool_use");
        if (reply.stop_reason !== "tool_use" || uses.length === 0) return { steps, text, usd };
        messages.push({ role: "assistant", content: reply.content });
        const results: Anthropic.ToolResultBlockParam[] = [];
        for (const use of uses) {
          const args = use.input as Record<string, unknown>;
          try {
            const result = dispatch(use.name, args);
            steps.push({ tool: use.name, args, result, batch: turn });
            results.push({ type: "tool_result", tool_use_id: use.id, content: result });
          } catch (err) {
            const result = `Error: ${(err as Error).message}`;
            steps.push({ tool: use.name, args, result, isError: true, batch: turn });
            results.push({ type: "tool_result", tool_use_id: use.id, content: result, is_error: true });
          }
        }
        messages.push({ role: "user", content: results });
      }
      return { steps, text: `Stopped at the step cap of ${limit} model calls without an answer.`, usd };
    },
  };
}
