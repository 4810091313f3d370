/**
 * What a worker process kept for its owner's next file (lab-pool.ts, SpareProcesses.serve)
 * puts back before each run, installed by preload.ts ahead of vitest's own listener. vitest
 * resets the modules itself (isolate: true) but makes process.exit throw only in a worker's
 * first run, and hands it the real one back after each run; a file's process.exit must fail
 * that file the same way whichever run of the process it is.
 */

/** vitest's own stand-in (see startModuleRunner in vitest's base chunk): the error text is interface. */
function throwingExit(code: string | number | null | undefined = process.exitCode || 0): never {
  throw new Error(`process.exit unexpectedly called with "${code}"`);
}

type Request = { __vitest_worker_request__?: boolean; type?: string } | null | undefined;

function beforeRun(message: Request): void {
  if (message?.__vitest_worker_request__ !== true || message.type !== "run") return;
  process.exitCode = undefined;
  process.exit = throwingExit as typeof process.exit;
}

export function resetBeforeEachRun(): void {
  // Not before vitest listens: Node hands the messages that came before any listener to the
  // first one, and vitest would never see its "start". Just after, and ahead of it.
  const onNewListener = (event: string | symbol) => {
    if (event !== "message") return;
    process.off("newListener", onNewListener);
    process.nextTick(() => process.prependListener("message", beforeRun as (message: unknown) => void));
  };
  process.on("newListener", onNewListener);
}
