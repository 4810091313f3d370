/**
 * The three loop shapes of exercise 4. Each model repeats itself until a tool result
 * tells it that it is repeating (a nudge); then it changes course and answers. With the
 * option stubborn=1 it ignores nudges, so the harness has to halt it.
 */
import { asks, call, defineScenario, text } from "./helpers.js";
import { flag, isOn } from "./options.js";
import type { Scenario, ScenarioContext, ScenarioReply } from "./types.js";

const NUDGE = /identical|repeat|cycl|no (measurable )?progress|loop|stuck/i;

function nudged(ctx: ScenarioContext): boolean {
  if (isOn(ctx.options, "stubborn")) return false;
  const last = ctx.calls.at(-1)?.result;
  return last !== null && last !== undefined && NUDGE.test(last.text);
}

function loop(name: string, description: string, step: (ctx: ScenarioContext) => ScenarioReply): Scenario {
  return defineScenario({
    name,
    description,
    options: { stubborn: flag() },
    reply: (ctx) =>
      nudged(ctx)
        ? text(`I was going round in circles, so I stopped after ${ctx.calls.length} tool calls. What blocks me: nothing I try changes the result.`)
        : step(ctx),
  });
}

export const loopRepeat = loop(
  "loop-repeat",
  "shape A: search_docs with identical arguments on every turn",
  () => asks(call("search_docs", { q: "rate limit" })),
);

export const loopCycle = loop(
  "loop-cycle",
  "shape B: read_file then write_file on config.yaml, over and over",
  (ctx) =>
    ctx.turn % 2 === 0
      ? asks(call("read_file", { path: "config.yaml" }))
      : asks(call("write_file", { path: "config.yaml", content: "retries: 3\n" })),
);

export const loopStall = loop(
  "loop-stall",
  "shape C: run_tests and edit_file with new arguments each time, progress never moves",
  (ctx) =>
    ctx.turn % 2 === 0
      ? asks(call("run_tests"))
      : asks(call("edit_file", { path: "app.py", patch: `attempt ${Math.ceil(ctx.turn / 2)}` })),
);
