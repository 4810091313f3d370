import { appendFileSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { labPaths } from "../../checker/paths.js";
import { Cassette, CassetteError, startProvider, type Exchange, type Provider, type Scenario } from "../../checker/provider/index.js";
import { isOptionSpec } from "../../checker/provider/scenarios/options.js";
import { loadConfig } from "../config/load-config.js";
import { loadModule, ModuleLoadError } from "../config/load-module.js";
import { UsageError, UserError } from "../terminal/errors.js";
import { writeLine, type Io } from "../terminal/io.js";
import { startRecording } from "./provider-record.js";

export const PROVIDER_MESSAGES = {
  portInUse: (port: number) => `Port ${port} is already in use; choose another with --port.`,
  noScenarioFile: (file: string) => `There is no scenario file at ${file}.`,
  noScenarios: (file: string) => `${file} exports no scenarios: export an array of scenarios as the default export.`,
  badScenario: (file: string, index: number) =>
    `${file}: scenario ${index + 1} needs a "name" string, a "description" string and a "reply" function, ` +
    'and its "options", if any, declared with integer(min, max), decimal(min, max) or flag().',
  stopped: "Stopped.",
  onlyWith: (flag: string, other: string) => `${flag} goes with ${other}: lab provider --record URL --out cassette.jsonl.`,
  notWith: (flag: string, other: string) => `${flag} and ${other} cannot be used together.`,
  replaying: (count: number, file: string) =>
    `Replaying ${count} recorded ${count === 1 ? "exchange" : "exchanges"} from ${file}, matched on what each request says.`,
  pacing: (latency: number, perToken: number) =>
    `Every answer: first token after ${latency} ms, then ${perToken} ms per token (latency=MS and perToken=MS in a path override them).`,
  internalError: (detail: string) => `The provider hit an error it did not expect and answered 500 api_error; it keeps serving.\n${detail}`,
} as const;

const SCENARIO_HELPERS_URL = pathToFileURL(join(labPaths().dist, "checker/provider/scenarios/helpers.js")).href;

function isScenario(value: unknown): value is Scenario {
  const s = value as Partial<Scenario> | null;
  if (typeof s?.name !== "string" || typeof s.description !== "string" || typeof s.reply !== "function") return false;
  return s.options === undefined || (typeof s.options === "object" && s.options !== null && Object.values(s.options).every(isOptionSpec));
}

/** Loads a user's scenario file: a default export that is an array (or object) of scenarios. */
export async function loadScenarioFile(file: string): Promise<Scenario[]> {
  if (!existsSync(file)) throw new UsageError(PROVIDER_MESSAGES.noScenarioFile(file));
  let mod: Record<string, unknown>;
  try {
    mod = await loadModule(file, { "harness-lab/scenarios": SCENARIO_HELPERS_URL });
  } catch (err) {
    throw new UserError(err instanceof ModuleLoadError ? err.message : `${file}: could not be loaded: ${(err as Error).message}`);
  }
  const exported = mod["default"];
  const list = Array.isArray(exported) ? exported : exported && typeof exported === "object" ? Object.values(exported) : [];
  if (list.length === 0) throw new UserError(PROVIDER_MESSAGES.noScenarios(file));
  list.forEach((s, i) => {
    if (!isScenario(s)) throw new UserError(PROVIDER_MESSAGES.badScenario(file, i));
  });
  return list as Scenario[];
}

const time = (at: Date) => at.toTimeString().slice(0, 8) + `.${String(at.getMilliseconds()).padStart(3, "0")}`;

/** One line per request, for the terminal. */
export function describeExchange(x: Exchange): string {
  const head = `${time(new Date())}  ${x.method} ${x.path}`;
  const ms = `${x.ms.toFixed(1)} ms`;
  if (x.outcome === "dropped") return `${head}  connection dropped on purpose  ${ms}`;
  if (x.outcome === "replayed") return `${head}  ${x.status} replayed exchange ${x.replayed}${x.stream ? " · stream" : ""}  ${ms}`;
  if (x.outcome === "count") return `${head}  200 count_tokens ${(x.response as { input_tokens: number }).input_tokens}  ${ms}`;
  if (x.outcome === "error") {
    const error = (x.response as { error?: { type: string; message: string } } | null)?.error;
    const why = error ? `: ${error.message.length > 100 ? `${error.message.slice(0, 100)}…` : error.message}` : "";
    return `${head}  ${x.status} ${error?.type ?? "error"}${why}  ${ms}`;
  }
  const u = x.usage!;
  const reply = x.response as { stop_reason?: string; choices?: Array<{ finish_reason: string }> };
  const stop = reply.stop_reason ?? reply.choices?.[0]?.finish_reason;
  return `${head}  200 ${stop}  in ${u.input_tokens} · out ${u.output_tokens} · cache read ${u.cache_read_input_tokens} / write ${u.cache_creation_input_tokens}${x.stream ? " · stream" : ""}  ${ms}`;
}

/**
 * `lab provider` runs for hours and reads none of its records back: each exchange is printed
 * (and, with --log, appended to the file) as it finishes, and none is kept in memory.
 */
export const PROVIDER_COMMAND_KEEP = { exchanges: 0 } as const;

export interface ProviderFlags {
  port?: number;
  log?: string;
  scenarios?: string;
  latency?: number;
  perToken?: number;
  record?: string;
  out?: string;
  replay?: string;
}

/** The flags that cannot go together, as the usage error naming the first pair. */
function checkFlags(opts: ProviderFlags): void {
  if (opts.record !== undefined && opts.out === undefined) throw new UsageError(PROVIDER_MESSAGES.onlyWith("--record", "--out"));
  if (opts.out !== undefined && opts.record === undefined) throw new UsageError(PROVIDER_MESSAGES.onlyWith("--out", "--record"));
  const modes: Array<[string, unknown]> = [
    ["--record", opts.record],
    ["--replay", opts.replay],
    ["--scenarios", opts.scenarios],
  ];
  const given = modes.filter(([, v]) => v !== undefined).map(([flag]) => flag);
  if (given.length > 1) throw new UsageError(PROVIDER_MESSAGES.notWith(given[0]!, given[1]!));
  if (opts.record !== undefined) {
    const other = (["log", "latency", "perToken"] as const).find((k) => opts[k] !== undefined);
    if (other) throw new UsageError(PROVIDER_MESSAGES.notWith("--record", other === "perToken" ? "--per-token" : `--${other}`));
  }
}

function readCassette(file: string, io: Io): Cassette {
  try {
    return Cassette.read(resolve(io.cwd, file), file);
  } catch (err) {
    if (err instanceof CassetteError) throw new UsageError(err.message);
    throw err;
  }
}

/** A server's start, with a taken port said in one sentence. */
function portOf<T>(starting: Promise<T>, port: number): Promise<T> {
  return starting.catch((err: NodeJS.ErrnoException) => {
    if (err.code === "EADDRINUSE") throw new UserError(PROVIDER_MESSAGES.portInUse(port));
    throw err;
  });
}

/** Resolves once Ctrl-C (SIGINT or SIGTERM) arrives or `signal` aborts. */
function untilStopped(signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolveStop) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolveStop();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    signal?.addEventListener("abort", stop, { once: true });
  });
}

