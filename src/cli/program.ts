import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import { packageRoot } from "../../checker/paths.js";
import type { GradeFlags } from "../grade/options.js";
import type { ProviderFlags } from "../commands/provider.js";
import type { CheckOptions } from "../commands/check.js";
import type { DrillFlags } from "../commands/drill.js";
import type { StartOptions } from "../commands/start.js";
import type { TriageOptions } from "../commands/triage.js";
import type { Io } from "../terminal/io.js";

export interface Outcome {
  code: number;
}

const EXAMPLES = `
Examples:
  $ lab start 1                     open exercise 1's live screen; every save reruns its tests
  $ lab list                        every exercise with its status and next step (so does plain lab)
  $ lab check 1                     run exercise 1's hidden tests on your file once
  $ lab run 12                      run your file on exercise 12's demo task (and write its trace)
  $ lab hint 1                      the next hint for exercise 1
  $ lab show 1 --tier 1             exercise 1's pseudocode reference
  $ lab reset 1                     put exercise 1's stub back (your version is backed up)
  $ lab solution 1                  the reference solution, once exercise 1 has passed
  $ lab drill 1 --interview         rewrite exercise 1 from memory against the clock, then three "why" questions
  $ lab provider --port 4010        serve the scripted Messages API on 127.0.0.1:4010
  $ lab grade ./class               grade every learner's files in ./class, one isolated run each
  $ lab trace run.jsonl             a harness's JSONL trace (exercise 12) as a timeline per run
  $ lab triage "rotate a key" --tenant acme   exercise 11's triage agent on the scripted provider
`;

/** The version in the lab's package.json. */
export const labVersion = () => (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }).version;

export function parseTier(value: string): number {
  if (value !== "1" && value !== "2" && value !== "3") throw new InvalidArgumentError("a tier is 1, 2 or 3.");
  return Number(value);
}

export function parseMilliseconds(value: string): number {
  const ms = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || ms > 600_000) throw new InvalidArgumentError("a time is milliseconds from 0 to 600000.");
  return ms;
}

export function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError("a port is a whole number from 0 to 65535.");
  return port;
}

/** `--live [url]` and `--max-usd`, on every command that can run against a real endpoint. */
function withLive(command: Command): Command {
  return command
    .option("--live [url]", "run against a real endpoint: the Anthropic API (with ANTHROPIC_API_KEY), or a compatible server at url")
    .option("--max-usd <usd>", "with --live: the most the run may spend, in USD (default 1.00)");
}

