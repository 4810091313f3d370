/**
 * `--live` end to end, with the scripted provider standing in for the remote endpoint (its URL
 * as the base URL): exercise 1's real hidden tests on the solution, through the gate.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { labPaths } from "../../../checker/paths.js";
import { startProvider, type Exchange, type Provider } from "../../../checker/provider/index.js";
import { usdOf } from "../../../checker/testing/pricing.js";
import { main } from "../../../src/cli/main.js";
import { DEFAULT_MAX_USD, LIVE_MESSAGES } from "../../../src/commands/live.js";
import { captureIo } from "../../support/io.js";
import { tempDir } from "../../support/temp-dir.js";

let provider: Provider;
beforeAll(async () => {
  provider = await startProvider();
});
afterAll(() => provider.close());

/** A lab folder whose workspace holds exercise 1's solution. */
function project(): string {
  const cwd = tempDir("live");
  writeFileSync(join(cwd, "lab.config.ts"), `export default { workspace: "./ws", typeCheck: false };\n`);
  mkdirSync(join(cwd, "ws"));
  copyFileSync(join(labPaths().solutions, "01-tool-loop.ts"), join(cwd, "ws/01-tool-loop.ts"));
  return cwd;
}

const lab = (cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
  const io = captureIo(cwd, env);
  return main(["node", "lab", ...args], io).then((code) => ({ code, out: io.out(), err: io.err() }));
};

/** What the provider charged for `exchanges`, at each request's model. */
const charged = (exchanges: readonly Exchange[]) =>
  exchanges.filter((e) => e.usage).reduce((usd, e) => usd + usdOf(e.usage!, (e.body as { model: string }).model), 0);

describe("lab check --live", () => {
  test("against a provider standing in for the endpoint: the staged tests are skipped with their reason, the live checks pass, the spend is what the endpoint charged", async () => {
    const before = provider.requests.length;

    const { code, out, err } = await lab(project(), ["check", "1", "--live", provider.url("weather")]);

    expect(err).toBe("");
    expect(code).toBe(0);
    const lines = out.split("\n");
    expect(lines).toContain(LIVE_MESSAGES.header(provider.url("weather"), DEFAULT_MAX_USD));
    const live = lines.filter((l) => l.startsWith("  PASS  live: "));
    const skipped = lines.flatMap((l, i) => (l.startsWith("  SKIP  ") ? [lines[i + 1]!.trim()] : []));
    expect(live.length, "live checks that passed").toBeGreaterThan(0);
    expect(lines.filter((l) => l.startsWith("  FAIL  "))).toEqual([]);
    expect(skipped.length, "staged tests skipped").toBeGreaterThan(0);
    for (const reason of skipped) expect(reason).toMatch(/^Skipped live: only the scripted provider can .+, which this test checks\.$/);
    expect(skipped).toContain("Skipped live: only the scripted provider can cut a reply off at max_tokens, which this test checks.");
    expect(lines).toContain(LIVE_MESSAGES.verdict(live.length, 0, skipped.length));
    const spent = /^live: spent \$(\d+\.\d{4}) of \$1\.00 on (\d+) model calls \(\d+ tokens in, \d+ out\), priced from the usage the endpoint returned$/m.exec(
      out,
    );
    const exchanges = provider.requests.slice(before).filter((e) => e.endpoint === "messages");
    expect(Number(spent?.[1])).toBeCloseTo(charged(exchanges), 4);
    expect(Number(spent?.[2])).toBe(exchanges.length);
  }, 60_000);

  test("--max-usd below what one call may cost: the request is held back before it is sent, the run fails and says why, and nothing is spent", async () => {
    const before = provider.requests.length;

    const { code, out } = await lab(project(), ["check", "1", "--live", provider.url("weather"), "--max-usd", "0.01"]);

    expect(code).toBe(1);
    expect(
      provider.requests.slice(before).filter((e) => e.endpoint === "messages"),
      "model calls that reached the endpoint",
    ).toEqual([]);
    expect(out).toMatch(
      /^Stopped before the cap: lab --live held this request back: it could cost up to \$0\.\d{4}, and \$0\.0000 of the --max-usd \$0\.01 is spent or promised\.$/m,
    );
    expect(out).toContain("live: spent $0.0000 of $0.01 on 0 model calls (0 tokens in, 0 out), priced from the usage the endpoint returned");
  }, 60_000);
});

