/**
 * `lab triage "question" --tenant acme`: the support-ticket triage agent of exercise 11, run
 * against the scripted provider (with --live, a real endpoint through the lab's gate, which
 * counts the money and keeps --max-usd). It streams what the loop does, then prints the answer, its
 * citations and where the money went. The loop is the learner's own once exercise 11 has
 * passed, the reference one before that; the parts are the lab's reference parts. The model
 * answers from the question (triage-desk.ts); the chapter's question gets the walk-through.
 */
import type Anthropic from "@anthropic-ai/sdk";
import { existsSync } from "node:fs";
import { startProvider } from "../../checker/provider/index.js";
import { CACHE_READ, CACHE_WRITE, PRICES } from "../../checker/testing/pricing.js";
// lab triage is exercise 11's own command: it runs that exercise's reference parts and fixture.
import { ACCOUNTS, CACHE_THRESHOLD, referenceParts } from "../../exercises/11-integrated/support/index.js";
import { UsageError, UserError } from "../terminal/errors.js";
import { writeLine, type Io } from "../terminal/io.js";
import { bundleLearner } from "../../checker/realm/bundle.js";
import { openRealm, type Realm } from "../../checker/realm/host.js";
import { RealmStopped } from "../../checker/realm/membrane.js";
import { ProgressStore } from "../progress/progress-store.js";
import { wrapText } from "../screen/wrap.js";
import { exerciseOrFail, loadContext, workspaceFile } from "./context.js";
import { LIVE_MESSAGES, liveTarget, openLive, spendLines, type LiveFlags, type LiveTarget } from "./live.js";
import type { Gate } from "../../checker/testing/live/gate.js";
import { isWalkThrough, scenarioFor, searchDocs, triageDesk } from "./triage-desk.js";

export const TRIAGE_MESSAGES = {
  noQuestion: 'lab triage needs a question, e.g. lab triage "how do I rotate an API key" --tenant acme.',
  noTenant: "lab triage needs a tenant: --tenant acme (the fixture's tenants are acme and globex).",
  unknownTenant: (tenant: string, known: string[]) => `lab triage: there is no tenant "${tenant}"; the fixture's tenants are ${known.join(" and ")}.`,
  noRun: (file: string) => `lab triage: ${file} exports no run function.`,
  yours: (file: string) => `loop: yours (${file}), exercise 11 has passed`,
  reference: "loop: the reference one (yours takes over once exercise 11 passes)",
} as const;

