/**
 * LangGraph's retry policy waits with a plain setTimeout and offers no clock to inject. So the
 * test records each wait the policy asks for, by the delay it passed, and lets it pass at once:
 * only timers set from LangGraph's retry code, so the SDK's own timers run as they would.
 */
import { vi } from "vitest";

const RETRY_CODE = /@langchain[\\/]langgraph[\\/]dist[\\/]pregel[\\/]retry\./;

/** The delays (ms) LangGraph's retry asked for from now until the test's mocks are restored. */
export function recordRetryWaits(): number[] {
  const waits: number[] = [];
  const real = globalThis.setTimeout;
  const fake = (handler: (...args: unknown[]) => void, ms?: number, ...rest: unknown[]) => {
    const fromRetry = RETRY_CODE.test(new Error().stack ?? "");
    if (fromRetry) waits.push(ms ?? 0);
    return real(handler, fromRetry ? 0 : ms, ...rest);
  };
  vi.spyOn(globalThis, "setTimeout").mockImplementation(fake as typeof setTimeout);
  // The policy also says each retry on stdout ("Retrying task ..."): the waits above are what counts.
  const log = console.log;
  vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
    if (!String(args[0]).startsWith("Retrying task")) log(...args);
  });
  return waits;
}
