import { UserError } from "../terminal/errors.js";
import { isInteractive, writeLine, type Io } from "../terminal/io.js";
import { WorkspaceWriteError } from "../progress/workspace-files.js";
import { exerciseOrFail, loadContext, type LabContext } from "./context.js";
import { LIVE_MESSAGES, liveEnv, liveStatus, liveTarget, openLive, spendLines, type LiveFlags } from "./live.js";

export interface DrillFlags extends LiveFlags {
  /** `--history` alone (true) or `--history N`. */
  history?: boolean | string;
  interview?: boolean;
  peek?: boolean;
  poll?: boolean;
}

/**
 * `lab drill [N]`: a timed rewrite of exercise N (default 1) from memory on the live screen;
 * `--history [N]` prints past attempts instead. Without a terminal: one untimed run of the
 * latest drill file (see src/drill/plain-drill.ts for the exit codes).
 */
export async function drillCommand(key: string | undefined, opts: DrillFlags, io: Io, paths?: LabContext["paths"]): Promise<number> {
  const ctx = await loadContext(io, paths, { workspace: true });
  const { config, workspaceDir } = ctx.config;
  if (opts.history !== undefined && opts.history !== false) {
    const wanted = key ?? (typeof opts.history === "string" ? opts.history : undefined);
    const { showHistory } = await import("../drill/show-history.js");
    const only = wanted === undefined ? null : exerciseOrFail(ctx, wanted);
    const { drillTargets, FALLBACK_TARGET_SECONDS } = await import("../drill/targets.js");
    const targetSeconds = (n: number) => {
      const exercise = ctx.exercises.find((e) => e.number === n);
      return exercise ? drillTargets(exercise, config.drill).seconds : (config.drill.targetSeconds ?? FALLBACK_TARGET_SECONDS);
    };
    return showHistory({ io, workspaceDir, exercises: ctx.exercises, only, targetSeconds });
  }
  const exercise = exerciseOrFail(ctx, key ?? "1");
  const target = liveTarget(opts, io.env);
  const gate = target ? await openLive(target) : null;
  const env = gate ? { env: liveEnv(gate, io.env) } : {};
  try {
    if (gate) writeLine(io.stdout, LIVE_MESSAGES.header(gate.upstream, gate.maxUsd));
    if (!isInteractive(io)) {
      const { plainDrill } = await import("../drill/plain-drill.js");
      return await plainDrill({ io, exercise, workspaceDir, timeoutSeconds: config.timeoutSeconds, interview: opts.interview ?? false, ...env });
    }
    const { importScreen } = await import("../screen/import-screen.js");
    const { runDrill } = await importScreen(() => import("../drill/run-drill.js"));
    const { Runner } = await import("../../checker/run/runner.js");
    const { drillTargets } = await import("../drill/targets.js");
    // Where each test is declared is never shown; finding it costs every run a stack walk per test.
    const runner = await Runner.create({ timeoutSeconds: config.timeoutSeconds, warmSpares: true, taskLocations: false, ...env });
    try {
      return await runDrill({
        io,
        exercise,
        workspaceDir,
        runner,
        poll: opts.poll ?? config.poll,
        peek: opts.peek ?? false,
        interview: opts.interview ?? false,
        targets: drillTargets(exercise, config.drill),
        typeCheck: config.typeCheck,
        ...(gate ? { live: () => liveStatus(gate) } : {}),
      });
    } finally {
      await runner.close();
    }
  } catch (err) {
    if (err instanceof WorkspaceWriteError) throw new UserError(err.message);
    throw err;
  } finally {
    for (const line of gate ? spendLines(gate) : []) writeLine(io.stdout, line);
    await gate?.close();
  }
}
