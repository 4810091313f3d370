/** The provider's memory levels off however many requests it serves: exchanges are kept in a bounded window. */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { MODEL, useProvider } from "./support.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const heapAfterGc = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const MB = 1024 * 1024;
const provider = useProvider({ keep: { exchanges: 1_000, bytes: 4 * MB } });

/** About 100 KB of words, different for every seed. */
function document(seed: number): string {
  const words: string[] = [];
  let n = seed;
  let length = 0;
  while (length < 100 * 1024) {
    n = (n * 1103515245 + 12345) % 2 ** 31;
    const word = `w${n % 9973}`;
    words.push(word);
    length += word.length + 1;
  }
  return words.join(" ");
}

async function send(count: number, from: number): Promise<void> {
  // A transcript resent each turn: the same document, then a new question, so counting stays cheap.
  const doc = document(1);
  for (let i = from; i < from + count; i++) {
    const body = JSON.stringify({
      model: MODEL,
      max_tokens: 16,
      messages: [
        { role: "user", content: doc },
        { role: "assistant", content: "Read it." },
        { role: "user", content: `question ${i}` },
      ],
    });
    const response = await fetch(`${provider().origin}/s/echo/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "memory", "anthropic-version": "2023-06-01" },
      body,
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  }
}

describe("memory", () => {
  it("levels off: 200 more requests of 100 KB add less than the 4 MB window to the heap", async () => {
    await send(60, 0);
    const before = heapAfterGc();
    await send(200, 60);
    const after = heapAfterGc();
    // Kept whole, the 200 bodies alone would be 20 MB.
    expect((after - before) / MB).toBeLessThan(4);
    expect(provider().requests.length).toBeLessThanOrEqual(41);
    expect(provider().forgotten).toBeGreaterThan(210);
    expect(provider().requests.at(-1)?.body).toMatchObject({ messages: [{}, {}, { content: "question 259" }] });
  }, 60_000);
});
