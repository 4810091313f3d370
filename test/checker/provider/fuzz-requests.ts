/**
 * Whole HTTP requests for the fuzz test, as raw bytes from a seeded PRNG: methods, paths,
 * headers and bodies, each drawn from what is ordinary and from every input that once
 * crashed, stalled or fooled the provider (bad percent-encoding, status=99, a header
 * injection, a typo'd option, unknown models, max_tokens past the ceiling, wrong tool_choice).
 */
import { malformedBodies, prng, validBody } from "./fuzz-bodies.js";

export interface FuzzRequest {
  label: string;
  bytes: Buffer;
}

type Random = () => number;
const int = (r: Random, n: number) => Math.floor(r() * n);
const pick = <T>(r: Random, items: readonly T[]): T => items[int(r, items.length)]!;

const METHODS = ["POST", "POST", "POST", "POST", "POST", "POST", "GET", "PUT", "DELETE", "OPTIONS", "PATCH", "BREW", "P\u0000ST", "post"];

const SCENARIOS = [
  "echo",
  "weather",
  "capital-weather",
  "runaway",
  "refusal",
  "truncated",
  "pause",
  "rate-limited",
  "overloaded",
  "server-errors",
  "bad-request",
  "drop-before-headers",
  "drop-mid-stream",
  "growing",
  "loop-cycle",
];

const ODD_PATHS = [
  "/s/%ZZ/v1/messages",
  "/s/%/v1/messages",
  "/s/weather/a=%ZZ/v1/messages",
  "/s/server-errors/status=99/v1/messages",
  "/s/server-errors/status=-1/v1/messages",
  "/s/rate-limited/retryAfterMs=%0D%0AX-Evil:%201/v1/messages",
  "/s/rate-limited/retryAfter=%0D%0A/v1/messages",
  "/s/rate-limited/retryafter=7/v1/messages",
  "/s/growing/grow=1e9/v1/messages",
  "/s/growing/turns=99999999999/v1/messages",
  "/s/echo/faults=1/faults=2/v1/messages",
  "/s/echo/%00=1/v1/messages",
  "/s/echo/__proto__=1/v1/messages",
  "/s/constructor/v1/messages",
  "/s/nope/v1/messages",
  `/s/${"x".repeat(4000)}/v1/messages`,
  "/s/echo/v1/messages/count_tokens",
  "/v1/messages?beta=true",
  "/v1/messages/",
  "/v1/models",
  "/../../etc/passwd",
  "*",
  "/s/echo/v1/messages#frag",
];

function path(r: Random): string {
  const roll = r();
  if (roll < 0.35) return pick(r, ODD_PATHS);
  if (roll < 0.45) return `/${Array.from({ length: int(r, 6) }, () => encodeURIComponent(String.fromCharCode(int(r, 0x3000)))).join("/")}`;
  if (roll < 0.55) return pick(r, ["/v1/messages", "/v1/messages/count_tokens"]);
  const scenario = pick(r, SCENARIOS);
  const options = scenario === "rate-limited" || scenario === "overloaded" || scenario === "server-errors" ? `/faults=${int(r, 3)}` : "";
  return `/s/${scenario}${options}/v1/messages${r() < 0.1 ? "/count_tokens" : ""}`;
}

const WRONG_TOOL_CHOICES: unknown[] = [
  "auto",
  5,
  [],
  true,
  {},
  { type: "function" },
  { type: "required" },
  { type: "TOOL" },
  { type: 1 },
  { type: "tool" },
  { type: "tool", name: 5 },
  { type: "auto", disable_parallel_tool_use: "yes" },
  { type: "any", disable_parallel_tool_use: 1 },
];

function body(r: Random, seed: number): string | Buffer {
  const good = validBody();
  const roll = r();
  if (roll < 0.3) return JSON.stringify({ ...good, stream: r() < 0.3 });
  if (roll < 0.4) return JSON.stringify({ ...good, model: pick(r, ["gpt-4", "claude-3-opus", "", "m".repeat(300), "claude-sonnet-5", "claude-haiku-4-5"]) });
  if (roll < 0.5)
    return `{"model":"claude-opus-5","max_tokens":${pick(r, ["3000000", "1e21", "2147483647", "128001", "-1", "0.5", "1e308"])},"messages":[{"role":"user","content":"hi"}]}`;
  if (roll < 0.6) return JSON.stringify({ ...good, temperature: pick(r, [-5, 1e21, 1.5, -0.001, 0.7]) });
  if (roll < 0.7) return JSON.stringify({ ...good, tool_choice: pick(r, WRONG_TOOL_CHOICES) });
  if (roll < 0.75) return "";
  const [malformed] = malformedBodies(seed, 1);
  return typeof malformed!.body === "string" ? malformed!.body : Buffer.from(malformed!.body);
}

function headers(r: Random, length: number): string[] {
  const lines = ["Host: 127.0.0.1", "Connection: close", "Content-Type: application/json"];
  const key = r();
  if (key < 0.8) lines.push("x-api-key: fuzz");
  else if (key < 0.9) lines.push("Authorization: Bearer fuzz");
  else if (key < 0.95) lines.push("x-api-key: ");
  if (r() < 0.9) lines.push("anthropic-version: 2023-06-01");
  const odd = r();
  if (odd < 0.05) lines.push("X-Odd: a\u0001b");
  else if (odd < 0.08) lines.push(`X-Huge: ${"h".repeat(20_000)}`);
  else if (odd < 0.1) lines.push("Content-Length: 5", "Content-Length: 6");
  else if (odd < 0.12) lines.push("Transfer-Encoding: chunked");
  else if (odd < 0.15) lines.push(`Content-Length: ${length + 10}`);
  else if (odd < 0.17) lines.push("Content-Length: zz");
  if (!lines.some((l) => /^(content-length|transfer-encoding):/i.test(l))) lines.push(`Content-Length: ${length}`);
  return lines;
}

/** `count` requests, the same for the same seed. */
export function fuzzRequests(seed: number, count: number): FuzzRequest[] {
  const r = prng(seed);
  return Array.from({ length: count }, (_, i) => {
    const method = pick(r, METHODS);
    const target = path(r);
    const payload = Buffer.from(body(r, seed + i));
    const head = [`${method} ${target} HTTP/1.1`, ...headers(r, payload.length)].join("\r\n");
    const cut = r() < 0.05 ? int(r, payload.length + 1) : payload.length;
    return { label: `${method} ${target.slice(0, 80)}`, bytes: Buffer.concat([Buffer.from(`${head}\r\n\r\n`, "latin1"), payload.subarray(0, cut)]) };
  });
}
