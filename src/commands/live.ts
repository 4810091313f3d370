/**
 * `--live [URL]` and `--max-usd` for start, check, drill and triage: the learner's same file
 * against a real Messages API endpoint. The flags are checked and the endpoint probed before
 * anything runs (a missing key or an unreachable URL is one sentence and exit 2); then the
 * gate (checker/testing/live/gate.ts) holds the key, counts the money and keeps the cap, and
 * the workers are told its URL in their environment.
 */
import { LIVE_ENV } from "../../checker/testing/live/live-env.js";
import { openGate, type Gate, type Spend } from "../../checker/testing/live/gate.js";
import { UsageError } from "../terminal/errors.js";

export interface LiveFlags {
  /** `--live` alone (true) or `--live URL`. */
  live?: boolean | string;
  /** `--max-usd N`, as typed. */
  maxUsd?: string;
}

export const DEFAULT_LIVE_URL = "https://api.anthropic.com";
/**
 * The default cap. Each request must fit its worst case under it before it goes (see gate.ts):
 * a triage turn, about 50 KB of prompt with 8,192 tokens of output allowed, may cost up to $0.51
 * on the dearest model, though it costs a few cents.
 */
export const DEFAULT_MAX_USD = 1;
/** How long the probe waits for the endpoint to answer at all. */
const PROBE_MS = 10_000;

const usd = (n: number, places = 2) => `$${n.toFixed(places)}`;

export const LIVE_MESSAGES = {
  noKey: "lab --live needs ANTHROPIC_API_KEY to reach the Anthropic API: set it, or give --live the URL of a compatible server (--live http://127.0.0.1:8080).",
  badUrl: (url: string) => `--live takes the http or https URL of a Messages API endpoint, not "${url}" (for example --live http://127.0.0.1:8080).`,
  badMaxUsd: (value: string) => `--max-usd takes an amount of dollars above 0 (such as 0.50), not "${value}".`,
  maxUsdAlone: "--max-usd caps what a live run may spend: it goes with --live.",
  unreachable: (url: string, why: string) => `lab --live cannot reach ${url} (${why}): check that the server is running and that the URL is right.`,
  keyRefused: (url: string, status: number) => `${url} refused the key (HTTP ${status}): check ANTHROPIC_API_KEY.`,
  header: (url: string, maxUsd: number) => `live: ${url}, at most ${usd(maxUsd)} (--max-usd)`,
  verdict: (passed: number, failed: number, skipped: number) =>
    `live: ${passed} passed, ${failed} failed, ${skipped} skipped (only the scripted provider can stage those: run without --live for them)`,
  spent: (spend: Spend, maxUsd: number) =>
    `live: spent ${usd(spend.usd, 4)} of ${usd(maxUsd)} on ${spend.calls} model call${spend.calls === 1 ? "" : "s"} (${spend.inputTokens} tokens in, ${spend.outputTokens} out), priced from the usage the endpoint returned`,
  capped: (sentence: string) => `Stopped before the cap: ${sentence}`,
  status: (spentUsd: number, maxUsd: number, capped: boolean) => `live: ${usd(spentUsd, 4)} of ${usd(maxUsd)} spent${capped ? ", held at the cap" : ""}`,
} as const;

export interface LiveTarget {
  url: string;
  apiKey: string | null;
  maxUsd: number;
}

/** The target the flags ask for, or null without --live; wrong flags are a UsageError. */
export function liveTarget(flags: LiveFlags, env: NodeJS.ProcessEnv = process.env): LiveTarget | null {
  if (flags.live === undefined || flags.live === false) {
    if (flags.maxUsd !== undefined) throw new UsageError(LIVE_MESSAGES.maxUsdAlone);
    return null;
  }
  const maxUsd = flags.maxUsd === undefined ? DEFAULT_MAX_USD : Number(flags.maxUsd);
  if (!Number.isFinite(maxUsd) || maxUsd <= 0) throw new UsageError(LIVE_MESSAGES.badMaxUsd(String(flags.maxUsd)));
  const apiKey = env["ANTHROPIC_API_KEY"] || null;
  if (flags.live === true) {
    if (!apiKey) throw new UsageError(LIVE_MESSAGES.noKey);
    return { url: DEFAULT_LIVE_URL, apiKey, maxUsd };
  }
  let url: URL;
  try {
    url = new URL(flags.live);
  } catch {
    throw new UsageError(LIVE_MESSAGES.badUrl(flags.live));
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(LIVE_MESSAGES.badUrl(flags.live));
  return { url: flags.live.replace(/\/+$/, ""), apiKey, maxUsd };
}

/** Why a failed fetch failed, in a few words: the system's code when there is one. */
function reasonOf(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === "string") return cause.code;
  if ((err as Error).name === "TimeoutError") return `no answer in ${PROBE_MS / 1000} s`;
  return String(cause?.message ?? (err as Error).message);
}

/** Asks the endpoint for its models: any answer but a refused key means it is there. */
export async function probe(target: LiveTarget): Promise<void> {
  const headers: Record<string, string> = { "anthropic-version": "2023-06-01" };
  if (target.apiKey) headers["x-api-key"] = target.apiKey;
  let status: number;
  try {
    const answer = await fetch(`${target.url}/v1/models`, { headers, signal: AbortSignal.timeout(PROBE_MS) });
    await answer.arrayBuffer();
    status = answer.status;
  } catch (err) {
    throw new UsageError(LIVE_MESSAGES.unreachable(target.url, reasonOf(err)));
  }
  if (status === 401 || status === 403) throw new UsageError(LIVE_MESSAGES.keyRefused(target.url, status));
}

/** A live run's gate, once the endpoint answered; close it when the command ends. */
export async function openLive(target: LiveTarget): Promise<Gate> {
  await probe(target);
  return openGate({ upstream: target.url, apiKey: target.apiKey, maxUsd: target.maxUsd });
}

/** Credentials the workers never get in a live run: every call goes through the gate, which holds the key. */
const KEYS = new Set(["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"]);

/** The workers' environment for a live run: `base` (what they would have had) without keys, plus the gate's URL. */
export function liveEnv(gate: Gate, base: Record<string, string | undefined>): Record<string, string> {
  const env = Object.fromEntries(Object.entries(base).filter((entry): entry is [string, string] => entry[1] !== undefined && !KEYS.has(entry[0])));
  return { ...env, [LIVE_ENV]: gate.url };
}

/** The screen's short word on a live run, beside each verdict. */
export const liveStatus = (gate: Gate) => LIVE_MESSAGES.status(gate.spend().usd, gate.maxUsd, gate.capped !== null);

/** What a live run printed last: the spend, and the refusal that stopped it, if one did. */
export function spendLines(gate: Gate): string[] {
  return [LIVE_MESSAGES.spent(gate.spend(), gate.maxUsd), ...(gate.capped ? [LIVE_MESSAGES.capped(gate.capped)] : [])];
}
