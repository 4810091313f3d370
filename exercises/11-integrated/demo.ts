/**
 * lab run 11: your assembled loop on the chapter's walk-through for tenant acme ("how do I
 * rotate an API key", the `acme-triage` scenario), with the lab's reference parts (cache,
 * retry, ledger, budget, guard, offloader). What the parts did is said after the run; lab
 * triage runs the same loop with every step said as it happens.
 */
import type Anthropic from "@anthropic-ai/sdk";

interface Impl {
  run(request: string, tenant: string, opts: { limitUsd?: number; maxSteps?: number }, parts: unknown): Promise<Record<string, unknown>>;
}

interface Kit {
  goal: string | undefined;
  client(scenario: string): unknown;
  say(text: string): void;
  support(): Promise<Record<string, unknown>>;
}

export default async function demo(lab: Impl, kit: Kit): Promise<unknown> {
  const support = await kit.support();
  const referenceParts = support["referenceParts"] as (o: { client: Anthropic }) => { parts: unknown; events: string[]; rows: { usd: number }[] };
  const ref = referenceParts({ client: kit.client("acme-triage") as Anthropic });
  const question = kit.goal ?? "how do I rotate an API key";
  const result = await lab.run(question, "acme", { limitUsd: 2, maxSteps: 12 }, ref.parts);
  kit.say(`What the parts did, in order: ${ref.events.join(" → ")}`);
  kit.say(`${ref.rows.length} model calls, $${ref.rows.reduce((n, r) => n + r.usd, 0).toFixed(4)}`);
  return result;
}
