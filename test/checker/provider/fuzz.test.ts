/** 1,000 malformed bodies (and five of 20 MB) on loopback: each one a 400 or 413 in the API's shape, and the server lives on. */
import { describe, expect, it } from "vitest";
import { hugeBodies, malformedBodies, type Malformed } from "./fuzz-bodies.js";
import { ask, clientFor, ID, post, useProvider, type RawResponse } from "./support.js";

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
  if (typeof requestId !== "string" || !ID.request.test(requestId) || body.request_id !== requestId) return `request_id ${String(body.request_id)} / ${requestId}`;
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
  });

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
