import { stripVTControlCharacters } from "node:util";
import { CommanderError } from "commander";
import { ExerciseError } from "../../checker/model/exercises.js";
import { ConfigError } from "../config/schema.js";
import { USAGE_EXIT, UserError } from "../terminal/errors.js";
import { processIo, writeLine, type Io } from "../terminal/io.js";
import { buildProgram } from "./program.js";

/** Runs the CLI and returns the exit code; nothing below this calls process.exit. */
export async function main(argv: string[] = process.argv, io: Io = processIo()): Promise<number> {
  const { program, outcome } = buildProgram(io);
  try {
    await program.parseAsync(argv);
    return outcome.code;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Everything else commander throws is a usage error: a missing argument, an unknown option or command.
      return err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.code === "commander.help" ? 0 : USAGE_EXIT;
    }
    if (err instanceof UserError || err instanceof ConfigError || err instanceof ExerciseError) {
      // A parser's coloured excerpt (a config that does not parse) keeps its colours only on a terminal.
      const toTerminal = Boolean((io.stderr as { isTTY?: boolean }).isTTY);
      writeLine(io.stderr, toTerminal ? err.message : stripVTControlCharacters(err.message));
      return err instanceof UserError ? err.exitCode : 1;
    }
    writeLine(io.stderr, `lab: unexpected error: ${(err as Error).stack ?? String(err)}`);
    return 70;
  }
}
