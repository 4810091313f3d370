/**
 * lab run 2: your retry around one model call to a service that is rate limited twice (the
 * `rate-limited` scenario: two 429s with retry-after: 1, then an answer). Each attempt and
 * each wait is said as it happens; the waits are real, about two seconds in all.
 */
import type Anthropic from "@anthropic-ai/sdk";

interface Impl {
  callWithRetry<T>(fn: () => Promise<T>, opts?: { maxAttempts?: number; sleep?: (seconds: number) => Promise<void> }): Promise<T>;
}

interface Kit {
  goal: string | undefined;
  client(scenario: string, options?: Record<string, number>): unknown;
  say(text: string): void;
}

export default async function demo(lab: Impl, kit: Kit): Promise<unknown> {
  const client = kit.client("rate-limited", { faults: 2, retryAfter: 1 }) as Anthropic;
  const goal = kit.goal ?? "Say hello.";
  const started = Date.now();
  let attempt = 0;
  const sleep = (seconds: number) => {
    kit.say(`  waits ${seconds.toFixed(2)} s`);
    return new Promise<void>((done) => setTimeout(done, seconds * 1000));
  };
  const reply = await lab.callWithRetry(
    async () => {
      attempt++;
      kit.say(`attempt ${attempt} at +${((Date.now() - started) / 1000).toFixed(2)} s`);
      return client.messages.create({ model: "claude-opus-5", max_tokens: 256, messages: [{ role: "user", content: goal }] });
    },
    { sleep },
  );
  kit.say(`Answered on attempt ${attempt}, after ${((Date.now() - started) / 1000).toFixed(2)} s.`);
  return reply.content.map((b) => (b.type === "text" ? b.text : "")).join("");
}