interface Tokens {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

const LIMIT_USD = 2;
const MAX_STEPS = 12;
/** The answer is wrapped to the lab's screen width. */
const WIDTH = 80;

type Run = (
  request: string,
  tenant: string,
  opts: { limitUsd: number; maxSteps: number },
  parts: unknown,
) => Promise<{ ok: boolean; text: string; reason: string; usd: number; source: string }>;

/** A tool's input on one line of `room` columns: short fields first, so a long path is what gets cut. */
const short = (input: Record<string, unknown>, room: number) => {
  const fields = Object.entries(input).sort(([, a], [, b]) => JSON.stringify(a).length - JSON.stringify(b).length);
  const text = JSON.stringify(Object.fromEntries(fields));
  return text.length > room ? `${text.slice(0, room - 1)}…` : text;
};
const money = (usd: number) => `$${usd.toFixed(4)}`;
const pct = (share: number) => `${(share * 100).toFixed(1)} %`;

/** The file's `run`, loaded as every learner file is: bundled, in a realm of its own (checker/realm/). */
async function loopFile(file: string): Promise<{ run: Run; realm: Realm }> {
  const realm = await openRealm(await bundleLearner(file, () => false));
  if (typeof realm.exports["run"] !== "function") {
    await realm.close();
    throw new UserError(TRIAGE_MESSAGES.noRun(file));
  }
  return { run: realm.exports["run"] as Run, realm };
}

export interface TriageOptions extends LiveFlags {
  tenant?: string;
}

/** Where the triage loop's model calls go: the scripted provider (its scenario read from the question), or a live run's gate. */
async function endpoint(target: LiveTarget | null, question: string): Promise<{ url: string; close(): Promise<void>; gate: Gate | null }> {
  if (target) {
    const gate = await openLive(target);
    return { url: gate.url, close: () => gate.close(), gate };
  }
  const provider = await startProvider({ scenarios: [triageDesk] });
  return { url: provider.url(scenarioFor(question), {}), close: () => provider.close(), gate: null };
}

export async function triageCommand(question: string | undefined, opts: TriageOptions, io: Io): Promise<number> {
  if (!question?.trim()) throw new UsageError(TRIAGE_MESSAGES.noQuestion);
  if (!opts.tenant?.trim()) throw new UsageError(TRIAGE_MESSAGES.noTenant);
  const tenant = opts.tenant.trim();
  if (!(tenant in ACCOUNTS)) throw new UsageError(TRIAGE_MESSAGES.unknownTenant(tenant, Object.keys(ACCOUNTS)));
  const target = liveTarget(opts, io.env);
  const ctx = await loadContext(io);
  const exercise = exerciseOrFail(ctx, "11");
  const progress = new ProgressStore(ctx.config.workspaceDir, (s) => writeLine(io.stderr, s));
  const mine = workspaceFile(ctx, exercise);
  const yours = Boolean(progress.exercise(exercise.id).passedAt) && existsSync(mine);
  const { run, realm } = await loopFile(yours ? mine : exercise.solution);
  const say = (tag: string, text: string) => writeLine(io.stdout, `${tag.padEnd(8)}${text}`);
  writeLine(io.stdout, `lab triage: "${question}" for tenant ${tenant}`);
  writeLine(io.stdout, yours ? TRIAGE_MESSAGES.yours(mine) : TRIAGE_MESSAGES.reference);

  const where = await endpoint(target, question).catch(async (error: unknown) => {
    await realm.close();
    throw error;
  });
  if (where.gate) writeLine(io.stdout, LIVE_MESSAGES.header(where.gate.upstream, where.gate.maxUsd));
  try {
    const client = new (await import("@anthropic-ai/sdk")).default({ baseURL: where.url, apiKey: "lab-triage", maxRetries: 0 });
    const ref = referenceParts({ client: client as unknown as Anthropic });
    const p = ref.parts;
    let turn = 0;
    const parts = {
      ...p,
      cache: {
        async get(q: string, ns?: string) {
          const hit = await p.cache.get(q, ns);
          const seen = ref.lookups.at(-1);
          const near = seen?.nearest ? `${seen.similarity.toFixed(2)} ("${seen.nearest}")` : "";
          if (hit !== null) say("cache", `hit: ${near}, answered without a model call`);
          else say("cache", near ? `miss: nearest ${near} < ${CACHE_THRESHOLD}` : `miss: nothing stored for ${ns ?? "this tenant"}`);
          return hit;
        },
        put: async (q: string, a: string, ns?: string) => (say("cache", "stored the answer for the next caller"), p.cache.put(q, a, ns)),
      },
      ledger: {
        record(label: string, model: string, usage: Anthropic.Usage, ms: number) {
          p.ledger.record(label, model, usage, ms);
          const row = ref.rows.at(-1)!;
          say(
            "model",
            `turn ${++turn}: ${usage.input_tokens} in, ${usage.cache_creation_input_tokens ?? 0} written, ${usage.cache_read_input_tokens ?? 0} read, ${usage.output_tokens} out, ${money(row.usd)}`,
          );
        },
      },
      async dispatch(name: string, input: Record<string, unknown>, t: string) {
        const suffix = ` (tenant ${t})`;
        say("tool", `${name} ${short(input, WIDTH - 8 - name.length - 1 - suffix.length)}${suffix}`);
        // The walk-through's search returns the chapter's 38,059-character dump; any other question searches the docs.
        if (name === "search_docs" && !isWalkThrough(question)) return searchDocs(String(input["query"] ?? ""));
        return p.dispatch(name, input, t);
      },
      offloader: {
        wrap(name: string, payload: unknown) {
          const out = p.offloader.wrap(name, payload);
          const size = typeof payload === "string" ? payload.length : JSON.stringify(payload).length;
          if (out.length !== size) say("offload", `${name}: ${size} chars set aside, a ${out.length}-char pointer sent`);
          return out;
        },
      },
      loopGuard(maxSteps: number) {
        const g = p.loopGuard(maxSteps);
        return {
          get halted() {
            return g.halted;
          },
          get trips() {
            return g.trips;
          },
          check(tool: string, args: unknown, state: unknown, progressValue?: number) {
            const nudge = g.check(tool, args, state, progressValue);
            if (nudge) say("guard", `${g.trips > 1 || g.halted ? "halt" : "nudge"}: ${nudge}`);
            return nudge;
          },
        };
      },
      budget(limit: number) {
        const b = p.budget(limit);
        return {
          get spent() {
            return b.spent;
          },
          charge: (model: string, usage: Anthropic.Usage) => b.charge(model, usage),
          guard() {
            const note = b.guard();
            say("budget", `${money(b.spent)} of ${money(limit)}${note ? ": wrap-up note sent" : ""}`);
            return note;
          },
        };
      },
    };
    let result: Awaited<ReturnType<Run>>;
    try {
      result = await run(question, tenant, { limitUsd: LIMIT_USD, maxSteps: MAX_STEPS }, parts);
    } catch (error) {
      // The loop's realm ended (process.exit, out of memory, an endless loop): its sentence says how.
      if (!(error instanceof RealmStopped)) throw error;
      writeLine(io.stderr, error.message);
      return 1;
    }
    writeLine(io.stdout, "");
    writeLine(io.stdout, result.ok ? `Answer (${result.reason}):` : `Stopped: ${result.reason}. What it had so far:`);
    for (const line of wrapText(result.text || "(nothing)", WIDTH)) writeLine(io.stdout, line);
    const cites = [...new Set([...result.text.matchAll(/\[src:([^\]]+)\]/g)].map((m) => m[1]!))];
    writeLine(io.stdout, `Citations: ${cites.length ? cites.join(", ") : "none"}`);
    writeLine(io.stdout, "");
    printMoney(io, ref.rows);
    for (const line of where.gate ? spendLines(where.gate) : []) writeLine(io.stdout, line);
    return result.ok ? 0 : 1;
  } finally {
    await realm.close();
    await where.close();
  }
}

