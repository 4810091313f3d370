/**
 * How long one hidden test, and one synchronous call into the learner's code within it, may
 * take before it is taken for hung: the same for every exercise, and generous, since a hidden
 * test never waits on real time (clocks are injected, a tool's gates are opened by the test,
 * the provider answers at once). Measured with `lab check N --file` on every solution, the
 * slowest test takes about 0.5 s on a two-core machine and 0.7 s with three busy loops
 * beside it (bench/cpu-hog.mjs), so only a hang comes near the limit. A run as a whole has
 * its own limit besides, the learner's `timeoutSeconds`.
 */
export const HANG_LIMIT_MS = 5_000;
