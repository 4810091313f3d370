/**
 * vitest's logger answers SIGINT and SIGTERM by exiting the process a millisecond later,
 * which would cut grading off before it stops its workers and says what it saved. Grading
 * handles those signals itself, so it takes back the handlers that creating runners added.
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
