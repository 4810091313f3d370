import { spawn } from "node:child_process";

export const EDITOR_MESSAGES = {
  opened: (command: string) => `Opened it with ${command}.`,
  failed: (command: string, reason: string) => `Could not open your editor with "${command}" (${reason}); open the file yourself.`,
} as const;

/** Splits `code -g` or `"/Applications/My Editor" --wait` into a program and its arguments. */
export function splitCommand(command: string): string[] {
  return [...command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** Starts the learner's editor on `file`, detached so it outlives nothing of ours; failures go to `onError`. */
export function openInEditor(command: string, file: string, onError: (sentence: string) => void): void {
  const [program, ...args] = splitCommand(command);
  if (!program) return;
  try {
    const child = spawn(program, [...args, file], { detached: true, stdio: "ignore" });
    child.once("error", (err) => onError(EDITOR_MESSAGES.failed(command, err.message)));
    child.unref();
  } catch (err) {
    onError(EDITOR_MESSAGES.failed(command, (err as Error).message));
  }
}
