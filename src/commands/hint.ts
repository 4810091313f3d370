import { writeLine, type Io } from "../terminal/io.js";
import { ProgressStore } from "../progress/progress-store.js";
import { exerciseOrFail, loadContext, type LabContext } from "./context.js";

export const HINT_MESSAGES = {
  hint: (i: number, total: number, text: string) => `Hint ${i} of ${total}: ${text}`,
  more: (n: number) => `Run lab hint ${n} again for the next one.`,
  allSeen: (n: number, total: number) => `You have seen all ${total} hints; the references go further: lab show ${n} --tier 1.`,
} as const;

/** `lab hint N`: the next hint, one per call, remembered in progress; after the last, all of them again. */
export async function hintCommand(key: string, io: Io, paths?: LabContext["paths"]): Promise<number> {
  const ctx = await loadContext(io, paths, { workspace: true });
  const exercise = exerciseOrFail(ctx, key);
  const progress = new ProgressStore(ctx.config.workspaceDir, (sentence) => writeLine(io.stderr, sentence));
  const { hints, number: n } = exercise;
  const seen = Math.min(progress.exercise(exercise.id).hintsShown, hints.length);
  if (seen >= hints.length) {
    hints.forEach((hint, i) => writeLine(io.stdout, HINT_MESSAGES.hint(i + 1, hints.length, hint)));
    writeLine(io.stdout, HINT_MESSAGES.allSeen(n, hints.length));
    return 0;
  }
  progress.update(exercise.id, (record) => void (record.hintsShown = seen + 1));
  writeLine(io.stdout, HINT_MESSAGES.hint(seen + 1, hints.length, hints[seen]!));
  if (seen + 1 < hints.length) writeLine(io.stdout, HINT_MESSAGES.more(n));
  return 0;
}
