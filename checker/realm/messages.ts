/** The key a test's meta carries what the learner's code printed during it (see lab-impl.ts). */
export const OUTPUT_META = "labOutput";
/** The key a test's meta carries what the hidden test itself printed during it, its report (see lab-impl.ts). */
export const REPORT_META = "labReport";

/** What a test that reached the learner's realm is told when that realm is gone. */
export const REALM_MESSAGES = {
  exited: (code: number) =>
    code === 1
      ? "Your code's realm ended (exit code 1): it called process.exit(1) or was stopped."
      : `Your code called process.exit(${code}), which ends it; a test needs your functions to return instead.`,
  crashed: (error: Error) =>
    (error as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY"
      ? "Your code ran out of memory, so its realm was stopped."
      : `Your code threw outside any call, which ended its realm: ${error.message}`,
  stuck: (why: string) => `Your code was stopped: ${why}.`,
  closed: "Your code's realm was closed at the end of the test file; nothing of it may run later.",
} as const;
