/** The `walkthrough` scenario and tokenText: token counts set exactly, for exercise 10's priced walk-through. */
import { describe, expect, it } from "vitest";
import { tokenText } from "../../../checker/provider/scenarios/sized-text.js";
import { WALKTHROUGH_OUTPUT } from "../../../exercises/10-accounting/scenarios.js";
import { countText } from "../../../checker/provider/tokens.js";
import { clientFor, freshKey, useProvider } from "./support.js";

const provider = useProvider();

describe("tokenText", () => {
  it("is exactly the asked number of o200k tokens, for any word it repeats", () => {
    for (const n of [1, 2, 20, 1_100, 6_100]) {
      for (const word of ["note", "policy", "answer"]) expect(countText(tokenText(n, word)), `${n} × ${word}`).toBe(n);
    }
  });

  it("refuses a count that is not a whole number of at least 1", () => {
    for (const bad of [0, -3, 2.5, Number.NaN]) expect(() => tokenText(bad)).toThrow(RangeError);
  });
});

describe("the walkthrough scenario", () => {
  it("answers turn k with exactly out[k] output tokens, the chapter's by default", async () => {
    const client = clientFor(provider(), "walkthrough", { apiKey: freshKey() });
    const messages: Array<{ role: "user" | "assistant"; content: string }> = [];
    const outputs: number[] = [];
    for (let turn = 0; turn < WALKTHROUGH_OUTPUT.length; turn++) {
      messages.push({ role: "user", content: `turn ${turn + 1}` });
      const reply = await client.messages.create({ model: "claude-opus-5", max_tokens: 1024, messages });
      outputs.push(reply.usage.output_tokens);
      const first = reply.content[0];
      messages.push({ role: "assistant", content: first?.type === "text" ? first.text : "" });
    }
    expect(outputs).toEqual([180, 150, 120, 260, 300]);
  });

  it("takes its counts from out=…", async () => {
    const client = clientFor(provider(), "walkthrough", { apiKey: freshKey(), options: { out: "7,3" } });
    const reply = await client.messages.create({ model: "claude-opus-5", max_tokens: 1024, messages: [{ role: "user", content: "go" }] });
    expect(reply.usage.output_tokens).toBe(7);
  });
});
