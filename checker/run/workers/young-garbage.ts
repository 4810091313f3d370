/**
 * A spare's warm-up leaves its young generation full of what it no longer needs; the first
 * scavenge of the run would then copy what still lives of it, ~4–5 ms in the learner's realm
 * and 2–5 ms beside it, on the path of a save. Swept once the warm-up is over, the run starts
 * with an empty nursery. Spare workers are started with --expose-gc for this (spare-processes.ts);
 * the function is taken here, before any learner code runs, and the global is removed in the
 * learner's realm (entry.ts).
 */
const collect = (globalThis as { gc?: (options: { type: "minor" }) => void }).gc;

export function sweepYoungGarbage(): void {
  collect?.({ type: "minor" });
}
