/** Splitting a run's wall time from its trace and the provider's log, on hand-made numbers. */
import { expect, test } from "vitest";
import { describeWallTime, wallTime, type LoggedExchange } from "../../../src/trace/wall-time.js";

const usage = (input: number, output: number) => ({ input_tokens: input, output_tokens: output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
const EVENTS = [
  { runId: "r", type: "turn", input_tokens: 10, output_tokens: 5, at: 1000 },
  { runId: "r", type: "tool_start", callId: "c1", at: 1001 },
  { runId: "r", type: "tool_result", callId: "c1", ms: 9, at: 1011 },
  { runId: "r", type: "turn", input_tokens: 20, output_tokens: 6, at: 1300 },
  { runId: "r", type: "run_stopped", at: 1302 },
];
const exchange = (at: number, ms: number, input: number, output: number, status = 200): LoggedExchange => ({
  at,
  ms,
  status,
  endpoint: "messages",
  usage: usage(input, output),
});

test("each turn takes the exchange with its tokens that arrived last before it; the harness is what is left", () => {
  const log = [
    exchange(700, 299, 10, 5),
    exchange(690, 5, 20, 6, 429),
    exchange(1012, 287, 20, 6),
    // The same tokens, but asked after the turn was written, or long before another was: other runs' calls.
    exchange(1350, 20, 20, 6),
    exchange(650, 20, 20, 6),
    exchange(1020, 10, 99, 6),
  ];
  expect(wallTime(EVENTS, log)).toEqual({ wallMs: 602, toolsMs: 10, modelMs: 586, harnessMs: 6, restMs: 6, modelCalls: 2, unmatched: 0 });
  expect(describeWallTime(wallTime(EVENTS, log)!)).toBe("0.602 s: model 0.586 s in 2 calls, tools 0.010 s, harness 0.006 s");
});

test("a chat-completions turn (prompt_tokens counting the cached part) matches too; a turn missing from the log is counted as missing", () => {
  const events = [
    { type: "turn", prompt_tokens: 30, completion_tokens: 4, at: 500 },
    { type: "turn", prompt_tokens: 31, completion_tokens: 4, at: 900 },
  ];
  const log = [{ at: 100, ms: 399, status: 200, endpoint: "chat_completions", usage: { ...usage(10, 4), cache_read_input_tokens: 20 } }];
  const split = wallTime(events, log)!;
  expect(split).toMatchObject({ wallMs: 800, modelMs: 399, modelCalls: 1, unmatched: 1 });
  expect(describeWallTime(split)).toBe("0.800 s: model 0.399 s in 1 call (1 turn not in the log), tools 0.000 s, harness 0.401 s");
});

test("without a log, the model and the harness are one sum from the first event; without `at`, there is no split", () => {
  expect(wallTime(EVENTS, null)).toEqual({ wallMs: 302, toolsMs: 10, modelMs: null, harnessMs: null, restMs: 292, modelCalls: 0, unmatched: 0 });
  expect(wallTime([{ type: "turn" }], [])).toBeNull();
});
