/**
 * lab run 4: your guard on a model that repeats itself. The loop (the one the hidden tests
 * use) runs the `loop-repeat` scenario, a model that searches the docs for the same thing
 * again and again; a goal naming "cycle" or "stall" runs `loop-cycle` (a file rewritten with
 * what it holds) or `loop-stall` (patches that never make a test pass). Each nudge is said.
 */
interface Guard {
  halted: boolean;
  trips: number;
  steps: number;
  check(tool: string, args: unknown, state: unknown, progress?: number): string | null;
}

interface Impl {
  LoopGuard: new (opts?: Record<string, number>) => Guard;
}

interface Kit {
  goal: string | undefined;
  say(text: string): void;
  testing(): Promise<Record<string, unknown>>;
  support(): Promise<Record<string, unknown>>;
}

type GuardedRun = (session: unknown, guard: Guard, world: unknown) => Promise<{ ended: string; text: string; nudges: string[] }>;

export default async function demo(lab: Impl, kit: Kit): Promise<unknown> {
  const testing = await kit.testing();
  const support = await kit.support();
  const scenario = /cycle/i.test(kit.goal ?? "") ? "loop-cycle" : /stall/i.test(kit.goal ?? "") ? "loop-stall" : "loop-repeat";
  const worlds = support["LOOP_WORLDS"] as Record<string, () => unknown>;
  const session = await (testing["useScenario"] as (name: string) => Promise<unknown>)(scenario);
  const guard = new lab.LoopGuard();
  kit.say(`The ${scenario} scenario, with a LoopGuard at its defaults.`);
  const outcome = await (support["guardedRun"] as GuardedRun)(session, guard, worlds[scenario]!());
  for (const nudge of outcome.nudges) kit.say(`nudge: ${nudge}`);
  kit.say(`It ended with ${outcome.ended === "answer" ? "an answer" : outcome.ended === "partial" ? "the guard's word" : "the fuse"} after ${guard.steps} checks.`);
  return { ended: outcome.ended, text: outcome.text, trips: guard.trips, halted: guard.halted };
}
