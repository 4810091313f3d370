/**
 * Exercise 7's verdicts in readable form: the solution's audit over every builder the
 * hidden tests use, printed as a table, so a change to the provider's cache emulation
 * that moves a verdict shows up here in words as well as in the self-check.
 */
import { afterAll, expect, it } from "vitest";
import Anthropic from "@anthropic-ai/sdk";
import { startProvider } from "../../checker/testing/index.js";
import {
  chapterBuilder,
  earlyBreakpointBuilder,
  healthyBuilder,
  modelRouterBuilder,
  rotatedKeysBuilder,
  stampedBuilder,
  tenthBuilder,
  type BuildRequest,
} from "../../exercises/07-cache-audit/support/index.js";
import { auditCaching, findInvalidator } from "../../solutions/07-cache-audit.js";

const provider = await startProvider();
afterAll(() => provider.close());

/** Label, builder, verdict, and whether the cache is warmed first (as the hidden tests do for rates that a first write would blur). */
const BUILDERS: Array<[string, () => BuildRequest, string, boolean]> = [
  ["the chapter's healthy call", chapterBuilder, "HEALTHY", false],
  ["a tool and a cached system prompt", healthyBuilder, "HEALTHY", false],
  ["breakpoint after the first quarter", earlyBreakpointBuilder, "WEAK", true],
  ["a tenth of the input read", tenthBuilder, "BROKEN", true],
  // These three change on every build, cycling through three variants: never warmed,
  // or the audit's last call would meet the warm-up's variant again.
  ["a clock in the system prompt", stampedBuilder, "BROKEN", false],
  ["tool keys in another order", rotatedKeysBuilder, "BROKEN", false],
  ["a model per call", modelRouterBuilder, "BROKEN", false],
];

it("audits every builder to the verdict the lesson promises, and names what changed", async () => {
  const lines: string[] = [];
  for (const [index, [label, make, expected, warmFirst]] of BUILDERS.entries()) {
    const client = new Anthropic({ baseURL: provider.url("exact-reply"), apiKey: `lab-verdicts-${process.pid}-${index}`, maxRetries: 0 });
    const build = make();
    if (warmFirst) await client.messages.create(build("warm-up"));
    const audit = await auditCaching(client, build);
    lines.push(`  ${label.padEnd(36)} hit ${audit.hitRate.toFixed(3)}  ${audit.verdict}`);
    expect(audit.verdict.startsWith(expected), `${label}: ${audit.verdict}`).toBe(true);
  }
  const clock = findInvalidator(stampedBuilder())
    .split("\n")
    .filter((line) => line.includes("2026"));
  console.log(["auditCaching, per builder:", ...lines, "findInvalidator on the clock:", ...clock.map((l) => `  ${l.slice(0, 76)}`)].join("\n"));
  expect(clock.length).toBeGreaterThan(0);
});
