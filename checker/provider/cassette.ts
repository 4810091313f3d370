/**
 * A cassette: exchanges recorded from a real endpoint (one JSON line each), served back by
 * what a request says rather than when it comes. A request matches a recording of the same
 * endpoint whose body is equal (key order aside); the same request again gets the next
 * recording of it, so a 429 recorded before its 200 replays in that order.
 */
import { readFileSync } from "node:fs";
import { parseRoute, type Endpoint } from "./route.js";

export interface RecordedExchange {
  v: 1;
  method: string;
  path: string;
  /** The request body as JSON, or its text when it was not JSON. */
  request: unknown;
  status: number;
  headers: Record<string, string>;
  /** A whole body, or (for a stream) its chunks as they arrived. */
  body?: string;
  chunks?: string[];
  ms: number;
}

const QUOTE = 60;

export const CASSETTE_MESSAGES = {
  unreadable: (file: string, why: string) => `The cassette ${file} could not be read (${why}).`,
  badLine: (file: string, line: number) =>
    `${file} line ${line} is not a recorded exchange: each line must be one JSON object written by lab provider --record.`,
  empty: (file: string) => `The cassette ${file} holds no exchanges.`,
  noneForEndpoint: (file: string, method: string, path: string) =>
    `No recorded exchange matches this request: the cassette ${file} holds none for ${method} ${path}.`,
  closest: (file: string, n: number, method: string, path: string, at: string, recorded: string, sent: string) =>
    `No recorded exchange matches this request. The closest is exchange ${n} of ${file} (${method} ${path}), ` +
    `which differs first at ${at}: ${recorded} there, ${sent} here.`,
} as const;

export class CassetteError extends Error {}

/** JSON with every object's keys sorted, so that key order never decides a match. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const show = (value: unknown) => {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > QUOTE ? `${text.slice(0, QUOTE)}…` : text;
};

/** The first place, walking both in order, where `recorded` and `sent` differ. */
export function firstDifference(recorded: unknown, sent: unknown, path = "the body"): { at: string; recorded: unknown; sent: unknown } | null {
  const objects = typeof recorded === "object" && recorded !== null && typeof sent === "object" && sent !== null;
  if (!objects || Array.isArray(recorded) !== Array.isArray(sent)) return canonical(recorded) === canonical(sent) ? null : { at: path, recorded, sent };
  const a = recorded as Record<string, unknown>;
  const b = sent as Record<string, unknown>;
  const keys = Array.isArray(recorded)
    ? Array.from({ length: Math.max((recorded as unknown[]).length, (sent as unknown[]).length) }, (_, i) => String(i))
    : [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  for (const key of keys) {
    const inner = firstDifference(a[key], b[key], path === "the body" ? key : `${path}.${key}`);
    if (inner) return inner;
  }
  return null;
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

export type Match = { kind: "found"; exchange: RecordedExchange; index: number } | { kind: "missing"; message: string };

export class Cassette {
  private readonly keys: string[];
  private readonly served = new Map<string, number>();

  constructor(
    readonly name: string,
    readonly exchanges: readonly RecordedExchange[],
  ) {
    this.keys = exchanges.map((x) => Cassette.key(parseRoute(x.path).endpoint, x.request));
  }

  private static key(endpoint: Endpoint, body: unknown): string {
    return `${endpoint} ${canonical(body)}`;
  }

  /** Reads a cassette file; a line that is not a recorded exchange is named. */
  static read(file: string, name = file): Cassette {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (err) {
      throw new CassetteError(CASSETTE_MESSAGES.unreadable(name, (err as NodeJS.ErrnoException).code ?? (err as Error).message));
    }
    const exchanges: RecordedExchange[] = [];
    text.split("\n").forEach((line, i) => {
      if (line.trim() === "") return;
      let value: Partial<RecordedExchange> | null = null;
      try {
        value = JSON.parse(line) as Partial<RecordedExchange>;
      } catch {
        value = null;
      }
      const ok =
        value?.v === 1 &&
        typeof value.path === "string" &&
        typeof value.method === "string" &&
        Number.isInteger(value.status) &&
        typeof value.headers === "object";
      if (!ok || (typeof value!.body !== "string" && !Array.isArray(value!.chunks))) throw new CassetteError(CASSETTE_MESSAGES.badLine(name, i + 1));
      exchanges.push(value as RecordedExchange);
    });
    if (exchanges.length === 0) throw new CassetteError(CASSETTE_MESSAGES.empty(name));
    return new Cassette(name, exchanges);
  }

  /** The model names the recorded requests used, so that a replay serves them. */
  models(): string[] {
    const names = this.exchanges.map((x) => (x.request as { model?: unknown } | null)?.model);
    return [...new Set(names.filter((m): m is string => typeof m === "string"))];
  }

  /** The recording to serve for this request (the next one of equal requests), or why there is none. */
  match(method: string, path: string, body: unknown): Match {
    const endpoint = parseRoute(path).endpoint;
    const key = Cassette.key(endpoint, body);
    const indices = this.keys.flatMap((k, i) => (k === key ? [i] : []));
    if (indices.length > 0) {
      const times = this.served.get(key) ?? 0;
      this.served.set(key, times + 1);
      const index = indices[Math.min(times, indices.length - 1)]!;
      return { kind: "found", exchange: this.exchanges[index]!, index };
    }
    const candidates = this.keys.flatMap((k, i) => (k.startsWith(`${endpoint} `) ? [i] : []));
    if (candidates.length === 0) return { kind: "missing", message: CASSETTE_MESSAGES.noneForEndpoint(this.name, method, path) };
    const best = candidates.reduce((a, b) => (commonPrefix(this.keys[b]!, key) > commonPrefix(this.keys[a]!, key) ? b : a));
    const recorded = this.exchanges[best]!;
    const difference = firstDifference(recorded.request, body) ?? { at: "the body", recorded: recorded.request, sent: body };
    return {
      kind: "missing",
      message: CASSETTE_MESSAGES.closest(this.name, best + 1, recorded.method, recorded.path, difference.at, show(difference.recorded), show(difference.sent)),
    };
  }

  /** A refusal (a 4xx) recorded for this very request, if the upstream refused it too. */
  recordedRefusal(path: string, body: unknown): { exchange: RecordedExchange; index: number } | null {
    const key = Cassette.key(parseRoute(path).endpoint, body);
    const index = this.keys.findIndex((k, i) => k === key && this.exchanges[i]!.status >= 400 && this.exchanges[i]!.status < 500);
    return index < 0 ? null : { exchange: this.exchanges[index]!, index };
  }

  /** Forgets which recordings were served, so that a replay starts over. */
  rewind(): void {
    this.served.clear();
  }
}
