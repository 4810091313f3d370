import { existsSync, readFileSync } from "node:fs";
import type { Exercise } from "../../checker/model/exercises.js";
import { UsageError, UserError } from "../terminal/errors.js";
import { writeLine, type Io } from "../terminal/io.js";
import { ProgressStore } from "../progress/progress-store.js";
import { isSolutionTier } from "../screen/panes.js";
import { TIER_NAMES } from "../screen/tier-names.js";
import { exerciseOrFail, loadContext, workspaceFile, type LabContext } from "./context.js";

export const SHOW_MESSAGES = {
  noTier: (n: number, tier: number, tiers: number[]) =>
    `Exercise ${n} has no tier ${tier} reference; it has ${tiers.length === 1 ? "tier" : "tiers"} ${tiers.join(" and ")}.`,
  file: (file: string, exists: boolean, n: number) => (exists ? `Your file: ${file}` : `Your file: ${file} (not created yet: lab start ${n})`),
  lesson: (n: number) => `Lesson:     lab show ${n} --lesson`,
  tier: (n: number, tier: number) => `Tier ${tier}:     lab show ${n} --tier ${tier} (${TIER_NAMES[tier]})`,
  hints: (n: number, seen: number, total: number) => `Hints:      ${seen} of ${total} seen (lab hint ${n})`,
  peekLocked: (n: number, tier: number) =>
    `Tier ${tier} of exercise ${n} is a whole solution: it opens after your first all-green run, or now with lab show ${n} --tier ${tier} --force (which is recorded, as lab solution --force is).`,
  peeked: (tier: number) => `Tier ${tier} shown with --force before a pass; your progress records that.`,
} as const;

export interface ShowOptions {
  tier?: number;
  lesson?: boolean;
  /** Tier 3 before a pass: shown, and recorded as a peek. */
  force?: boolean;
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
    const progress = new ProgressStore(ctx.config.workspaceDir, (sentence) => writeLine(io.stderr, sentence));
    const peek = isSolutionTier(exercise, opts.tier) && !progress.exercise(exercise.id).passedAt;
    if (peek && !opts.force) throw new UserError(SHOW_MESSAGES.peekLocked(exercise.number, opts.tier));
    if (peek) progress.update(exercise.id, (record, now) => void (record.tier3ForcedAt ??= now));
    io.stdout.write(readFileSync(file, "utf8"));
    if (peek) writeLine(io.stderr, SHOW_MESSAGES.peeked(opts.tier));
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
