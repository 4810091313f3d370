import type { Exercise } from "../../checker/model/exercises.js";
import { forkFirstWorker } from "../../checker/run/first-worker.js";
import type { RunnerOptions } from "../../checker/run/runner-options.js";
import type { SpareProcesses } from "../../checker/run/workers/spare-processes.js";
import { UserError } from "../terminal/errors.js";
import { isInteractive, writeLine, type Io } from "../terminal/io.js";
import { ProgressStore } from "../progress/progress-store.js";
import { recordRun, recordStart } from "../progress/record-run.js";
import { ensureFromStub, WorkspaceWriteError } from "../progress/workspace-files.js";
import { openInEditor } from "../screen/open-editor.js";
import { plainPrinter } from "../screen/plain-printer.js";
import { fileLink } from "../screen/terminal-link.js";
import { TypeChecker } from "../typecheck/type-checker.js";
import { INTERRUPTED_EXIT_CODE, runOnce } from "../watch/run-once.js";
import { exerciseOrFail, loadContext, workspaceFile, type LabContext } from "./context.js";
import { LIVE_MESSAGES, liveEnv, liveStatus, liveTarget, openLive, spendLines, type LiveFlags } from "./live.js";
import type { Gate } from "../../checker/testing/live/gate.js";

export const START_MESSAGES = {
  created: (file: string) => `Created ${file} from the stub. Edit it in your editor; every save reruns the hidden tests.`,
  existing: (file: string) => `Your file: ${file}. Edit it in your editor; every save reruns the hidden tests.`,
  once: (n: number) => `No terminal here, so the hidden tests run once (like lab check ${n}) instead of on every save.`,
  polling: "Watching by polling the file (--poll).",
} as const;

export interface StartOptions extends LiveFlags {
  poll?: boolean;
}

/** Creates the learner's file if needed and says where it is; the path is a link in a terminal. */
function prepareFile(ctx: LabContext, io: Io, exercise: Exercise, progress: ProgressStore, link: boolean): string {
  const file = workspaceFile(ctx, exercise);
  let created: boolean;
  try {
    created = ensureFromStub(exercise, file, ctx.config.workspaceDir);
  } catch (err) {
    if (err instanceof WorkspaceWriteError) throw new UserError(err.message);
    throw err;
  }
  recordStart(progress, exercise.id);
  const shown = link ? fileLink(file) : file;
  writeLine(io.stdout, `Exercise ${exercise.number}: ${exercise.title}`);
  writeLine(io.stdout, created ? START_MESSAGES.created(shown) : START_MESSAGES.existing(shown));
  return file;
}

/** Without a terminal: one run, printed as plain lines, with `lab check`'s exit code. */
async function runPlain(ctx: LabContext, io: Io, exercise: Exercise, progress: ProgressStore, gate: Gate | null): Promise<number> {
  const implFile = prepareFile(ctx, io, exercise, progress, false);
  writeLine(io.stdout, START_MESSAGES.once(exercise.number));
  if (gate) writeLine(io.stdout, LIVE_MESSAGES.header(gate.upstream, gate.maxUsd));
  const { timeoutSeconds } = ctx.config.config;
  const env = gate ? { env: liveEnv(gate, io.env) } : {};
  const result = await runOnce({ exercise, implFile, timeoutSeconds, listener: plainPrinter(io.stdout, exercise), ...env });
  for (const line of gate ? spendLines(gate) : []) writeLine(io.stdout, line);
  if (result === null) return INTERRUPTED_EXIT_CODE;
  recordRun(progress, exercise.id, result);
  return result.status === "passed" ? 0 : 1;
}

/** The screen (Ink, as importScreen loads it), then vitest and a runner on `spares`. */
async function loadScreenAndRunner(options: RunnerOptions, spares: SpareProcesses) {
  const { importScreen } = await import("../screen/import-screen.js");
  const screen = await importScreen(() => import("../screen/watch-exercise.js"));
  const { Runner } = await import("../../checker/run/runner.js");
  return [screen, await Runner.create(options, spares)] as const;
}

/** `lab start N`: the live screen in a terminal, one plain run anywhere else. With --live, against a real endpoint. */
export async function startCommand(key: string, opts: StartOptions, io: Io, paths?: LabContext["paths"]): Promise<number> {
  const ctx = await loadContext(io, paths, { workspace: true });
  const exercise = exerciseOrFail(ctx, key);
  const target = liveTarget(opts, io.env);
  const gate = target ? await openLive(target) : null;
  try {
    return await startWith(ctx, io, exercise, opts, gate);
  } finally {
    await gate?.close();
  }
}

async function startWith(ctx: LabContext, io: Io, first: Exercise, opts: StartOptions, gate: Gate | null): Promise<number> {
  let exercise = first;
  const progress = new ProgressStore(ctx.config.workspaceDir, (sentence) => writeLine(io.stderr, sentence));
  if (!isInteractive(io)) return runPlain(ctx, io, exercise, progress, gate);

  const poll = opts.poll ?? ctx.config.config.poll;
  // Where each test is declared is never shown; finding it costs every run a stack walk per test.
  const env = gate ? { env: liveEnv(gate, io.env) } : {};
  const options = { timeoutSeconds: ctx.config.config.timeoutSeconds, warmSpares: true, taskLocations: false, ...env };
  // The first worker starts (~300 ms) while the screen and vitest load here (see first-worker.ts).
  const spares = forkFirstWorker(options);
  const [{ watchExercise }, runner] = await loadScreenAndRunner(options, spares).catch((error: unknown) => {
    spares.killAll();
    throw error;
  });
  const typeCheck = ctx.config.config.typeCheck ? new TypeChecker() : undefined;
  const live = gate ? { live: () => liveStatus(gate) } : {};
  try {
    for (;;) {
      const file = prepareFile(ctx, io, exercise, progress, true);
      if (poll) writeLine(io.stdout, START_MESSAGES.polling);
      const editor = ctx.config.config.editor;
      const next = ctx.exercises.find((e) => e.number > exercise.number) ?? null;
      const openEditor = editor ? (onError: (sentence: string) => void) => openInEditor(editor, file, onError) : null;
      const exit = await watchExercise({ io, exercise, file, next, runner, progress, poll, openEditor, typeCheck, ...live });
      if (exit !== "next" || !next) return 0;
      exercise = next;
    }
  } finally {
    await Promise.all([runner.close(), typeCheck?.close()]);
  }
}
