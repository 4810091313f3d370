/** Every sentence the live screen says, in one place; tests assert them word for word. */
export const SCREEN_MESSAGES = {
  waiting: "Starting the first run…",
  running: "Running the hidden tests…",
  queued: "Running the hidden tests… you saved again, so another run follows.",
  staleLabel: "From the last run:",
  firstFailure: (name: string) => `First failure: ${name}`,
  whyItMatters: (summary: string) => `Why it matters: ${summary}`,
  timeoutAfter: "Your file is still being watched: save again to rerun.",
  allPassed: (total: number, n: number) => `All ${total} tests pass: exercise ${n} is solved, and your progress records it.`,
  compare: (n: number) => `Compare with the reference solution: lab solution ${n}`,
  next: (n: number, title: string) => `Next: press n for exercise ${n}, ${title}.`,
  last: "That was the last exercise.",
  hint: (i: number, total: number, text: string) => `Hint ${i} of ${total}: ${text}`,
  noMoreHints: "That was the last hint; the reference tiers go further.",
  watcherSilent: (n: number) =>
    `Your saves are not reaching lab as file events (common on network and VM folders); quit and run lab start ${n} --poll.`,
  fileMissing: (file: string, n: number) => `Your file ${file} is gone: save it again, or run lab reset ${n} to start from the stub.`,
  watchError: (message: string) => `Watching your file failed (${message}); press r to rerun by hand.`,
  crash: (message: string) => `The test runner failed, not your code: ${message}.`,
  paneFooter: (from: number, to: number, total: number) => `lines ${from}–${to} of ${total} · ↑↓ scroll · space page · esc close`,
} as const;