/** Builds the command-line program; actions load their command module only when run. */
export function buildProgram(io: Io): { program: Command; outcome: Outcome } {
  const outcome: Outcome = { code: 0 };
  const program = new Command("lab")
    .description("A terminal lab for the guards around an AI agent's tool-calling loop.")
    .showHelpAfterError("(run lab --help for usage)")
    .addHelpText("after", EXAMPLES)
    .version(labVersion(), "-v, --version", "print lab's version")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .allowExcessArguments(true)
    .action(async function (this: Command) {
      // commander's own "unknown command" error (with its "did you mean"); untyped but public.
      if (this.args.length > 0) (this as Command & { unknownCommand(): never }).unknownCommand();
      const { listCommand } = await import("../commands/list.js");
      outcome.code = await listCommand(io);
    });

  withLive(
    program
      .command("start <exercise>")
      .description("open an exercise's live screen: your file, its hidden tests rerun on every save")
      .option("--poll", "poll the file for changes (for folders where saves are not noticed)"),
  )
    .addHelpText("after", "\nExample:\n  $ lab start 1\n")
    .action(async (key: string, opts: StartOptions) => {
      const { startCommand } = await import("../commands/start.js");
      outcome.code = await startCommand(key, opts, io);
    });

  program
    .command("list")
    .description("every exercise with its status and what to do next")
    .addHelpText("after", "\nExample:\n  $ lab list\n")
    .action(async () => {
      const { listCommand } = await import("../commands/list.js");
      outcome.code = await listCommand(io);
    });

  withLive(
    program
      .command("check <exercise>")
      .description("run an exercise's hidden tests once, without the screen")
      .option("--file <file>", "test this file instead of your workspace file")
      .option("--json", "print the whole result as JSON"),
  )
    .addHelpText("after", "\nExamples:\n  $ lab check 1 --file solutions/01-tool-loop.ts\n  $ lab check 1 --live --max-usd 0.20\n")
    .action(async (key: string, opts: CheckOptions) => {
      const { checkCommand } = await import("../commands/check.js");
      outcome.code = await checkCommand(key, opts, io);
    });

  program
    .command("run <exercise> [goal]")
    .description("run your file on the exercise's demo task against the scripted provider: what it printed and returned")
    .option("--file <file>", "run this file instead of your workspace file")
    .addHelpText("after", '\nExamples:\n  $ lab run 1\n  $ lab run 12 "Tidy up the workspace"   (writes the trace lab trace shows)\n')
    .action(async (key: string, goal: string | undefined, opts: { file?: string }) => {
      const { runCommand } = await import("../commands/run.js");
      outcome.code = await runCommand(key, goal, opts, io);
    });

  program
    .command("hint <exercise>")
    .description("show the next hint for an exercise (one more each time)")
    .addHelpText("after", "\nExample:\n  $ lab hint 1\n")
    .action(async (key: string) => {
      const { hintCommand } = await import("../commands/hint.js");
      outcome.code = await hintCommand(key, io);
    });

  program
    .command("show <exercise>")
    .description("show an exercise's lesson or a reference tier")
    .addOption(new Option("--tier <tier>", "reference tier: 1 pseudocode, 2 LangGraph JS, 3 the SDK").argParser(parseTier))
    .addOption(new Option("--lesson", "show the lesson").conflicts("tier"))
    .option("--force", "show tier 3, a whole solution, before a pass (recorded in your progress)")
    .addHelpText("after", "\nExample:\n  $ lab show 1 --tier 1\n")
    .action(async (key: string, opts: { tier?: number; lesson?: boolean; force?: boolean }) => {
      const { showCommand } = await import("../commands/show.js");
      outcome.code = await showCommand(key, opts, io);
    });

  program
    .command("reset <exercise>")
    .description("put the stub back in your file, keeping a backup of your version")
    .option("--yes", "do not ask for confirmation")
    .addHelpText("after", "\nExample:\n  $ lab reset 1 --yes\n")
    .action(async (key: string, opts: { yes?: boolean }) => {
      const { resetCommand } = await import("../commands/reset.js");
      outcome.code = await resetCommand(key, opts, io);
    });

  program
    .command("solution <exercise>")
    .description("show the reference solution, once the exercise has passed")
    .option("--force", "show it before a pass (recorded in your progress)")
    .addHelpText("after", "\nExample:\n  $ lab solution 1\n")
    .action(async (key: string, opts: { force?: boolean }) => {
      const { solutionCommand } = await import("../commands/solution.js");
      outcome.code = await solutionCommand(key, opts, io);
    });

  withLive(
    program
      .command("drill [exercise]")
      .description("rewrite an exercise from memory against the clock, in a fresh file (default: exercise 1)")
      .option("--history [exercise]", "print your past drills with a trend, for one exercise or all")
      .option("--interview", 'after green, answer three "why" questions and mark your answers')
      .option("--peek", "open the lesson, hints, references and solution freely (the attempt is marked as peeked)")
      .option("--poll", "poll the file for changes (for folders where saves are not noticed)"),
  )
    .addHelpText(
      "after",
      `
The clock starts when the drill opens and stops at the first run where every hidden test
passes; quitting before that records an abandoned attempt, and a green faster than its code
can be typed is recorded as pasted, never a best. Attempts are kept in
<workspace>/.lab/drills.jsonl. Without a terminal nothing is timed: the tests run once on
your latest drill file; exit code 0 when all pass, 1 when any fails, 130 when interrupted.

Example:
  $ lab drill 1 --interview
`,
    )
    .action(async (key: string | undefined, opts: DrillFlags) => {
      const { drillCommand } = await import("../commands/drill.js");
      outcome.code = await drillCommand(key, opts, io);
    });

  program
    .command("grade [dir]")
    .description("grade a class folder: each learner's file for each exercise, in its own sandboxed run")
    .option("--exercises <list>", "only these exercises, e.g. 1,2,5-7 (default: every exercise)")
    .option("--jobs <n>", "runs at once (default: the number of cores)")
    .option("--timeout <seconds>", "wall-clock limit of one run (default: timeoutSeconds in lab.config.ts)")
    .option("--memory <mb>", "memory limit of one run, in MB (default: 512)")
    .option("--format <format>", "table, json, csv, md, junit, gradescope or html (default: table)")
    .option("--out <file>", "write the report to a file instead of printing it")
    .option("--fresh", "run every pair again, even when its file is unchanged")
    .option("--shard <i/n>", "grade only slice i of n of the pairs, e.g. on one machine of a CI matrix")
    .option("--merge <dirs...>", "combine the results of shards graded in these folders (written to the first)")
    .addHelpText("after", "\nExample:\n  $ lab grade ./class --exercises 1-3 --format md --out grades.md\n")
    .action(async (dir: string | undefined, opts: GradeFlags) => {
      const { gradeCommand } = await import("../commands/grade.js");
      outcome.code = await gradeCommand(dir, opts, io);
    });

  program
    .command("provider")
    .description("run the scripted Anthropic Messages API (and chat completions) for your own harness, or record and replay a real one")
    .addOption(new Option("--port <port>", "port to listen on (0 picks a free one)").argParser(parsePort))
    .option("--log <file>", "append every request and response to a JSONL file")
    .option("--scenarios <file>", "load extra scenarios from a .ts or .js file")
    .addOption(new Option("--latency <ms>", "time to the first token of every answer (a path's latency=MS wins)").argParser(parseMilliseconds))
    .addOption(new Option("--per-token <ms>", "time between output tokens, streamed or not (a path's perToken=MS wins)").argParser(parseMilliseconds))
    .option("--record <upstream>", "forward every request to this base URL and write each exchange to --out")
    .option("--out <file>", "the cassette --record appends to (JSONL, without keys)")
    .option("--replay <file>", "answer from a cassette instead of the scenarios, matching each request on what it says")
    .addHelpText(
      "after",
      "\nExamples:\n  $ lab provider --port 4010 --log requests.jsonl --latency 300\n" +
        "  $ lab provider --record https://api.anthropic.com --out cassette.jsonl\n  $ lab provider --replay cassette.jsonl\n",
    )
    .action(async (opts: ProviderFlags) => {
      const { providerCommand } = await import("../commands/provider.js");
      outcome.code = await providerCommand(opts, io);
    });

  withLive(
    program
      .command("triage [question]")
      .description("run the support-ticket triage agent of exercise 11 on the scripted provider")
      .option("--tenant <tenant>", "whose support desk: acme or globex"),
  )
    .addHelpText("after", '\nExample:\n  $ lab triage "how do I rotate an API key" --tenant acme\n')
    .action(async (question: string | undefined, opts: TriageOptions) => {
      const { triageCommand } = await import("../commands/triage.js");
      outcome.code = await triageCommand(question, opts, io);
    });

  program
    .command("trace <file>")
    .description("print a harness's JSONL trace (exercise 12) as a timeline per run")
    .option("--run <id>", "only the run with this id")
    .option("--requests <log>", "the provider's log (lab provider --log) of the same runs: splits model calls from the harness")
    .addHelpText("after", "\nExample:\n  $ lab trace runs/trace.jsonl --requests requests.jsonl\n")
    .action(async (file: string, opts: { run?: string; requests?: string }) => {
      const { traceCommand } = await import("../commands/trace.js");
      outcome.code = await traceCommand(file, opts, io);
    });

  return { program, outcome };
}
