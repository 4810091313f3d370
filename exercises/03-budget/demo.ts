/**
 * lab run 3: your budget on a conversation that resends its whole transcript every turn (the
 * `echo` scenario), with a limit of $0.05. Each turn is charged and said: its cost, what is
 * spent, the state; the guard's wrap-up note is said when it comes, and the run ends when
 * the guard throws.
 */
import type Anthropic from "@anthropic-ai/sdk";

interface Usage {
  input_tokens: number;
  output_tokens: number;
}

interface Budget {
  spent: number;
  calls: number;
  byModel: Record<string, number>;
  charge(model: string, usage: Usage): number;
  readonly state: string;
  guard(): string | null;
}

interface Impl {
  Budget: new (limitUsd: number) => Budget;
}

interface Kit {
  goal: string | undefined;
  client(scenario: string): unknown;
  say(text: string): void;
}

const MODEL = "claude-opus-5";
const NOTES = "Here is the next page of the build log to keep in mind. ".repeat(60);

export default async function demo(lab: Impl, kit: Kit): Promise<unknown> {
  const client = kit.client("echo") as Anthropic;
  const budget = new lab.Budget(0.05);
  const messages: Anthropic.MessageParam[] = [];
  for (let turn = 1; turn <= 40; turn++) {
    messages.push({ role: "user", content: `${kit.goal ?? "Summarise the log so far."} ${NOTES}` });
    const reply = await client.messages.create({ model: MODEL, max_tokens: 256, messages });
    messages.push({ role: "assistant", content: reply.content });
    const cost = budget.charge(MODEL, reply.usage);
    kit.say(`turn ${turn}: ${reply.usage.input_tokens} in, ${reply.usage.output_tokens} out, $${cost.toFixed(4)}; spent $${budget.spent.toFixed(4)} (${budget.state})`);
    try {
      const note = budget.guard();
      if (note) kit.say(`  the guard's note to the model: ${note}`);
    } catch (err) {
      kit.say(`  the guard stops the run: ${(err as Error).message}`);
      break;
    }
  }
  return { spent: budget.spent, calls: budget.calls, byModel: budget.byModel, state: budget.state };
}