describe("start, drill and triage --live", () => {
  test("lab start --live without a terminal: one live run, the spend printed, and no pass recorded (its staged tests were skipped)", async () => {
    const cwd = project();

    const { code, out } = await lab(cwd, ["start", "1", "--live", provider.url("weather")]);

    expect(code).toBe(0);
    expect(out).toContain(`${LIVE_MESSAGES.header(provider.url("weather"), DEFAULT_MAX_USD)}\n`);
    expect(out).toMatch(/^  SKIP  /m);
    expect(out).toMatch(/^live: spent \$0\.\d{4} of \$1\.00 on \d+ model calls/m);
    const progress = JSON.parse(readFileSync(join(cwd, "ws/.lab/progress.json"), "utf8")) as {
      exercises: Record<string, { passedAt?: string; lastRun?: unknown }>;
    };
    expect(progress.exercises["01-tool-loop"]?.lastRun).toBeDefined();
    expect(progress.exercises["01-tool-loop"]?.passedAt).toBeUndefined();
  }, 60_000);

  test("lab drill --live without a terminal: the drill file's run goes to the endpoint, and the spend is printed", async () => {
    const cwd = project();
    const before = provider.requests.length;

    const { code, out } = await lab(cwd, ["drill", "1", "--live", provider.url("weather")]);

    // A fresh drill file holds the stub: the live checks fail on it, without a call reaching the endpoint.
    expect(code).toBe(1);
    expect(out).toContain(`${LIVE_MESSAGES.header(provider.url("weather"), DEFAULT_MAX_USD)}\n`);
    expect(out).toMatch(/^  SKIP  /m);
    expect(out).toContain("live: spent $0.0000 of $1.00 on 0 model calls (0 tokens in, 0 out), priced from the usage the endpoint returned");
    expect(provider.requests.slice(before).filter((e) => e.endpoint === "messages")).toEqual([]);
  }, 60_000);

  test("lab triage --live: the triage loop's calls go through the gate, and the spend is what the endpoint charged", async () => {
    const before = provider.requests.length;

    const { code, out, err } = await lab(project(), ["triage", "how do I rotate an API key", "--tenant", "acme", "--live", provider.url("acme-triage")]);

    expect(err).toBe("");
    expect(code, out).toBe(0);
    expect(out).toContain(`${LIVE_MESSAGES.header(provider.url("acme-triage"), DEFAULT_MAX_USD)}\n`);
    const exchanges = provider.requests.slice(before).filter((e) => e.endpoint === "messages");
    expect(exchanges.length).toBeGreaterThan(0);
    const spent = /^live: spent \$(\d+\.\d{4}) of \$1\.00 on (\d+) model calls/m.exec(out);
    expect(Number(spent?.[1])).toBeCloseTo(charged(exchanges), 4);
    expect(Number(spent?.[2])).toBe(exchanges.length);
  }, 60_000);
});

describe("--live used the wrong way: one sentence, exit 2, before anything runs", () => {
  test("no key and no URL", async () => {
    const { code, out, err } = await lab(project(), ["check", "1", "--live"]);

    expect(code).toBe(2);
    expect(err).toBe(
      "lab --live needs ANTHROPIC_API_KEY to reach the Anthropic API: set it, or give --live the URL of a compatible server (--live http://127.0.0.1:8080).\n",
    );
    expect(out).toBe("");
  });

  test("a URL nothing answers at", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const { code, err } = await lab(project(), ["check", "1", "--live", url]);

    expect(code).toBe(2);
    expect(err).toBe(`lab --live cannot reach ${url} (ECONNREFUSED): check that the server is running and that the URL is right.\n`);
  });

  test("an endpoint that refuses the key", async () => {
    const refusing = createServer((_req, res) => res.writeHead(401, { "content-type": "application/json" }).end('{"type":"error"}'));
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;

    const { code, err } = await lab(project(), ["check", "1", "--live", url], { ANTHROPIC_API_KEY: "sk-wrong" });
    await new Promise<void>((resolve) => refusing.close(() => resolve()));

    expect(code).toBe(2);
    expect(err).toBe(`${url} refused the key (HTTP 401): check ANTHROPIC_API_KEY.\n`);
  });

  test("not a URL, a cap that is not an amount, a cap without --live", async () => {
    const cwd = project();
    const runs = [
      await lab(cwd, ["check", "1", "--live", "localhost:8080"]),
      await lab(cwd, ["check", "1", "--live", provider.url("weather"), "--max-usd", "free"]),
      await lab(cwd, ["check", "1", "--max-usd", "1"]),
    ];

    expect(runs.map((r) => r.code)).toEqual([2, 2, 2]);
    expect(runs.map((r) => r.err)).toEqual([
      '--live takes the http or https URL of a Messages API endpoint, not "localhost:8080" (for example --live http://127.0.0.1:8080).\n',
      '--max-usd takes an amount of dollars above 0 (such as 0.50), not "free".\n',
      "--max-usd caps what a live run may spend: it goes with --live.\n",
    ]);
  });
});
