/**
 * Fuzzing the provider, seeded so every run sends the same bytes: 1,000 malformed bodies (and
 * five of 20 MB) in process, each a 400 or 413 in the API's shape; then 400 whole requests
 * (paths, methods, headers, bodies) against `lab provider` in a process of its own, which must
 * answer each in the API's shape or close the socket, never exit, and stay as fast.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Provider } from "../../../checker/provider/index.js";
import { tempDir } from "../../support/temp-dir.js";
import { hugeBodies, malformedBodies, type Malformed } from "./fuzz-bodies.js";
import { fuzzRequests } from "./fuzz-requests.js";
import { ask, clientFor, ID, notErrorShape, post, rawHttp, useProvider, type RawReply, type RawResponse } from "./support.js";

const LAB = join(import.meta.dirname, "../../../bin/lab.js");

const provider = useProvider();
const SEED = 20240611;
const TYPE_OF = { 400: "invalid_request_error", 413: "request_too_large" } as Record<number, string>;

/** Why a response is not the error the body deserves, or null when it is. */
function problem(sent: Malformed, got: RawResponse): string | null {
  if (got.status !== 400 && got.status !== 413) return `status ${got.status}: ${got.text.slice(0, 200)}`;
  const body = got.json as { type?: unknown; error?: { type?: unknown; message?: unknown }; request_id?: unknown } | null;
  const requestId = got.headers.get("request-id");
  if (!body || Object.keys(body).join() !== "type,error,request_id" || body.type !== "error") return `shape: ${got.text.slice(0, 200)}`;
  if (Object.keys(body.error ?? {}).join() !== "type,message" || body.error!.type !== TYPE_OF[got.status]) return `error: ${JSON.stringify(body.error)}`;
  if (typeof requestId !== "string" || !ID.request.test(requestId) || body.request_id !== requestId)
    return `request_id ${String(body.request_id)} / ${requestId}`;
  const message = String(body.error!.message);
  if (sent.message !== undefined && message !== sent.message) return `message "${message.slice(0, 200)}", wanted "${sent.message}"`;
  const starts = sent.startsWith === undefined ? [] : [sent.startsWith].flat();
  if (starts.length > 0 && !starts.some((s) => message.startsWith(s))) return `message "${message.slice(0, 200)}", wanted a start of ${starts.join(" | ")}`;
  return null;
}