function listen(opts: {
  port: number;
  latencyMs: number;
  perTokenMs: number;
  cacheMinTokens: number;
  scenarios: Scenario[];
  cassette?: Cassette;
  onExchange: (x: Exchange) => void;
  onInternalError: (err: unknown) => void;
}) {
  return portOf(startProvider({ ...opts, keep: PROVIDER_COMMAND_KEEP }), opts.port);
}

/** `lab provider`: serves until Ctrl-C (or `signal` aborts), then closes cleanly. */
export async function providerCommand(opts: ProviderFlags, io: Io, signal?: AbortSignal): Promise<number> {
  checkFlags(opts);
  const { config } = await loadConfig(io.cwd);
  const port = opts.port ?? config.provider.port;
  if (opts.record !== undefined) {
    const recorder = await portOf(startRecording({ upstream: opts.record, out: opts.out!, port }, io), port);
    await untilStopped(signal);
    await recorder.close();
    writeLine(io.stdout, PROVIDER_MESSAGES.stopped);
    return 0;
  }
  const cassette = opts.replay === undefined ? undefined : readCassette(opts.replay, io);
  const extra = opts.scenarios ? await loadScenarioFile(resolve(io.cwd, opts.scenarios)) : [];
  const logFile = opts.log ? resolve(io.cwd, opts.log) : null;
  const provider: Provider = await listen({
    port,
    cacheMinTokens: config.provider.cacheMinTokens,
    latencyMs: opts.latency ?? 0,
    perTokenMs: opts.perToken ?? 0,
    scenarios: extra,
    ...(cassette ? { cassette } : {}),
    onExchange(x) {
      writeLine(io.stdout, describeExchange(x));
      if (logFile) appendFileSync(logFile, `${JSON.stringify(x)}\n`);
    },
    onInternalError(err) {
      writeLine(io.stderr, PROVIDER_MESSAGES.internalError(err instanceof Error ? (err.stack ?? err.message) : String(err)));
    },
  });

  writeLine(io.stdout, `Scripted provider listening on ${provider.origin}`);
  if (opts.latency || opts.perToken) writeLine(io.stdout, PROVIDER_MESSAGES.pacing(opts.latency ?? 0, opts.perToken ?? 0));
  if (cassette) writeLine(io.stdout, PROVIDER_MESSAGES.replaying(cassette.exchanges.length, opts.replay!));
  else {
    writeLine(io.stdout, `Point an SDK client at ${provider.origin}/s/<scenario>, for example:`);
    writeLine(io.stdout, `  new Anthropic({ baseURL: "${provider.url("weather")}", apiKey: "lab" })`);
    writeLine(io.stdout, `  new OpenAI({ baseURL: "${provider.url("weather")}/v1", apiKey: "lab" })`);
    writeLine(io.stdout);
    writeLine(io.stdout, "Scenarios:");
    const width = Math.max(...provider.scenarios.map((s) => s.name.length));
    for (const s of provider.scenarios) writeLine(io.stdout, `  ${s.name.padEnd(width)}  ${s.description}`);
  }
  writeLine(io.stdout);
  writeLine(io.stdout, "Press Ctrl-C to stop.");

  await untilStopped(signal);
  await provider.close();
  writeLine(io.stdout, PROVIDER_MESSAGES.stopped);
  return 0;
}
