/**
 * lab run 7: your audit of two request builders against the provider's prompt cache (the
 * `exact-reply` scenario): the chapter's app, whose system prompt carries a clock, and a
 * healthy one. Each audit's calls are said with its verdict, then which part of the first
 * builder's request changes between two questions.
 */
import type Anthropic from "@anthropic-ai/sdk";

type BuildRequest = (question: string) => Anthropic.MessageCreateParamsNonStreaming;

interface Audit {
  perCall: { uncachedIn: number; cacheWrite: number; cacheRead: number }[];
  hitRate: number;
  verdict: string;
}

interface Impl {
  auditCaching(client: Anthropic, build: BuildRequest, n?: number): Promise<Audit>;
  findInvalidator(build: BuildRequest): string;
}

interface Kit {
  client(scenario: string): unknown;
  say(text: string): void;
  support(): Promise<Record<string, unknown>>;
}

export default async function demo(lab: Impl, kit: Kit): Promise<unknown> {
  const support = await kit.support();
  const builders: [string, BuildRequest][] = [
    ["the chapter's app (a clock in the system prompt)", (support["stampedBuilder"] as () => BuildRequest)()],
    ["a healthy app", (support["healthyBuilder"] as () => BuildRequest)()],
  ];
  const verdicts: Record<string, string> = {};
  for (const [name, build] of builders) {
    const audit = await lab.auditCaching(kit.client("exact-reply") as Anthropic, build);
    kit.say(`${name}: hit rate ${audit.hitRate.toFixed(3)}, ${audit.verdict}`);
    audit.perCall.forEach((c, i) => kit.say(`  call ${i + 1}: ${c.uncachedIn} uncached, ${c.cacheWrite} written, ${c.cacheRead} read`));
    verdicts[name] = audit.verdict;
  }
  // The first difference is what matters; its line can be long (a whole system prompt).
  const invalidator = lab.findInvalidator(builders[0]![1]).slice(0, 160);
  kit.say(`What changes between two questions in the chapter's app:\n${invalidator}…`);
  return { verdicts, invalidator };
}
