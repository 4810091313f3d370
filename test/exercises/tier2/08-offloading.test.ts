/**
 * Exercise 8's tier-2 reference, run: the tool step that passes every result through the
 * Offloader, against a model that follows the pointer it is given back to read_artifact.
 */
import { readFileSync, rmSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { run } from "../../../exercises/08-offloading/reference/tier2.js";
import { langchainSession } from "./langchain-session.js";
import { lastTranscript, resultText, toolResults, toolUses } from "./wire.js";

const THRESHOLD = 2000;

describe("exercise 8, tier 2: offloading in the tool step", () => {
  test("every tool is wrapped: search_docs and read_artifact both reach the model as pointers to files holding the whole result", async () => {
    // "injection" searches, then calls read_artifact on any path a result tells it to read:
    // here the pointer's own "Use read_artifact(path=...)" line.
    const session = await langchainSession("injection");

    const answer = await run("How do I rotate an API key?");

    const transcript = lastTranscript(session);
    const asked = new Map(transcript.flatMap(toolUses).map((use) => [use.id, use.name]));
    const sent = transcript.flatMap(toolResults).map((r) => ({ tool: asked.get(r.tool_use_id), text: resultText(r) }));
    expect(
      sent.map((r) => r.tool),
      "the tools whose results went back",
    ).toEqual(["search_docs", "read_artifact"]);
    for (const { tool, text } of sent) {
      expect(text.length, `${tool}'s result as sent`).toBeLessThanOrEqual(THRESHOLD);
      const [, lines, path] = /^\[offloaded\] \S+ returned (\d+) lines \/ \d+ chars -> (\S+)$/m.exec(text) ?? [];
      expect(path, `${tool}'s result names its artifact`).toBeDefined();
      expect(readFileSync(path!, "utf8").split("\n"), `the artifact of ${tool}`).toHaveLength(Number(lines));
      rmSync(path!);
    }
    expect(answer.length, "the answer quotes a pointer, not the dump").toBeLessThan(THRESHOLD);
  });
});
