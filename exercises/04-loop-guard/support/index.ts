/**
 * Exercise 1's loop with the chapter's loop-guard wiring, for exercise 4's hidden tests.
 * The loop is the test's, not the learner's: it runs the tool, asks the guard, and on a
 * first trip sends the guard's sentence back as that tool's result, marked is_error,
 * which is what makes the scripted loop models change course. A second trip, or the
 * guard's step cap (halted), ends the run with a partial report.
 */
import type Anthropic from "#anthropic-sdk";
import type { ScenarioSession } from "../../../checker/testing/index.js";

/** The part of a LoopGuard the loop uses. */
export interface Guard {
  trips: number;
  halted: boolean;
  check(tool: string, args: unknown, state: unknown, progress?: number): string | null;
}

/** What a scenario's tools act on, and what the guard is shown of it after each call. */
export interface World {
  tools: Anthropic.Tool[];
  run(name: string, input: Record<string, unknown>): string;
  snapshot(): unknown;
  progress?(): number;
}

const MODEL = "claude-opus-5";
/** More model calls than any run here needs; past it the loop gives up. */
const FUSE = 60;

const tool = (name: string): Anthropic.Tool => ({ name, description: `The ${name} tool.`, input_schema: { type: "object" } });

/** A fresh world per run for each loop scenario. */
export const LOOP_WORLDS: Record<"loop-repeat" | "loop-cycle" | "loop-stall", () => World> = {
  // The searches are counted in the state, so only the call itself repeats.
  "loop-repeat": () => {
    let searches = 0;
    return { tools: [tool("search_docs")], run: () => (searches++, "0 results"), snapshot: () => ({ searches }) };
  },
  // The file is written with what it already holds: the state never changes.
  "loop-cycle": () => {
    const files: Record<string, string> = { "config.yaml": "retries: 3\n" };
    return {
      tools: [tool("read_file"), tool("write_file")],
      run: (name, input) => (name === "write_file" ? ((files[String(input["path"])] = String(input["content"])), "ok") : (files[String(input["path"])] ?? "")),
      snapshot: () => ({ ...files }),
    };
  },
  // Every patch changes the state, and the passing tests never move.
  "loop-stall": () => {
    const patches: string[] = [];
    return {
      tools: [tool("edit_file"), tool("run_tests")],
      run: (name, input) => (name === "edit_file" ? (patches.push(String(input["patch"])), "ok") : "2 passed, 3 failed"),
      snapshot: () => ({ patches: [...patches] }),
      progress: () => 2, // tests passing: higher is better
    };
  },
};

export interface GuardedOutcome {
  ended: "answer" | "partial" | "fuse";
  /** The model's answer, or the guard's sentence that ended the run. */
  text: string;
  /** Every sentence of the guard that the model got back in a tool_result. */
  nudges: string[];
}

export async function guardedRun(session: ScenarioSession, guard: Guard, world: World): Promise<GuardedOutcome> {
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Fix the failing build." }];
  const nudges: string[] = [];
  for (let call = 0; call < FUSE; call++) {
    const reply = await session.client.messages.create({ model: MODEL, max_tokens: 1024, tools: world.tools, messages });
    if (reply.stop_reason !== "tool_use") {
      return { ended: "answer", text: reply.content.map((b) => (b.type === "text" ? b.text : "")).join(""), nudges };
    }
    messages.push({ role: "assistant", content: reply.content });
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const block of reply.content) {
      if (block.type !== "tool_use") continue;
      const input = block.input as Record<string, unknown>;
      const out = world.run(block.name, input);
      const message = guard.check(block.name, input, world.snapshot(), world.progress?.());
      if (message === null) {
        results.push({ type: "tool_result", tool_use_id: block.id, content: out });
        continue;
      }
      if (guard.halted || guard.trips > 1) return { ended: "partial", text: message, nudges };
      nudges.push(message);
      results.push({ type: "tool_result", tool_use_id: block.id, content: message, is_error: true });
    }
    messages.push({ role: "user", content: results });
  }
  return { ended: "fuse", text: "", nudges };
}

/** The tool results marked is_error in the last request the model received. */
export function markedResults(session: ScenarioSession): string[] {
  const last = session.bodies().at(-1);
  return (last?.messages ?? [])
    .flatMap((m) => (typeof m.content === "string" ? [] : m.content))
    .filter((b): b is Anthropic.ToolResultBlockParam => b.type === "tool_result" && b.is_error === true)
    .map((b) => (typeof b.content === "string" ? b.content : ""));
}
