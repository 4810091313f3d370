/**
 * Resolves once `check` holds, looking again every `everyMs` (0: at the next turn of the event
 * loop, for screens Ink draws asynchronously; more for checks that spawn `ps` or read files).
 * Rejects with `never happened: <what>` after `timeoutMs`: a generous bound on a wait, never
 * a measurement.
 */
export async function until(check: () => boolean, what: string, timeoutMs = 5_000, everyMs = 0): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => (everyMs > 0 ? setTimeout(resolve, everyMs) : setImmediate(resolve)));
  }
}
