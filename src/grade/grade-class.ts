/**
 * One grading run over a class folder: plan every pair, run the ones that changed, append
 * each result to results.jsonl the moment it finishes, and stop cleanly on Ctrl-C.
 */
import { readFileSync } from "node:fs";
import type { Exercise } from "../../checker/model/exercises.js";
import { fixturesText } from "../../checker/testing/fixtures.js";
import { bestDrillSeconds } from "../progress/drills.js";
import { peeksBeforePass } from "../progress/progress-data.js";
import { readProgress } from "../progress/progress-store.js";
import type { Pair } from "./class-dir.js";
import { GradeEngine, type EngineOptions } from "./engine.js";
import type { RunOutcome } from "./outcome.js";
import { planPair, sha256, type Step } from "./plan.js";
import type { GradeRecord } from "./record.js";
import type { ResultsStore } from "./store.js";

/** What a run tells its caller as it goes. */
export type GradeEvent =
  | { type: "planned"; toRun: number; reused: number; recorded: number }
  | { type: "finished"; record: GradeRecord; done: number; toRun: number };

/** Where Ctrl-C comes from: the process, or a stand-in in tests. */
export interface Signals {
  on(signal: "SIGINT" | "SIGTERM", listener: () => void): unknown;
  off(signal: "SIGINT" | "SIGTERM", listener: () => void): unknown;
}

export interface GradeRunOptions {
  pairs: Pair[];
  store: ResultsStore;
  engine: EngineOptions;
  limits: string;
  fresh: boolean;
  signals: Signals;
  onEvent: (event: GradeEvent) => void;
}

export interface GradeRunResult {
  /** One record per pair, in the pairs' order; missing entries mean the run was interrupted. */
  records: Map<string, GradeRecord>;
  graded: number;
  reused: number;
  interrupted: boolean;
}

type RunStep = Extract<Step, { kind: "run" }>;

function memo<K, V>(compute: (key: K) => V): (key: K) => V {
  const cache = new Map<K, V>();
  return (key) => {
    if (!cache.has(key)) cache.set(key, compute(key));
    return cache.get(key)!;
  };
}

export async function gradeClass(options: GradeRunOptions): Promise<GradeRunResult> {
  // The fixtures a test stands on are part of it: a changed link grades the exercise again.
  const testHash = memo((exercise: Exercise) => {
    const fixtures = fixturesText(exercise.dir);
    return sha256(fixtures === "" ? readFileSync(exercise.hiddenTest) : Buffer.concat([readFileSync(exercise.hiddenTest), Buffer.from(`\n${fixtures}`)]));
  });
  const drills = memo((learnerDir: string) => bestDrillSeconds(learnerDir));
  const progress = memo((learnerDir: string) => readProgress(learnerDir));
  const previous = options.store.latest();
  const startedAt = new Date().toISOString();
  const pendingFresh = options.store.pendingFresh();
  const steps = options.pairs.map((pair) =>
    planPair(pair, {
      limits: options.limits,
      fresh: options.fresh,
      pendingFresh,
      previous,
      testHash: (p) => testHash(p.exercise),
      bestDrill: (p) => drills(p.learnerDir)?.get(p.exercise.number) ?? null,
      peeks: (p) => peeksBeforePass(progress(p.learnerDir)?.exercises[p.exercise.id]),
      now: () => new Date().toISOString(),
    }),
  );
  const records = new Map<string, GradeRecord>();
  for (const step of steps) {
    if (step.kind === "run") continue;
    if (step.kind === "record") options.store.append(step.record);
    records.set(step.record.key, step.record);
  }
  const toRun = steps.filter((s): s is RunStep => s.kind === "run");
  const reused = steps.filter((s) => s.kind === "reuse").length;
  options.onEvent({ type: "planned", toRun: toRun.length, reused, recorded: steps.length - toRun.length - reused });
  if (options.fresh && toRun.length > 0)
    options.store.markFresh(
      toRun.map((step) => step.pair.key),
      startedAt,
    );
  if (toRun.length === 0) {
    options.store.settleFresh();
    return { records, graded: 0, reused, interrupted: false };
  }

  let interrupted = false;
  let engine: GradeEngine | null = null;
  const stop = () => {
    interrupted = true;
    engine?.abort();
  };
  options.signals.on("SIGINT", stop);
  options.signals.on("SIGTERM", stop);
  let graded = 0;
  try {
    engine = await GradeEngine.create(options.engine, toRun.length);
    if (interrupted) engine.abort();
    await engine.run(toRun, (step: RunStep, outcome: RunOutcome) => {
      const record = step.record(outcome);
      options.store.append(record);
      records.set(record.key, record);
      options.onEvent({ type: "finished", record, done: ++graded, toRun: toRun.length });
    });
  } finally {
    options.signals.off("SIGINT", stop);
    options.signals.off("SIGTERM", stop);
    await engine?.close();
    options.store.settleFresh();
  }
  return { records, graded, reused, interrupted };
}
