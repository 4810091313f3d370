/**
 * Where a run's wall time went: model calls, tools, and the harness itself. Tools are timed by
 * their own events (tool_start to tool_result, or a result's `ms`). A model call ends where its
 * `turn` event is written, but starts nowhere in a trace, so model time comes from the
 * provider's log (`lab provider --log`): each turn is matched to the exchange with its token
 * counts that arrived last before it. The harness's share is what is left.
 */

export type TraceEvent = Record<string, unknown> & { type?: unknown; at?: unknown };

/** The fields of a provider log line (an exchange) this reads. */
export interface LoggedExchange {
  at: number;
  ms: number;
  status: number;
  endpoint: string;
  usage: { input_tokens: number; output_tokens: number; cache_creation_input_tokens?: number; cache_read_input_tokens?: number } | null;
}

export interface WallTime {
  /** From the first model call (or the first event, without a log) to the last event, in ms. */
  wallMs: number;
  toolsMs: number;
  /** Null without a provider log: then model calls and the harness are one sum, `restMs`. */
  modelMs: number | null;
  harnessMs: number | null;
  restMs: number;
  modelCalls: number;
  /** Turns no exchange of the log matched. */
  unmatched: number;
}

const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

function toolsTime(events: TraceEvent[]): number {
  const started = new Map<unknown, number>();
  let total = 0;
  for (const e of events) {
    if (e.type === "tool_start" && num(e.at) !== undefined) started.set(e["callId"], e.at as number);
    if (e.type !== "tool_result") continue;
    const start = started.get(e["callId"]);
    total += start !== undefined && num(e.at) !== undefined ? (e.at as number) - start : (num(e["ms"]) ?? 0);
  }
  return total;
}

/**
 * The exchange that answered a turn: same output and input tokens (input counted either way),
 * the latest to arrive before the turn was written. Arrival and turn are both wall-clock
 * readings; an exchange's duration is not (it is timed by the monotonic clock, which a busy
 * machine's wall clock may drift from), so the two are never added together here.
 */
function matchTurn(turn: TraceEvent, exchanges: LoggedExchange[], used: Set<LoggedExchange>): LoggedExchange | undefined {
  const input = num(turn["input_tokens"]) ?? num(turn["prompt_tokens"]);
  const output = num(turn["output_tokens"]) ?? num(turn["completion_tokens"]);
  const at = num(turn.at)!;
  let best: LoggedExchange | undefined;
  for (const x of exchanges) {
    const u = x.usage;
    if (used.has(x) || x.status !== 200 || !u || u.output_tokens !== output) continue;
    const whole = u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
    if ((u.input_tokens !== input && whole !== input) || x.at > at) continue;
    if (!best || x.at > best.at) best = x;
  }
  return best;
}

/** One run's split, or null when its events carry no `at`. */
export function wallTime(events: TraceEvent[], exchanges: LoggedExchange[] | null): WallTime | null {
  const times = events.map((e) => num(e.at)).filter((t): t is number => t !== undefined);
  if (times.length === 0) return null;
  const toolsMs = toolsTime(events);
  const end = Math.max(...times);
  let start = Math.min(...times);
  if (!exchanges)
    return { wallMs: end - start, toolsMs, modelMs: null, harnessMs: null, restMs: Math.max(0, end - start - toolsMs), modelCalls: 0, unmatched: 0 };
  const used = new Set<LoggedExchange>();
  let modelMs = 0;
  let unmatched = 0;
  for (const turn of events.filter((e) => e.type === "turn" && num(e.at) !== undefined)) {
    const x = matchTurn(turn, exchanges, used);
    if (!x) {
      unmatched++;
      continue;
    }
    used.add(x);
    modelMs += x.ms;
    start = Math.min(start, x.at);
  }
  const wallMs = end - start;
  const harnessMs = Math.max(0, wallMs - modelMs - toolsMs);
  return { wallMs, toolsMs, modelMs, harnessMs, restMs: harnessMs, modelCalls: used.size, unmatched };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(3)} s`;

/** The split in one sentence, for `lab trace`. */
export function describeWallTime(t: WallTime): string {
  if (t.modelMs === null) return `${seconds(t.wallMs)}: tools ${seconds(t.toolsMs)}, model and harness ${seconds(t.restMs)} (--requests LOG splits them)`;
  const calls = `${t.modelCalls} ${t.modelCalls === 1 ? "call" : "calls"}`;
  const missing = t.unmatched > 0 ? ` (${t.unmatched} ${t.unmatched === 1 ? "turn" : "turns"} not in the log)` : "";
  return `${seconds(t.wallMs)}: model ${seconds(t.modelMs)} in ${calls}${missing}, tools ${seconds(t.toolsMs)}, harness ${seconds(t.harnessMs!)}`;
}
