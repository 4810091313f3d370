/**
 * lab run 10: your decorator around three kinds of call against the scripted provider: two
 * plain calls (the `echo` scenario), one streamed (`walkthrough`), and one that fails (a
 * 400 from `bad-request`), each with its own label. Then the ledger: its rows, its total, and
 * where the money went.
 */
import type Anthropic from "@anthropic-ai/sdk";

interface Ledger {
  rows: { label: string; model: string; in: number; out: number }[];
  total(): number;
  whereTheMoneyWent(): Record<string, number>;
}

interface Impl {
  Ledger: new () => Ledger;
  accounted<A extends unknown[]>(label: string, model: string, fn: (...a: A) => Promise<Anthropic.Message>, ledger?: Ledger): (...a: A) => Promise<Anthropic.Message>;
  accountedStream<A extends unknown[]>(label: string, model: string, fn: (...a: A) => ReturnType<Anthropic["messages"]["stream"]>, ledger?: Ledger): (...a: A) => Promise<Anthropic.Message>;
}

interface Kit {
  goal: string | undefined;
  client(scenario: string): unknown;
  say(text: string): void;
}

const MODEL = "claude-opus-5";

export default async function demo(lab: Impl, kit: Kit): Promise<unknown> {
  const ledger = new lab.Ledger();
  const question = kit.goal ?? "What does a token cost?";
  const body = { model: MODEL, max_tokens: 512, messages: [{ role: "user" as const, content: question }] };
  const echo = kit.client("echo") as Anthropic;
  const plain = lab.accounted("answer", MODEL, (b: typeof body) => echo.messages.create(b), ledger);
  await plain(body);
  await plain({ ...body, messages: [{ role: "user", content: `${question} Say it again.` }] });
  const walkthrough = kit.client("walkthrough") as Anthropic;
  await lab.accountedStream("streamed", MODEL, (b: typeof body) => walkthrough.messages.stream(b), ledger)(body);
  const failing = kit.client("bad-request") as Anthropic;
  try {
    await lab.accounted("failed", MODEL, (b: typeof body) => failing.messages.create(b), ledger)(body);
  } catch (err) {
    kit.say(`The failing call threw, as it should: ${(err as Error).message.slice(0, 80)}`);
  }
  for (const row of ledger.rows) kit.say(`${row.label.padEnd(9)} ${row.model}  ${row.in} in, ${row.out} out`);
  kit.say(`total $${ledger.total().toFixed(6)}`);
  return ledger.whereTheMoneyWent();
}
