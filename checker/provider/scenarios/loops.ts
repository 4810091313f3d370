/**
 * The three loop shapes a loop guard must catch. Each model repeats its shape until a tool result
 * comes back marked `is_error`, which is how a harness delivers a loop guard's nudge;
 * then it changes course and answers. What the nudge says does not matter: the harness
 * decides that a result is a nudge, not the words in it. With the option stubborn=1 the
 * model ignores nudges, so the harness has to halt it.
 */
import { asks, call, defineScenario, text } from "./helpers.js";
import { flag, isOn } from "./options.js";
import type { Scenario, ScenarioContext, ScenarioReply } from "./types.js";

function nudged(ctx: ScenarioContext): boolean {
  if (isOn(ctx.options, "stubborn")) return false;
  return ctx.calls.at(-1)?.result?.isError === true;
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

export const loopRepeat = loop("loop-repeat", "shape A: search_docs with identical arguments until a result comes back is_error", () =>
  asks(call("search_docs", { q: "rate limit" })),
);

export const loopCycle = loop("loop-cycle", "shape B: read_file, write_file on config.yaml in turn until a result is_error", (ctx) =>
  ctx.turn % 2 === 0 ? asks(call("read_file", { path: "config.yaml" })) : asks(call("write_file", { path: "config.yaml", content: "retries: 3\n" })),
);

// No call repeats here, not even run_tests: only a progress signal can see this loop.
export const loopStall = loop("loop-stall", "shape C: edit_file, run_tests, all arguments new, until a result is_error", (ctx) => {
  const attempt = Math.floor(ctx.turn / 2) + 1;
  return ctx.turn % 2 === 0 ? asks(call("edit_file", { path: "app.py", patch: `attempt ${attempt}` })) : asks(call("run_tests", { after_patch: attempt }));
});
