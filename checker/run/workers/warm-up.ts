/**
 * What a spare worker does while it waits: rehearsals (rehearsal.ts) against its own scripted
 * provider, so that the SDK's and the provider's paths are compiled by V8's optimising tiers
 * when the learner saves, here and in the spare realm the learner's code will load in. The
 * pool interrupts the rehearsal the moment it hands the spare a run, by writing a line to the
 * spare's stdin: unlike a signal, that is harmless if it arrives before anyone listens.
 */
import Anthropic from "#anthropic-sdk";
import { pathToFileURL } from "node:url";
import { prepareSpareRealm } from "../../realm/host.js";
import { rehearseUntil } from "./rehearsal.js";
import { sweepYoungGarbage } from "./young-garbage.js";
import { startProvider } from "../../testing/index.js";
import { lazyRunChunkFiles } from "../vitest-internals.js";

/**
 * Rehearses until MAX_PASSES or until a line arrives on stdin, whichever is first. `again`: the
 * process may run another file after its first, so it starts a realm ahead after each.
 */
export async function warmUp(again: boolean): Promise<void> {
  const halt = new AbortController();
  // The request in flight is abandoned too: a cold first request can take a while.
  const stop = () => halt.abort();
  process.stdin.once("data", stop);
  // Missing chunks (another vitest) only cost the time this was meant to save.
  await Promise.all(lazyRunChunkFiles().map((file) => import(pathToFileURL(file).href).catch(() => undefined)));
  const provider = await startProvider();
  // One turn of the loop lets a line that is already waiting in the pipe be read.
  await new Promise((resolve) => setImmediate(resolve));
  try {
    const urls = { weather: provider.url("weather"), rateLimited: provider.url("rate-limited", { faults: 1 }) };
    // The realm the learner's code will run in rehearses its own SDK beside this one (checker/realm/).
    prepareSpareRealm(urls, again);
    await rehearseUntil(Anthropic as unknown as Parameters<typeof rehearseUntil>[0], urls, halt.signal);
    if (!halt.signal.aborted) sweepYoungGarbage();
  } finally {
    process.stdin.off("data", stop);
    process.stdin.pause();
    process.stdin.unref();
    await provider.close();
  }
}
