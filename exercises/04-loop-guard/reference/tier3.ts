/**
 * Tier 3: the loop guard with the SDK, commented, and wired into exercise 1's loop.
 *
 * `check` is called once per tool call, after the tool ran. It answers null (carry on)
 * or one sentence. Which sentence it is depends on which of the three detectors saw a
 * loop; whether the sentence is a nudge or the end of the run is told by `halted` and
 * `trips`, which the loop reads. Nothing in here throws: both ways a run can end (the
 * cap, a loop that outlived its nudge) come back as text for a partial report.
 */
import Anthropic from "@anthropic-ai/sdk";
import { createHash } from "node:crypto";

export interface LoopGuardOptions {
  repeat?: number;
  cycle?: number;
  stall?: number;
  maxSteps?: number;
}

export class LoopGuard {
  steps = 0;
  trips = 0;
  halted = false;
  private readonly repeat: number;
  private readonly cycle: number;
  private readonly stall: number;
  private readonly maxSteps: number;
  // Counted over the whole run, never reset: a call made again after a detour still
  // counts, and a loop that goes on after its nudge trips again at once.
  private readonly seenCalls = new Map<string, number>();
  private readonly seenStates = new Map<string, number>();
  private best: number | null = null;
  private flatSteps = 0;

  constructor({ repeat = 3, cycle = 2, stall = 6, maxSteps = 40 }: LoopGuardOptions = {}) {
    // Destructuring defaults apply per field: passing only maxSteps keeps the other three.
    this.repeat = repeat;
    this.cycle = cycle;
    this.stall = stall;
    this.maxSteps = maxSteps;
  }

  check(tool: string, args: unknown, state: unknown, progress?: number): string | null {
    this.steps += 1;
    if (this.steps > this.maxSteps) {
      // A signal, not an exception: the caller turns it into a partial report.
      this.halted = true;
      return `Step cap of ${this.maxSteps} reached, so the run stops: say what you have and what is left to do.`;
    }

    // Shape A. "> repeat", not ">=": with repeat = 3 the third identical call is fine.
    const calls = count(this.seenCalls, digest([tool, args]));
    if (calls > this.repeat) {
      return this.nudge(`${tool} was called ${calls} times with identical arguments and keeps giving the same answer. Try another way, or say what stops you.`);
    }

    // Shape B: calls may take turns, but the world keeps coming back to the same state.
    if (count(this.seenStates, digest(state)) > this.cycle) {
      return this.nudge("For several steps nothing has changed: you are cycling. Stop, and sum up the attempts so far.");
    }

    // Shape C: measured from the best value, so only a real improvement restarts it.
    // typeof, not truthiness: a metric stuck at 0 is a metric.
    if (typeof progress === "number") {
      if (this.best === null || progress > this.best) {
        this.best = progress;
        this.flatSteps = 0;
      } else {
        this.flatSteps += 1;
        if (this.flatSteps > this.stall) {
          return this.nudge(`No measurable progress in ${this.flatSteps} steps: the metric has not beaten ${this.best}. Change tack, or name what is in the way.`);
        }
      }
    }
    return null;
  }

  private nudge(text: string): string {
    this.trips += 1;
    return text;
  }
}

function count(seen: Map<string, number>, key: string): number {
  const n = (seen.get(key) ?? 0) + 1;
  seen.set(key, n);
  return n;
}

/**
 * Equal contents give equal digests, whatever order the keys were written in, at any
 * depth. JSON.stringify alone keeps insertion order, and its key-list argument filters
 * nested objects too, so the sorting is done by hand. What JSON cannot encode (BigInt,
 * a cycle) becomes text instead of an exception.
 */
function digest(value: unknown): string {
  const ancestors: object[] = [];
  const normalise = (v: unknown): unknown => {
    if (typeof v === "bigint" || typeof v === "symbol" || typeof v === "function") return `${String(v)}:${typeof v}`;
    if (v === null || typeof v !== "object") return v;
    if (ancestors.includes(v)) return "[cycle]";
    ancestors.push(v);
    const out = Array.isArray(v)
      ? v.map(normalise)
      : Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, normalise((v as Record<string, unknown>)[k])]),
        );
    ancestors.pop();
    return out;
  };
  let json: string;
  try {
    json = JSON.stringify(normalise(value)) ?? "undefined";
  } catch (err) {
    json = `unencodable:${String(err)}`;
  }
  return createHash("sha256").update(json).digest("hex").slice(0, 16);
}

// ---------------------------------------------------------------------------------------
// Wired into exercise 1's loop. The world (snapshot, progress) is the caller's: the guard
// only sees what it is shown.

export interface World {
  run(name: string, input: Record<string, unknown>): Promise<string>;
  snapshot(): unknown;
  progress?(): number;
}

export type Outcome = { ended: "answer"; text: string } | { ended: "partial"; reason: string; steps: number };

export async function guardedAgent(
  client: Anthropic,
  goal: string,
  tools: Anthropic.Tool[],
  world: World,
  guard = new LoopGuard(),
): Promise<Outcome> {
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: goal }];
  // The guard's own cap ends the run; this loop only needs to keep asking.
  for (;;) {
    const reply = await client.messages.create({ model: "claude-opus-5", max_tokens: 4096, tools, messages });
    if (reply.stop_reason !== "tool_use") {
      return { ended: "answer", text: reply.content.map((b) => (b.type === "text" ? b.text : "")).join("") };
    }
    messages.push({ role: "assistant", content: reply.content });
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const block of reply.content) {
      if (block.type !== "tool_use") continue;
      const input = block.input as Record<string, unknown>;
      let content = await world.run(block.name, input);
      const message = guard.check(block.name, input, world.snapshot(), world.progress?.());
      if (message !== null) {
        // SECOND: a loop that survived its nudge, or the cap. A report, not a throw.
        if (guard.halted || guard.trips > 1) return { ended: "partial", reason: message, steps: guard.steps };
        // FIRST: the nudge replaces the tool's output, so the model reads it in place.
        content = message;
      }
      results.push({ type: "tool_result", tool_use_id: block.id, content, ...(message ? { is_error: true } : {}) });
    }
    messages.push({ role: "user", content: results });
  }
}
