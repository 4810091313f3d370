/**
 * vitest's logger answers SIGINT and SIGTERM by exiting the process a millisecond later.
 * In lab the commands own those signals (a screen restores the terminal, grading stops its
 * workers and says what it saved, a plain run exits 130), so the runner takes back the
 * handlers that creating vitest added.
 */
const SIGNALS = ["SIGINT", "SIGTERM"] as const;

export async function withoutAddedSignalHandlers<T>(create: () => Promise<T>): Promise<T> {
  const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  try {
    return await create();
  } finally {
    for (const signal of SIGNALS) {
      for (const listener of process.listeners(signal)) if (!before.get(signal)!.has(listener)) process.off(signal, listener);
    }
  }
}
