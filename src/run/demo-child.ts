/**
 * The process `lab run` starts: it loads the learner's bundled file and the exercise's
 * bundled demo task, hands the demo the learner's module and a kit (clients of the scripted
 * provider, a goal, a folder, a trace file), and reports what the demo returned or threw to
 * its parent over IPC. What the learner's code prints goes to this process's stdout and
 * stderr, which the parent shows; the demo's own narration is marked (NARRATION_MARK).
 */
import { inspect } from "node:util";
import { pathToFileURL } from "node:url";
import { NARRATION_MARK, type ChildArgs, type ChildReport, type DemoKit } from "./demo-protocol.js";
import { REALM_IMPORT } from "../../checker/realm/runtime-reach.js";

const args = JSON.parse(process.argv[2] ?? "{}") as ChildArgs;

// The channel to the parent must not keep this process alive: an empty event loop means the demo cannot go on.
process.channel?.unref();
let reported = false;
function report(message: ChildReport): void {
  reported = true;
  // Whatever the learner's code left running (a timer, a socket), the run is over once the parent knows.
  process.send!(message, () => process.exit(0));
}

// Nothing left to run and no report: the demo awaits a promise that can never settle.
process.once("beforeExit", () => {
  if (!reported) report({ kind: "unsettled" });
});

const shown = (value: unknown) => inspect(value, { depth: 6, breakLength: 80, maxArrayLength: 20, maxStringLength: 2_000 });

// A computed import() in a bundle goes through the realm's importer (checker/realm/runtime-reach.ts);
// here, on the learner's own machine, it is a plain import, resolved from the file it was written in.
Object.defineProperty(globalThis, REALM_IMPORT, {
  value: (spec: unknown, from: string) => import(/^\.{1,2}\//.test(String(spec)) ? new URL(String(spec), from).href : String(spec)),
});

async function main(): Promise<void> {
  const { default: Anthropic } = (await import(args.sdkUrl)) as { default: new (options: Record<string, unknown>) => unknown };
  const impl = (await import(pathToFileURL(args.learner).href)) as Record<string, unknown>;
  const { default: demo } = (await import(pathToFileURL(args.demo).href)) as { default: (impl: unknown, kit: DemoKit) => Promise<unknown> };
  const kit: DemoKit = {
    goal: args.goal,
    workDir: args.workDir,
    traceFile: args.traceFile,
    client(scenario, options = {}) {
      const path = Object.entries(options).map(([k, v]) => `/${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
      return new Anthropic({ baseURL: `${args.origin}/s/${encodeURIComponent(scenario)}${path.join("")}`, apiKey: "lab-run", maxRetries: 0 });
    },
    say(text) {
      for (const line of String(text).split("\n")) process.stdout.write(`${NARRATION_MARK}${line}\n`);
    },
    testing: () => import(pathToFileURL(args.labTest).href) as Promise<Record<string, unknown>>,
    support: async () => (args.labSupport ? ((await import(pathToFileURL(args.labSupport).href)) as Record<string, unknown>) : {}),
  };
  const value = await demo(impl, kit);
  report({ kind: "returned", text: shown(value) });
}

main().catch((err: unknown) => report({ kind: "threw", text: err instanceof Error ? `${err.name}: ${err.message}` : shown(err) }));
