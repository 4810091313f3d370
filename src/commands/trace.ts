/**
 * `lab trace FILE [--requests LOG]`: a harness's JSONL trace (exercise 12) as one timeline per
 * run id, each closed by where its wall time went (with the provider's log, model calls apart
 * from the harness). Lines that are not JSON are named on stderr; every other line is still shown.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError, UserError } from "../terminal/errors.js";
import { writeLine, type Io } from "../terminal/io.js";
import { describeWallTime, wallTime, type LoggedExchange } from "../trace/wall-time.js";

export const TRACE_MESSAGES = {
  unreadable: (file: string, why: string) => `lab trace: ${file} could not be read (${why}).`,
  empty: (file: string) => `lab trace: ${file} holds no events.`,
  badLine: (n: number, why: string) => `lab trace: line ${n} is not a JSON object (${why}); it is left out.`,
  noRun: (id: string, ids: string[]) => `lab trace: no run ${id} in this file; its runs are ${ids.join(", ")}.`,
  noRunId: "(no run id)",
  wallTime: "wall time",
  badRequests: (file: string, n: number) => `lab trace: line ${n} of ${file} is not an exchange of lab provider --log; it is left out.`,
} as const;

type Event = Record<string, unknown> & { type?: unknown; runId?: unknown; at?: unknown };

const WIDTH = 80;
const LABEL = 17;
const usd = (v: unknown) => (typeof v === "number" ? `$${v.toFixed(6)}` : "");
const str = (v: unknown) => (v === undefined || v === null ? "" : typeof v === "string" ? v : JSON.stringify(v));

/** One event's detail, in words. */
function describe(e: Event): string {
  switch (e.type) {
    case "turn":
      return `in ${str(e["input_tokens"])} out ${str(e["output_tokens"])}, total ${usd(e["costUsd"])}, ${str(e["stop_reason"])}`;
    case "tool_start":
    case "approval_required":
      return `${str(e["toolName"])} ${str(e["input"] ?? e["args"])}`;
    case "tool_progress":
      return `${str(e["toolName"])}: ${str(e["label"])}`;
    case "tool_result":
      return `${str(e["toolName"])} ${e["ok"] === false ? "error" : "ok"} in ${str(e["ms"])} ms`;
    case "run_stopped": {
      const reason = e["reason"] ? ` (${str(e["reason"])})` : "";
      return `${str(e["status"])}${reason}, ${str(e["turns"])} turns, ${usd(e["costUsd"])}`;
    }
    default: {
      const { type: _t, runId: _r, at: _a, ...rest } = e;
      return str(rest);
    }
  }
}

/** Wraps `text` to the screen, continuation lines indented under the detail column. */
function wrap(head: string, text: string): string[] {
  const room = WIDTH - head.length;
  const lines: string[] = [];
  let rest = text;
  while (rest.length > room) {
    const cut = rest.lastIndexOf(" ", room) > room / 2 ? rest.lastIndexOf(" ", room) : room;
    lines.push(rest.slice(0, cut));
    rest = rest.slice(cut).trimStart();
  }
  lines.push(rest);
  return lines.map((line, i) => (i === 0 ? head : " ".repeat(head.length)) + line);
}

/** Parses the file into events, reporting each bad line. */
export function readTrace(text: string, onBadLine: (n: number, why: string) => void): Event[] {
  const events: Event[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("not an object");
      events.push(value as Event);
    } catch (err) {
      onBadLine(i + 1, (err as Error).message);
    }
  });
  return events;
}

/** The timeline of every run in `events`, in order of first appearance. */
export function formatTimeline(events: Event[], only?: string, exchanges: LoggedExchange[] | null = null): string[] {
  const runs = new Map<string, Event[]>();
  for (const e of events) {
    const id = typeof e.runId === "string" && e.runId !== "" ? e.runId : TRACE_MESSAGES.noRunId;
    runs.set(id, [...(runs.get(id) ?? []), e]);
  }
  if (only !== undefined && !runs.has(only)) throw new UsageError(TRACE_MESSAGES.noRun(only, [...runs.keys()]));
  const out: string[] = [];
  for (const [id, list] of runs) {
    if (only !== undefined && id !== only) continue;
    if (out.length > 0) out.push("");
    out.push(...wrap("run ", `${id} · ${list.length} ${list.length === 1 ? "event" : "events"}`));
    const start = list.map((e) => e.at).find((at): at is number => typeof at === "number");
    for (const e of list) {
      const clock = typeof e.at === "number" && start !== undefined ? `+${((e.at - start) / 1000).toFixed(3)}s` : "";
      out.push(...wrap(` ${clock.padStart(8)}  ${str(e.type).padEnd(LABEL)} `, describe(e)));
    }
    const time = list.length > 1 ? wallTime(list, exchanges) : null;
    if (time) out.push(...wrap(` ${"".padStart(8)}  ${TRACE_MESSAGES.wallTime.padEnd(LABEL)} `, describeWallTime(time)));
  }
  return out;
}

/** The exchanges of a provider log (`lab provider --log`), each bad line named. */
function readExchanges(file: string, io: Io): LoggedExchange[] {
  const exchanges: LoggedExchange[] = [];
  readText(file, io)
    .split("\n")
    .forEach((line, i) => {
      if (line.trim() === "") return;
      let x: Partial<LoggedExchange> | null = null;
      try {
        x = JSON.parse(line) as Partial<LoggedExchange>;
      } catch {
        x = null;
      }
      if (typeof x?.at === "number" && typeof x.ms === "number" && typeof x.status === "number") exchanges.push(x as LoggedExchange);
      else writeLine(io.stderr, TRACE_MESSAGES.badRequests(file, i + 1));
    });
  return exchanges;
}

function readText(file: string, io: Io): string {
  try {
    return readFileSync(resolve(io.cwd, file), "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // A file that is not there is the command used the wrong way (exit 2); one that cannot be read is not.
    const Problem = code === "ENOENT" || code === "EISDIR" ? UsageError : UserError;
    throw new Problem(TRACE_MESSAGES.unreadable(file, code ?? (err as Error).message));
  }
}

export async function traceCommand(file: string, opts: { run?: string; requests?: string }, io: Io): Promise<number> {
  const text = readText(file, io);
  const exchanges = opts.requests ? readExchanges(opts.requests, io) : null;
  let bad = 0;
  const events = readTrace(text, (n, why) => (bad++, writeLine(io.stderr, TRACE_MESSAGES.badLine(n, why))));
  if (events.length === 0) throw new UserError(TRACE_MESSAGES.empty(file));
  for (const line of formatTimeline(events, opts.run, exchanges)) writeLine(io.stdout, line);
  return bad > 0 ? 1 : 0;
}
