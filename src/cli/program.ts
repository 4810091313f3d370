import { Command, InvalidArgumentError, Option } from "commander";
import type { Io } from "./io.js";

export interface Outcome {
  code: number;
}

const EXAMPLES = `
Examples:
  $ lab check 1                     run exercise 1's hidden tests on your file once
  $ lab provider --port 4010        serve the scripted Messages API on 127.0.0.1:4010
`;

export function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError("a port is a whole number from 0 to 65535.");
  return port;
}

/** Builds the command-line program; actions load their command module only when run. */
export function buildProgram(io: Io): { program: Command; outcome: Outcome } {
  const outcome: Outcome = { code: 0 };
  const program = new Command("lab")
    .description("A terminal lab for the guards around an AI agent's tool-calling loop.")
    .showHelpAfterError("(run lab --help for usage)")
    .addHelpText("after", EXAMPLES)
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });

  program
    .command("check <exercise>")
    .description("run an exercise's hidden tests once, without the screen")
    .option("--file <file>", "test this file instead of your workspace file")
    .option("--json", "print the whole result as JSON")
    .addHelpText("after", "\nExample:\n  $ lab check 1 --file solutions/01-tool-loop.ts\n")
    .action(async (key: string, opts: { file?: string; json?: boolean }) => {
      const { checkCommand } = await import("../commands/check.js");
      outcome.code = await checkCommand(key, opts, io);
    });

  program
    .command("provider")
    .description("run the scripted Anthropic Messages API for your own harness")
    .addOption(new Option("--port <port>", "port to listen on (0 picks a free one)").argParser(parsePort))
    .option("--log <file>", "append every request and response to a JSONL file")
    .option("--scenarios <file>", "load extra scenarios from a .ts or .js file")
    .addHelpText("after", "\nExample:\n  $ lab provider --port 4010 --log requests.jsonl\n")
    .action(async (opts: { port?: number; log?: string; scenarios?: string }) => {
      const { providerCommand } = await import("../commands/provider.js");
      outcome.code = await providerCommand(opts, io);
    });

  return { program, outcome };
}
