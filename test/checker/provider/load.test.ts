/** Twenty SDK clients at once against rate-limited: every one gets through, and only scripted faults fail. */
import { describe, expect, it } from "vitest";
import { ask, clientFor, freshKey, useProvider } from "./support.js";

const provider = useProvider();
const CLIENTS = 20;

describe("load", () => {
  it("lets 20 concurrent clients retry through two scripted 429s each, in exactly 60 requests", async () => {
    const keys = Array.from({ length: CLIENTS }, () => freshKey());
    const replies = await Promise.all(
      keys.map((apiKey, i) =>
        clientFor(provider(), "rate-limited", { apiKey, maxRetries: 2, options: { faults: 2, retryAfterMs: 5 } }).messages.create(
          ask(`client ${i} asks its own question`),
        ),
      ),
    );

    replies.forEach((reply, i) => {
      expect(reply.content).toEqual([{ type: "text", text: `Done: client ${i} asks its own question` }]);
    });
    const exchanges = provider().requests;
    expect(exchanges).toHaveLength(3 * CLIENTS);
    const failed = exchanges.filter((e) => e.status !== 200);
    expect(failed).toHaveLength(2 * CLIENTS);
    for (const e of failed) {
      expect(e).toMatchObject({ status: 429, outcome: "error", response: { error: { type: "rate_limit_error" } } });
      expect(e.attempt).toBeLessThanOrEqual(2);
    }
    for (const apiKey of keys) {
      expect(exchanges.filter((e) => e.apiKey === apiKey).map((e) => [e.status, e.attempt])).toEqual([
        [429, 1],
        [429, 2],
        [200, 3],
      ]);
    }
  });
});
