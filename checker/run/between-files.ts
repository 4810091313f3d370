/**
 * What a worker process kept for its owner's next file (spare-processes.ts, SpareProcesses.serve)
 * does between files, installed by preload.ts ahead of vitest's own listener. vitest resets
 * the modules itself (isolate: true) but makes process.exit throw only in a worker's first
 * run, and hands it the real one back after each run; a file's process.exit must fail that
 * file the same way whichever run of the process it is. The pool's questions about what a
 * file left behind are answered here too (leftovers.ts).
 */
import { exitCalled, isWorkerRequest, MESSAGE } from "./vitest-internals.js";
import { leftoverWatch } from "./workers/leftover-watch.js";

/** vitest's own stand-in (see startModuleRunner in vitest's base chunk): the error text is interface. */
function throwingExit(code: string | number | null | undefined = process.exitCode || 0): never {
  throw new Error(exitCalled(code));
}

function beforeRun(message: unknown): void {
  if (!isWorkerRequest(message) || message.type !== MESSAGE.run) return;
  process.exitCode = undefined;
  process.exit = throwingExit as typeof process.exit;
}

export function resetBeforeEachRun(): void {
  const realExit = process.exit.bind(process);
  const leftovers = leftoverWatch({ exit: (code) => realExit(code), reply: (message) => process.send?.(message) });
  const onMessage = (message: unknown) => {
    if (!leftovers(message)) beforeRun(message);
  };
  // Not before vitest listens: Node hands the messages that came before any listener to the
  // first one, and vitest would never see its "start". Just after, and ahead of it.
  const onNewListener = (event: string | symbol) => {
    if (event !== "message") return;
    process.off("newListener", onNewListener);
    process.nextTick(() => process.prependListener("message", onMessage));
  };
  process.on("newListener", onNewListener);
}
