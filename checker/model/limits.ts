/**
 * How long one hidden test may take before it is taken for hung: the same for every exercise
 * and every test (no hidden test sets one of its own), and generous, since a hidden test never
 * waits on real time (clocks are injected, a tool's gates are opened by the test, the provider
 * answers at once). A test that makes a few dozen model calls took up to about 0.7 s with three
 * busy loops beside it on a two-core machine (bench/cpu-hog.mjs), so only a hang comes near the
 * limit. A run as a whole has its own limit besides, the learner's `timeoutSeconds`.
 */
export const HANG_LIMIT_MS = 10_000;

/**
 * How long one synchronous call into the learner's code may keep a test waiting: a call blocks
 * the test's thread, so it is stopped well inside the test's own limit, and the test can say why.
 */
export const CALL_LIMIT_MS = 5_000;
