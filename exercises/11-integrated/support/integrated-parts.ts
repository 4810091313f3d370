/**
 * Exercise 11's parts: compact reference versions of exercises 2, 3, 4, 5, 8 and 10, built
 * for one run's test, each writing what it did to `events` so a test can read the order.
 */
import type Anthropic from "#anthropic-sdk";
import { createHash } from "node:crypto";
import { posix } from "node:path";
import { ACCOUNTS, ACME_CACHED, type DispatchRecord, searchDump } from "./acme-fixture.js";
import { learnerCaughtUp, stagedVector, tokenText, usdOf } from "../../../checker/testing/index.js";

interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** Virtual time in ms: sleeps that overlap end together, so concurrency shows as elapsed time. */
export function virtualClock() {
  let t = 0;
  const timers: Array<{ at: number; wake: () => void }> = [];
  let pumping = false;
  // Time moves only once the woken code has run and started its next sleep, here and in the
  // learner's realm (where the code that sleeps runs).
  const tick = async () => {
    await learnerCaughtUp();
    const next = timers.sort((a, b) => a.at - b.at).shift();
    if (!next) return void (pumping = false);
    t = next.at;
    next.wake();
    setImmediate(tick);
  };
  return {
    now: () => t,
    sleep(ms: number): Promise<void> {
      return new Promise((wake) => {
        timers.push({ at: t + ms, wake });
        if (!pumping) (pumping = true), setImmediate(tick);
      });
    },
  };
}

const TOOL = (name: string, description: string, properties: Record<string, unknown> = {}): Anthropic.Tool => ({
  name,
  description,
  input_schema: { type: "object", properties },
});

/** The support tools; no schema has a tenant field. */
export const TRIAGE_TOOLS: Anthropic.Tool[] = [
  // The runbook makes the stable prefix about the chapter's 6,100 tokens, so the prompt cache has work to do.
  TOOL("search_docs", `Search the support docs. Runbook: ${tokenText(5_873, "policy")}`, { query: { type: "string" } }),
  TOOL("get_account", "The current customer's account."),
  TOOL("issue_refund", "Refund an order. Needs confirmed: true.", {
    order: { type: "string" },
    amount_usd: { type: "number" },
    confirmed: { type: "boolean" },
  }),
  TOOL("read_artifact", "Read lines of an offloaded result.", { path: { type: "string" }, offset: { type: "integer" }, limit: { type: "integer" } }),
];

export const WRAP_UP = "Budget nearly spent: wrap up now with what you have, citing it.";
export const GUARD_NUDGE = "You have made this exact call three times. Change course or answer.";
const OFFLOAD_AT = 2_000;
/** The semantic cache's threshold: exercise 5's default. */
export const CACHE_THRESHOLD = 0.98;

/** One cache lookup: the nearest stored question of the namespace and how close it was. */
export interface CacheLookup {
  question: string;
  namespace: string;
  nearest: string | null;
  similarity: number;
  hit: boolean;
}

