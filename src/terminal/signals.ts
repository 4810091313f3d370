/** The signals that end a screen: Ctrl-C outside raw mode, a kill, a closed terminal. */
export const QUIT_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** Calls `handler` on each of `signals`; returns the cleanup. */
export function onSignals(signals: readonly NodeJS.Signals[], handler: () => void): () => void {
  for (const signal of signals) process.on(signal, handler);
  return () => {
    for (const signal of signals) process.off(signal, handler);
  };
}
