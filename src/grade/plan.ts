/**
 * Decides, pair by pair, what a grading run has to do: reuse the stored result (file, hidden
 * test and limits unchanged), record a result without running anything (no file, not a
 * regular file), or run the hidden tests on the learner's file.
 */
import { createHash } from "node:crypto";
import { lstatSync, readFileSync } from "node:fs";
import type { Pair } from "./class-dir.js";
import { GRADE_REASONS } from "./messages.js";
import type { RunOutcome } from "./outcome.js";
import { RECORD_FORMAT, type GradeRecord } from "./record.js";

/** A learner's file larger than this is not run: no exercise needs half a megabyte. */
export const MAX_FILE_KB = 512;

export interface PlanContext {
  limits: string;
  fresh: boolean;
  /** Pairs an unfinished --fresh run has yet to grade again: key → when it started. */
  pendingFresh: Map<string, string>;
  previous: Map<string, GradeRecord>;
  testHash: (pair: Pair) => string;
  bestDrill: (pair: Pair) => number | null;
  /** What the learner opened of the answer before passing; none unless given. */
  peeks?: (pair: Pair) => string[];
  now: () => string;
}

export type Step =
  | { kind: "reuse"; record: GradeRecord }
  | { kind: "record"; record: GradeRecord }
  | { kind: "run"; pair: Pair; source: Buffer; record: (outcome: RunOutcome) => GradeRecord };

export const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

/** Two records say the same thing when they differ at most in when they were made. */
const sameResult = (a: GradeRecord, b: GradeRecord) => JSON.stringify({ ...a, at: "" }) === JSON.stringify({ ...b, at: "" });

function base(
  pair: Pair,
  ctx: PlanContext,
  fileHash: string | null,
): Omit<GradeRecord, "state" | "passed" | "total" | "firstFailure" | "reason" | "ms" | "tests"> {
  return {
    format: RECORD_FORMAT,
    key: pair.key,
    learner: pair.learner,
    exercise: pair.exercise.id,
    number: pair.exercise.number,
    title: pair.exercise.title,
    file: pair.relFile,
    fileHash,
    testHash: ctx.testHash(pair),
    limits: ctx.limits,
    bestDrillSeconds: ctx.bestDrill(pair),
    peeks: ctx.peeks?.(pair) ?? [],
    at: ctx.now(),
  };
}

function notRun(pair: Pair, ctx: PlanContext, state: "missing" | "error", reason: string): GradeRecord {
  return { ...base(pair, ctx, null), state, passed: 0, total: 0, firstFailure: null, reason, ms: null, tests: [] };
}

/** A record for a pair whose file is not run, reusing the stored one when nothing changed. */
function settle(record: GradeRecord, previous: GradeRecord | undefined): Step {
  return previous && sameResult(previous, record) ? { kind: "reuse", record: previous } : { kind: "record", record };
}

export function planPair(pair: Pair, ctx: PlanContext): Step {
  const previous = ctx.previous.get(pair.key);
  let stat;
  try {
    stat = lstatSync(pair.file);
  } catch {
    return settle(notRun(pair, ctx, "missing", GRADE_REASONS.missing(pair.relFile)), previous);
  }
  if (!stat.isFile()) return settle(notRun(pair, ctx, "error", GRADE_REASONS.notAFile(pair.relFile)), previous);
  if (stat.size > MAX_FILE_KB * 1024) return settle(notRun(pair, ctx, "error", GRADE_REASONS.tooLarge(pair.relFile, MAX_FILE_KB)), previous);

  const source = readFileSync(pair.file);
  const fields = base(pair, ctx, sha256(source));
  // A result older than the --fresh run that set out to replace it is not reused, even after Ctrl-C.
  const since = ctx.pendingFresh.get(pair.key);
  const stale = since !== undefined && previous !== undefined && previous.at < since;
  const unchanged =
    !ctx.fresh && !stale && previous && previous.fileHash === fields.fileHash && previous.testHash === fields.testHash && previous.limits === fields.limits;
  if (unchanged) {
    // Same file, same test, same limits: the result stands; only a new best drill time or a new peek is news.
    const samePeeks = JSON.stringify(previous.peeks ?? []) === JSON.stringify(fields.peeks);
    if (previous.bestDrillSeconds === fields.bestDrillSeconds && samePeeks) return { kind: "reuse", record: previous };
    return { kind: "record", record: { ...previous, bestDrillSeconds: fields.bestDrillSeconds, peeks: fields.peeks, at: fields.at } };
  }
  return {
    kind: "run",
    pair,
    source,
    record: (outcome) => ({ ...fields, ...outcome, at: ctx.now() }),
  };
}
