import { existsSync, readFileSync } from "node:fs";
import type { Exercise } from "../../checker/model/exercises.js";
import { UsageError } from "../terminal/errors.js";
import { writeLine, type Io } from "../terminal/io.js";
import { ProgressStore } from "../progress/progress-store.js";
import { TIER_NAMES } from "../screen/tier-names.js";
import { exerciseOrFail, loadContext, workspaceFile, type LabContext } from "./context.js";

export const SHOW_MESSAGES = {
  noTier: (n: number, tier: number, tiers: number[]) =>
    `Exercise ${n} has no tier ${tier} reference; it has ${tiers.length === 1 ? "tier" : "tiers"} ${tiers.join(" and ")}.`,
  file: (file: string, exists: boolean, n: number) => (exists ? `Your file: ${file}` : `Your file: ${file} (not created yet: lab start ${n})`),
  lesson: (n: number) => `Lesson:     lab show ${n} --lesson`,
  tier: (n: number, tier: number) => `Tier ${tier}:     lab show ${n} --tier ${tier} (${TIER_NAMES[tier]})`,
  hints: (n: number, seen: number, total: number) => `Hints:      ${seen} of ${total} seen (lab hint ${n})`,
} as const;

export interface ShowOptions {
  tier?: number;
  lesson?: boolean;
}

function overview(ctx: LabContext, exercise: Exercise, seen: number): string[] {
  const file = workspaceFile(ctx, exercise);
  const n = exercise.number;
  return [
    `Exercise ${n}: ${exercise.title}`,
    SHOW_MESSAGES.file(file, existsSync(file), n),
    "",
    SHOW_MESSAGES.lesson(n),
    ...exercise.tiers.map((tier) => SHOW_MESSAGES.tier(n, tier)),
    SHOW_MESSAGES.hints(n, Math.min(seen, exercise.hints.length), exercise.hints.length),
  ];
}

/** `lab show N [--tier T] [--lesson]`: a reference tier, the lesson, or what there is to see. */
export async function showCommand(key: string, opts: ShowOptions, io: Io, paths?: LabContext["paths"]): Promise<number> {
  const ctx = await loadContext(io, paths, { workspace: true });
  const exercise = exerciseOrFail(ctx, key);
  if (opts.tier !== undefined) {
    const file = exercise.references[opts.tier];
    if (!file) throw new UsageError(SHOW_MESSAGES.noTier(exercise.number, opts.tier, exercise.tiers));
    io.stdout.write(readFileSync(file, "utf8"));
    return 0;
  }
  if (opts.lesson) {
    io.stdout.write(readFileSync(exercise.lesson, "utf8"));
    return 0;
  }
  const progress = new ProgressStore(ctx.config.workspaceDir, (sentence) => writeLine(io.stderr, sentence));
  for (const line of overview(ctx, exercise, progress.exercise(exercise.id).hintsShown)) writeLine(io.stdout, line);
  return 0;
}