/** Sends every body, a few at a time, and lists what came back wrong. */
async function sendAll(bodies: Malformed[], concurrency: number): Promise<string[]> {
  const problems: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const i = next++;
      const sent = bodies[i]!;
      const countOnly = i % 4 === 0 && ["json", "truncated", "utf8", "deep"].includes(sent.kind);
      const got = await post(provider(), countOnly ? "/s/echo/v1/messages/count_tokens" : "/s/echo/v1/messages", sent.body);
      const wrong = problem(sent, got);
      if (wrong) problems.push(`#${i} ${sent.kind}: ${wrong}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return problems;
}

describe("fuzz", () => {
  it("answers 1,000 seeded malformed bodies with 400 in the exact error shape", async () => {
    const bodies = malformedBodies(SEED, 1000);
    expect(new Set(bodies.map((b) => b.kind))).toEqual(new Set(["json", "wrong-type", "missing", "truncated", "utf8", "deep"]));
    expect(await sendAll(bodies, 8)).toEqual([]);
    expect(provider().requests).toHaveLength(1000);
    expect((await clientFor(provider()).messages.create(ask("still there?"))).content[0]).toMatchObject({ text: "You said: still there?" });
  }, 60_000);

  it("answers five 20 MB bodies, sizing huge prompts for little more than it costs to parse them", async () => {
    provider().reset();
    // CPU time of this process, which the provider runs in, so a busy machine does not skew it.
    const cpu: Record<string, number> = {};
    for (const sent of hugeBodies()) {
      const before = process.cpuUsage();
      const got = await post(provider(), "/s/echo/v1/messages", sent.body);
      const used = process.cpuUsage(before);
      cpu[sent.kind] = used.user + used.system;
      expect(problem(sent, got)).toBeNull();
    }
    // huge-string is parsed and refused at once: the baseline for moving and parsing 20 MB.
    expect(cpu["huge-prose"]! / cpu["huge-string"]!).toBeLessThan(5);
    expect(cpu["huge-run"]! / cpu["huge-string"]!).toBeLessThan(5);
    provider().reset();
    expect((await clientFor(provider()).messages.create(ask("and now?"))).stop_reason).toBe("end_turn");
  });
});

/** `lab provider` in a process of its own, so that an exit would show as one. */
async function labProvider(): Promise<{ child: ChildProcess; port: number; stderr: () => string }> {
  const child = spawn(process.execPath, [LAB, "provider", "--port", "0"], { cwd: tempDir("provider-fuzz"), stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr!.on("data", (c: Buffer) => (err += c));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on("data", (c: Buffer) => {
      // Only the head is kept: every request prints a line, and nobody reads them here.
      if (out.length < 4096) out += c;
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.on("exit", (code) => reject(new Error(`lab provider exited (${code}): ${err}`)));
  });
  return { child, port, stderr: () => err };
}

/** Why a reply is neither a closed socket, a success of the API's shape, nor its error shape; or null. */
function notApiReply(got: RawReply): string | null {
  if (got.closed) return null;
  if (got.status === 200) {
    const json = got.json as { type?: unknown; input_tokens?: unknown } | null;
    if (json?.type === "message" || typeof json?.input_tokens === "number" || got.body.startsWith("event: message_start")) return null;
    return `200 that is not a message: ${got.body.slice(0, 200)}`;
  }
  return notErrorShape(got);
}

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)]!;
const SMALL = Buffer.from(
  `POST /s/echo/v1/messages HTTP/1.1\r\nHost: x\r\nConnection: close\r\nx-api-key: k\r\nanthropic-version: 2023-06-01\r\ncontent-type: application/json\r\n` +
    `content-length: ${Buffer.byteLength(JSON.stringify(ask("small")))}\r\n\r\n${JSON.stringify(ask("small"))}`,
);

/** Runs `load` on `workers` connections at a time while one more client times small requests. */
async function smallLatenciesUnder(port: number, load: Buffer[], workers: number): Promise<{ latencies: number[]; problems: string[] }> {
  const target = { port } as Provider;
  const problems: string[] = [];
  let next = 0;
  let done = false;
  const latencies: number[] = [];
  const timing = (async () => {
    while (!done) {
      const started = performance.now();
      const got = await rawHttp(target, SMALL);
      latencies.push(performance.now() - started);
      if (got.status !== 200) problems.push(`small request: ${got.status} ${got.body.slice(0, 200)}`);
    }
  })();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < load.length) {
        const i = next++;
        const wrong = notApiReply(await rawHttp(target, load[i]!));
        if (wrong) problems.push(`#${i} ${load[i]!.subarray(0, 80).toString("latin1").split("\r\n")[0]}: ${wrong}`);
      }
    }),
  );
  done = true;
  await timing;
  return { latencies, problems };
}

describe("fuzz: whole requests against lab provider", () => {
  const children: ChildProcess[] = [];
  afterAll(() => children.forEach((c) => c.kill("SIGKILL")));

  it("answers 400 seeded requests (paths, methods, headers, bodies) in the API's shape, never exits, and small requests stay as fast", async () => {
    const lab = await labProvider();
    children.push(lab.child);
    const fuzz = fuzzRequests(SEED, 400).map((f) => f.bytes);
    // The yardstick for "as fast" is the same number of ordinary small requests, sent in
    // rounds that alternate with the fuzz so that a machine busier at one moment weighs on both.
    const plainLatencies: number[] = [];
    const fuzzLatencies: number[] = [];
    const problems: string[] = [];
    for (let round = 0; round < 4; round++) {
      const plain = await smallLatenciesUnder(
        lab.port,
        Array.from({ length: 100 }, () => SMALL),
        6,
      );
      const fuzzed = await smallLatenciesUnder(lab.port, fuzz.slice(round * 100, round * 100 + 100), 6);
      plainLatencies.push(...plain.latencies);
      fuzzLatencies.push(...fuzzed.latencies);
      problems.push(...plain.problems, ...fuzzed.problems);
    }
    expect(problems).toEqual([]);
    expect(lab.child.exitCode).toBeNull();
    // Alone on a quiet machine the ratio is about 1.1; a request that stalls the provider makes it 10 or more.
    expect(p95(fuzzLatencies) / p95(plainLatencies)).toBeLessThan(4);
    lab.child.kill("SIGINT");
    expect(await new Promise((r) => lab.child.on("exit", r))).toBe(0);
    expect(lab.stderr()).toBe("");
  }, 120_000);
});
