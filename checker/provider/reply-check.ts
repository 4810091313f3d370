/**
 * Runs a scenario and checks what it returned before any of it reaches the wire: a status
 * HTTP cannot carry, a header with a line break, or a reply of megabytes is the scenario's
 * bug, answered as a 500 api_error naming it, never a crash or a reply nobody can bound.
 */
import { ApiError } from "./errors.js";
import type { Scenario, ScenarioContext, ScenarioReply } from "./scenarios/types.js";

/** The most characters a scenario's reply may hold (text plus tool inputs as JSON). */
export const MAX_REPLY_CHARS = 2_000_000;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

export const SCENARIO_MESSAGES = {
  scenarioFailed: (name: string, detail: string) => `Scenario "${name}" failed: ${detail}`,
  badReply: (name: string) => `Scenario "${name}" returned something that is not a reply: use text(), asks(), fault() or drop().`,
  badFaultStatus: (name: string, status: unknown) =>
    `Scenario "${name}" returned a fault with status ${String(status)}; a fault's status must be an integer from 400 to 599.`,
  badFaultHeader: (name: string, header: string) =>
    `Scenario "${name}" returned a fault header ${JSON.stringify(header.slice(0, 100))} that HTTP cannot carry: ` +
    "a name is a token, a value has no line breaks or control characters.",
  replyTooLarge: (name: string, chars: number) => `Scenario "${name}" wrote a reply of ${chars} characters; a reply may hold at most ${MAX_REPLY_CHARS}.`,
} as const;

/** A thrown value's message, whatever was thrown. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

const failure = (message: string) => new ApiError(500, message);

function checkFault(name: string, reply: Extract<ScenarioReply, { kind: "fault" }>): void {
  if (!Number.isInteger(reply.status) || reply.status < 400 || reply.status > 599) throw failure(SCENARIO_MESSAGES.badFaultStatus(name, reply.status));
  for (const [header, value] of Object.entries(reply.headers ?? {})) {
    if (!HEADER_NAME.test(header) || typeof value !== "string" || !HEADER_VALUE.test(value)) throw failure(SCENARIO_MESSAGES.badFaultHeader(name, header));
  }
  if (typeof reply.message !== "string") throw failure(SCENARIO_MESSAGES.badReply(name));
}

function checkMessage(name: string, reply: Extract<ScenarioReply, { kind: "message" }>): void {
  if (!Array.isArray(reply.content)) throw failure(SCENARIO_MESSAGES.badReply(name));
  let chars = 0;
  for (const block of reply.content) {
    if (block?.type === "text" && typeof block.text === "string") chars += block.text.length;
    else if (block?.type === "tool_use" && typeof block.name === "string") chars += block.name.length + (JSON.stringify(block.input ?? {})?.length ?? 0);
    else throw failure(SCENARIO_MESSAGES.badReply(name));
    if (chars > MAX_REPLY_CHARS) throw failure(SCENARIO_MESSAGES.replyTooLarge(name, chars));
  }
}

/** The scenario's reply for `ctx`, checked; a throw or a malformed reply becomes a 500 api_error. */
export function runScenario(scenario: Scenario, ctx: ScenarioContext): ScenarioReply {
  let reply: ScenarioReply;
  try {
    reply = scenario.reply(ctx);
  } catch (err) {
    throw failure(SCENARIO_MESSAGES.scenarioFailed(scenario.name, messageOf(err)));
  }
  if (reply?.kind === "fault") checkFault(scenario.name, reply);
  else if (reply?.kind === "message") checkMessage(scenario.name, reply);
  else if (reply?.kind !== "drop") throw failure(SCENARIO_MESSAGES.badReply(scenario.name));
  return reply;
}