const cosine = (a: Float64Array, b: Float64Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

export interface PartsOptions {
  client: Anthropic;
  clock?: ReturnType<typeof virtualClock>;
  /** Tool latencies in ms, slept on `clock`. */
  delays?: Record<string, number>;
  /** Identical calls before the guard trips (3); its own step cap (the run's maxSteps). */
  repeat?: number;
  guardSteps?: number;
  /** Answers already cached, keyed `${namespace}\u0000${question}`, besides acme's earlier one. */
  cached?: Record<string, string>;
  retryAttempts?: number;
}

export function referenceParts(o: PartsOptions) {
  const events: string[] = [];
  const dispatched: DispatchRecord[] = [];
  const store = new Map<string, string>(Object.entries({ ...ACME_CACHED, ...o.cached }));
  const lookups: CacheLookup[] = [];
  const puts: Array<{ q: string; a: string; ns: string }> = [];
  const rows: Array<{ label: string; usage: Usage; usd: number; ms: number }> = [];
  const guardStates: unknown[] = [];
  const sleeps: number[] = [];
  // Artifacts live in memory under the chapter's folder name: graded workers may write no file.
  const root = "/tmp/agent-artifacts";
  const artifacts = new Map<string, string>();
  const budgets: Array<{ spent: number; limit: number }> = [];

  const offloader = Object.freeze({
    wrap(tool: string, payload: unknown): string {
      const text = typeof payload === "string" ? payload : JSON.stringify(payload);
      // A page read back from an artifact is already the small view: offloading it again would loop.
      if (text.length <= OFFLOAD_AT || tool === "read_artifact") return text;
      const path = posix.join(root, `${tool}-${createHash("sha256").update(text).digest("hex").slice(0, 8)}.txt`);
      artifacts.set(path, text);
      events.push(`offload:${tool}`);
      const lines = text.split("\n");
      // Eight lines from the top and five from the bottom: the chapter's 38,059 characters become its 1,573.
      const head = lines.slice(0, 8).join("\n");
      const tail = lines.slice(-5).join("\n");
      return `[${tool}: ${text.length} chars over ${lines.length} lines in ${path}]\nhead:\n${head}\n…\ntail:\n${tail}\nUse read_artifact(path, offset, limit)`;
    },
    read(path: string, offset = 0, limit = 40): string {
      const text = artifacts.get(posix.resolve(path));
      if (text === undefined) return `Error: no artifact at ${path}`;
      return text
        .split("\n")
        .slice(offset, offset + limit)
        .join("\n");
    },
  });

  async function dispatch(name: string, input: Record<string, unknown>, tenant: string): Promise<string> {
    const record: DispatchRecord = { name, input, tenant, start: o.clock?.now() ?? 0, end: 0 };
    dispatched.push(record);
    events.push(`dispatch:${name}`);
    if (o.clock && o.delays?.[name]) await o.clock.sleep(o.delays[name]!);
    record.end = o.clock?.now() ?? 0;
    if (name === "search_docs") return searchDump();
    if (name === "get_account") return JSON.stringify(ACCOUNTS[tenant] ?? { error: `no account for tenant "${tenant}"` });
    if (name === "read_artifact") return offloader.read(String(input["path"]), Number(input["offset"] ?? 0), Number(input["limit"] ?? 40));
    if (name === "issue_refund") return `Refunded ${String(input["order"])} for ${tenant}.`;
    if (name === "list_files") return "a.txt\nb.txt";
    throw new Error(`no tool named ${name}`);
  }

  // Frozen, every object of it: the learner's realm is handed copies, whose fields it reads without a round trip each.
  const parts = Object.freeze({
    client: o.client,
    tools: TRIAGE_TOOLS,
    dispatch,
    cache: Object.freeze({
      async get(q: string, ns = "") {
        events.push("cache.get");
        // Semantic: the nearest question stored under this namespace answers if it is close enough.
        const lookup: CacheLookup = { question: q, namespace: ns, nearest: null, similarity: 0, hit: false };
        const asked = stagedVector(q);
        for (const stored of store.keys()) {
          const [space, question] = stored.split("\u0000") as [string, string];
          if (space !== ns) continue;
          const similarity = question === q ? 1 : cosine(asked, stagedVector(question));
          if (similarity > lookup.similarity) Object.assign(lookup, { nearest: question, similarity });
        }
        lookup.hit = lookup.similarity >= CACHE_THRESHOLD;
        lookups.push(lookup);
        return lookup.hit ? store.get(`${ns}\u0000${lookup.nearest}`)! : null;
      },
      async put(q: string, a: string, ns = "") {
        events.push("cache.put");
        puts.push({ q, a, ns });
        store.set(`${ns}\u0000${q}`, a);
      },
    }),
    cacheable: (q: string, a: string) => !/\b(my|mine|today|now)\b|\b[A-Z]-\d{3,}\b/i.test(`${q}\n${a}`),
    async retry<T>(fn: () => Promise<T>): Promise<T> {
      events.push("retry");
      for (let attempt = 1; ; attempt++) {
        try {
          return await fn();
        } catch (err) {
          const status = (err as { status?: number }).status;
          if (attempt >= (o.retryAttempts ?? 5) || !(status === 429 || (status ?? 0) >= 500)) throw err;
          const headers = (err as { headers?: Headers | Record<string, string> }).headers;
          const header = headers instanceof Headers ? headers.get("retry-after") : headers?.["retry-after"];
          const after = Number(header ?? 1);
          sleeps.push(after); // an injected clock: nothing really waits
        }
      }
    },
    ledger: Object.freeze({
      record(label: string, model: string, usage: Usage, ms: number) {
        events.push("ledger");
        rows.push({ label, usage, usd: usdOf(usage, model), ms });
      },
    }),
    budget(limit: number) {
      const b = { limit, spent: 0, warned: false };
      budgets.push(b);
      return {
        get spent() {
          return b.spent;
        },
        charge(model: string, usage: Usage) {
          events.push("charge");
          const usd = usdOf(usage, model);
          b.spent += usd;
          return usd;
        },
        guard(): string | null {
          if (b.spent >= b.limit) throw new Error(`budget of $${b.limit} exhausted`);
          if (b.spent >= 0.8 * b.limit && !b.warned) return ((b.warned = true), WRAP_UP);
          return null;
        },
      };
    },
    loopGuard(maxSteps: number) {
      const seen = new Map<string, number>();
      const g = {
        halted: false,
        trips: 0,
        steps: 0,
        check(tool: string, args: unknown, state: unknown, _progress?: number): string | null {
          guardStates.push(state);
          events.push(`guard:${tool}`);
          if (++g.steps > (o.guardSteps ?? maxSteps)) return ((g.halted = true), `step cap of ${o.guardSteps ?? maxSteps} tool calls reached`);
          const key = `${tool}:${JSON.stringify(args, Object.keys((args ?? {}) as object).sort())}`;
          const n = (seen.get(key) ?? 0) + 1;
          seen.set(key, n);
          if (n < (o.repeat ?? 3)) return null;
          g.trips++;
          return GUARD_NUDGE;
        },
      };
      return g;
    },
    offloader,
  });
  return { parts, events, dispatched, puts, rows, guardStates, sleeps, budgets, root, lookups };
}
