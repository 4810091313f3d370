/**
 * Runs learner × exercise pairs: `jobs` runners side by side, each taking one learner at a
 * time and running that learner's pairs one by one on a copy of each file. The learner's
 * pairs share a worker process (each file with fresh module state; see RunRequest.owner in
 * checker/run/runner.ts), which is killed before the runner takes the next learner: no
 * process ever holds two learners' code. One pair per rerun means anything a run reports
 * (a crash, an escaped error) belongs to that pair and no other.
 */
import { mkdirSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ownedTempDir } from "../../checker/run/walls/owned-temp.js";
import { Runner } from "../../checker/run/runner.js";
import { fixturesIn, layFixtures } from "../../checker/testing/fixtures.js";
import type { Pair } from "./class-dir.js";
import { OutputTail } from "./output-tail.js";
import { outcomeOf, type RunOutcome } from "./outcome.js";
import { workerSandbox, type Sandbox } from "./sandbox.js";
import { copySiblings } from "./siblings.js";

export interface EngineOptions {
  jobs: number;
  timeoutSeconds: number;
  memoryMb: number;
  /** Folders the workers may read besides the runners' copies of the hidden tests. */
  readable: string[];
}

/** A pair to run and the exact bytes of the learner's file that were hashed. */
export interface Job {
  pair: Pair;
  source: Buffer;
}

interface Slot {
  runner: Runner;
  output: OutputTail;
  scratch: string;
  /** The only folder its workers may write in (their TMPDIR). */
  tmp: string;
}

/** How long to wait for a dead worker's last words on stderr after its run returns. */
const LAST_WORDS_MS = 150;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Rewrites the scratch copies' paths in a message into the paths the instructor knows. */
function cleaner(copy: string, relFile: string, runnerScratch: string, exerciseId: string): (text: string) => string {
  const rules: [RegExp, string][] = [];
  for (const path of new Set([copy, realpathSync(copy)])) rules.push([new RegExp(escape(path), "g"), relFile]);
  for (const dir of new Set([runnerScratch, realpathSync(runnerScratch)])) {
    rules.push([new RegExp(`${escape(dir)}/\\d+-${escape(exerciseId)}/hidden\\.test\\.ts`, "g"), `exercises/${exerciseId}/hidden.test.ts`]);
  }
  return (text) => rules.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

/** One runner with one worker, its output kept for why a worker died. */
async function startSlot(dir: string, tmp: string, sandbox: Sandbox, options: EngineOptions): Promise<Slot> {
  const output = new OutputTail();
  const runner = await Runner.create({
    timeoutSeconds: options.timeoutSeconds,
    maxWorkers: 1,
    env: sandbox.env,
    execArgv: sandbox.execArgv,
    memoryLimitMb: options.memoryMb,
    output,
    scratchDir: dir,
    codeOverIpc: true,
    taskLocations: false,
  });
  return { runner, output, scratch: dir, tmp };
}

/** Empties `dir` but keeps it: a worker starting at that moment must find its temp folder there. */
function emptyFolder(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true, force: true });
}

/**
 * The jobs as units of work, one learner's each, in order; while there are fewer units than
 * runners, the largest is halved (two processes for one learner's code are still walled from
 * every other learner's).
 */
export function learnerUnits<J extends Job>(jobs: J[], runners: number): J[][] {
  const byLearner = new Map<string, J[]>();
  for (const job of jobs) {
    const unit = byLearner.get(job.pair.learnerDir);
    if (unit) unit.push(job);
    else byLearner.set(job.pair.learnerDir, [job]);
  }
  const units = [...byLearner.values()];
  while (units.length < runners) {
    const largest = units.reduce((a, b) => (b.length > a.length ? b : a), units[0] ?? []);
    if (largest.length < 2) break;
    units.splice(units.indexOf(largest), 1, largest.slice(0, largest.length >> 1), largest.slice(largest.length >> 1));
  }
  return units;
}

export class GradeEngine {
  private aborted = false;
  private copies = 0;

  private constructor(
    private readonly slots: Slot[],
    private readonly scratch: string,
    private readonly options: EngineOptions,
  ) {}

  /** Starts `min(jobs, pairs)` runners, each with one worker, sandboxed. */
  static async create(options: EngineOptions, pairs: number): Promise<GradeEngine> {
    const scratch = realpathSync(ownedTempDir("lab-grade-"));
    const count = Math.max(1, Math.min(options.jobs, pairs));
    const runnerDirs = Array.from({ length: count }, (_, k) => join(scratch, `runner-${k}`));
    // Workers may read `readable` and the runners' copies of the hidden tests, never
    // scratch/work, where the learners' copies wait their turn.
    // Each runner's workers also get a temp folder of their own to write in, emptied between pairs.
    const slots = await Promise.all(
      runnerDirs.map((dir, k) => {
        const tmp = join(scratch, `tmp-${k}`);
        mkdirSync(tmp, { recursive: true });
        return startSlot(dir, tmp, workerSandbox([...options.readable, ...runnerDirs], options.memoryMb, tmp), options);
      }),
    );
    return new GradeEngine(slots, scratch, options);
  }

  /** Runs every job, calling `done` as each one finishes; runs cut short by abort() are dropped. */
  async run<J extends Job>(jobs: J[], done: (job: J, outcome: RunOutcome) => void): Promise<void> {
    const units = learnerUnits(jobs, this.slots.length);
    let next = 0;
    await Promise.all(
      this.slots.map(async (slot) => {
        while (!this.aborted && next < units.length) {
          const unit = units[next++]!;
          for (const job of unit) {
            if (this.aborted) break;
            const outcome = await this.runOne(slot, job);
            if (outcome && !this.aborted) done(job, outcome);
          }
          // The learner's process goes before its temp folder is emptied for the next learner.
          await slot.runner.retireWorkers().catch(() => undefined);
          emptyFolder(slot.tmp);
        }
      }),
    );
  }

  private async runOne(slot: Slot, { pair, source }: Job): Promise<RunOutcome | null> {
    const dir = join(this.scratch, "work", String(this.copies++));
    mkdirSync(dir, { recursive: true });
    const copy = join(dir, pair.exercise.fileName);
    writeFileSync(copy, source);
    copySiblings(pair.learnerDir, pair.exercise.fileName, dir);
    // Links the workers may not make (Node's permission model), laid in the freshly emptied tmp.
    layFixtures(pair.exercise.dir, pair.exercise.id, fixturesIn(slot.tmp));
    try {
      slot.output.reset();
      const results = await slot.runner.runMany([{ exercise: pair.exercise, implFile: copy, owner: pair.learnerDir }]).catch((err: unknown) => {
        // A run cut short by abort() may end in an error instead of a result; either way it is dropped.
        if (this.aborted) return [];
        throw err;
      });
      const result = results[0];
      if (!result || this.aborted) return null;
      if (result.error?.kind === "crash") await new Promise((resolve) => setTimeout(resolve, LAST_WORDS_MS));
      const clean = cleaner(copy, pair.relFile, slot.scratch, pair.exercise.id);
      return outcomeOf({ result, outputTail: slot.output.tail(), memoryMb: this.options.memoryMb, clean });
    } finally {
      rmSync(dir, { recursive: true, force: true });
      // Each pair starts with an empty temp folder, as it would in a process of its own.
      emptyFolder(slot.tmp);
    }
  }

  /** Kills every worker now (Ctrl-C); runs in flight are dropped, not recorded. */
  abort(): void {
    this.aborted = true;
    for (const slot of this.slots) slot.runner.abort();
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.runner.close()));
    rmSync(this.scratch, { recursive: true, force: true });
  }
}