/** The cache audit's verdict on a run's hit rate (exercise 7's thresholds). */
export function cacheVerdict(hitRate: number): "HEALTHY" | "WEAK" | "BROKEN" {
  return hitRate > 0.7 ? "HEALTHY" : hitRate > 0.1 ? "WEAK" : "BROKEN";
}

/** The ledger's "where the money went" table, from the rows of this run. */
function printMoney(io: Io, rows: ReadonlyArray<{ usage: Tokens; usd: number }>): void {
  const sum = (f: (u: Tokens) => number) => rows.reduce((n, r) => n + f(r.usage), 0);
  const total = rows.reduce((n, r) => n + r.usd, 0);
  const [inT, outT] = [sum((u) => u.input_tokens), sum((u) => u.output_tokens)];
  const [write, read] = [sum((u) => u.cache_creation_input_tokens ?? 0), sum((u) => u.cache_read_input_tokens ?? 0)];
  const share = (usd: number) => (total > 0 ? usd / total : 0);
  const price = PRICES["claude-opus-5"]!; // the model the loop names
  const hitRate = read + write + inT > 0 ? read / (read + write + inT) : 0;
  const lines: Array<[string, string]> = [
    ["total", money(total)],
    ["output", pct(share(outT * price.out))],
    ["uncached input", pct(share(inT * price.in))],
    ["cache write", pct(share(write * price.in * CACHE_WRITE))],
    ["cache read", pct(share(read * price.in * CACHE_READ))],
  ];
  writeLine(io.stdout, "Where the money went");
  writeLine(io.stdout, `  ${"model calls".padEnd(16)}${String(rows.length).padStart(10)}`);
  // Five turns to a line keeps the row inside 80 columns however long the run was.
  for (let i = 0; i < rows.length; i += 5) {
    const label = i === 0 ? "per turn" : "";
    writeLine(
      io.stdout,
      `  ${label.padEnd(16)}${rows
        .slice(i, i + 5)
        .map((r) => money(r.usd))
        .join(" ")}`,
    );
  }
  for (const [label, value] of lines) writeLine(io.stdout, `  ${label.padEnd(16)}${value.padStart(10)}`);
  writeLine(io.stdout, `  ${"cache hit rate".padEnd(16)}${hitRate.toFixed(3).padStart(10)}  ${cacheVerdict(hitRate)}`);
}
