import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { TRIAGE_MESSAGES } from "../../../src/commands/triage.js";
import { REALM_MESSAGES } from "../../../checker/realm/messages.js";
import { DESK_WORDS, scenarioFor, searchDocs } from "../../../src/commands/triage-desk.js";
import { tempDir } from "../../support/temp-dir.js";
import { lab } from "./lab-process.js";

/** The cells after a label in the final table, split at spaces. */
const cells = (stdout: string, label: string) =>
  stdout
    .match(new RegExp(`^  ${label}\\s+(.+)$`, "m"))?.[1]
    ?.trim()
    .split(/\s+/) ?? [];
const row = (stdout: string, label: string) => cells(stdout, label)[0];

/** The chapter's walk-through for acme: dollars per turn and in all, shares in percent, the hit rate. */
const CHAPTER = { perTurn: [0.0427, 0.0149, 0.0123, 0.015, 0.0147], total: 0.0997, output: 25.3, cacheWrite: 58.9, cacheRead: 15.4, hitRate: 0.765 };

test("lab triage runs the acme walk-through as a process and ends with where the money went", async () => {
  const { code, stdout, stderr } = await lab(["triage", "how do I rotate an API key", "--tenant", "acme"], tempDir("triage"));
  expect(stderr).toBe("");
  expect(code, stdout).toBe(0);
  const lines = stdout.split("\n");
  expect(lines).toContain(TRIAGE_MESSAGES.reference);
  expect(stdout).toMatch(/^cache {3}miss: nearest 0\.91 \("how often do I rotate an API key"\) < 0\.98$/m);

  // search_docs and get_account come back in one turn: no model call between them.
  const search = lines.findIndex((l) => l.startsWith("tool    search_docs"));
  const account = lines.findIndex((l) => l.startsWith("tool    get_account"));
  expect(search).toBeGreaterThan(-1);
  expect(lines.slice(search, account).some((l) => l.startsWith("model"))).toBe(false);
  expect(lines[account]).toContain("(tenant acme)");
  expect(stdout).toMatch(/^offload search_docs: 38059 chars set aside, a \d+-char pointer sent$/m);
  expect(stdout).toMatch(/^tool {4}read_artifact /m);
  expect(stdout).toMatch(/^cache {3}stored the answer/m);

  const answer = stdout.slice(stdout.indexOf("Answer (answered):"));
  expect(answer).toMatch(/Claim 2: [^[]*\[src:\/tmp\/agent-artifacts\/search_docs-[0-9a-f]{8}\.txt\]/);
  expect(
    stdout.split("\n").filter((l) => [...l].length > 80),
    "every line fits 80 columns",
  ).toEqual([]);
  expect(answer).toMatch(/^Citations: \/tmp\/agent-artifacts\/search_docs-/m);

  // The final table agrees with the turns streamed above it, and with the chapter's walk-through.
  const turns = [...stdout.matchAll(/^model {3}turn \d+: \d+ in, \d+ written, \d+ read, \d+ out, \$(\d+\.\d{4})$/gm)].map((m) => Number(m[1]));
  expect(turns).toHaveLength(CHAPTER.perTurn.length);
  expect(Number(row(stdout, "model calls"))).toBe(turns.length);
  const perTurn = cells(stdout, "per turn").map((d) => Number(d.replace("$", "")));
  expect(perTurn).toEqual(turns);
  CHAPTER.perTurn.forEach((want, i) => expect(Math.abs(perTurn[i]! - want), `turn ${i + 1}`).toBeLessThanOrEqual(0.0001 + 1e-9));
  const total = Number(row(stdout, "total")!.slice(1));
  expect(Math.abs(total - CHAPTER.total)).toBeLessThanOrEqual(0.0001 + 1e-9);
  expect(Math.abs(total - turns.reduce((a, b) => a + b, 0))).toBeLessThanOrEqual(0.00005 * turns.length);
  const shares = ["output", "uncached input", "cache write", "cache read"].map((l) => Number(row(stdout, l)));
  expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(100, 0);
  expect(Math.abs(shares[0]! - CHAPTER.output)).toBeLessThan(0.5);
  expect(Math.abs(shares[2]! - CHAPTER.cacheWrite)).toBeLessThan(0.5);
  expect(Math.abs(shares[3]! - CHAPTER.cacheRead)).toBeLessThan(0.5);
  const [hitRate, verdict] = cells(stdout, "cache hit rate");
  expect(Math.abs(Number(hitRate) - CHAPTER.hitRate)).toBeLessThan(0.005);
  expect(verdict).toBe("HEALTHY");
});

test("lab triage without a tenant, with a tenant it does not know, or without a question: one sentence, exit 2, nothing run", async () => {
  const cwd = tempDir("triage");
  for (const [args, sentence] of [
    [["triage", "how do I rotate an API key"], TRIAGE_MESSAGES.noTenant],
    [["triage", "how do I rotate an API key", "--tenant", "initech"], TRIAGE_MESSAGES.unknownTenant("initech", ["acme", "globex"])],
    [["triage"], TRIAGE_MESSAGES.noQuestion],
    [["triage", "  ", "--tenant", "acme"], TRIAGE_MESSAGES.noQuestion],
  ] as const) {
    const { code, stdout, stderr } = await lab([...args], cwd);
    expect(code, args.join(" ")).toBe(2);
    expect(stderr).toBe(`${sentence}\n`);
    expect(stdout).toBe("");
  }
  expect(TRIAGE_MESSAGES.unknownTenant("initech", ["acme", "globex"])).toBe(
    'lab triage: there is no tenant "initech"; the fixture\'s tenants are acme and globex.',
  );
});

test("lab triage answers from the question: a billing question gets the docs' sentence on it, cited, and nothing about API keys", async () => {
  const { code, stdout } = await lab(["triage", "when are invoices issued?", "--tenant", "acme"], tempDir("triage"));
  expect(code, stdout).toBe(0);
  expect(stdout).toContain('tool    search_docs {"query":"when are invoices issued?"} (tenant acme)');
  const answer = stdout.slice(stdout.indexOf("Answer ("), stdout.indexOf("Where the money went"));
  expect(answer).toContain("Claim 1: Invoices are issued on the 1st [src:docs/billing.md]");
  expect(answer).toContain("Citations: docs/billing.md");
  expect(answer).not.toMatch(/API key|rotat|refund/i);
});

test("a question the docs hold nothing on is told so, for that question", async () => {
  const { code, stdout } = await lab(["triage", "can I change my plan", "--tenant", "globex"], tempDir("triage"));
  expect(code, stdout).toBe(0);
  expect(stdout.replace(/\s+/g, " ")).toContain(`Answer (answered): ${DESK_WORDS.nothingFound("can I change my plan")}`);
  expect(stdout).not.toMatch(/API key|rotat/i);
});

test("the docs search finds sentences by the question's words, stems included, and says when nothing matches", () => {
  expect(searchDocs("when are invoices issued")).toBe("docs/billing.md: Invoices are issued on the 1st.");
  expect(searchDocs("my refunds")).toBe("docs/billing.md: A refund needs the order id and the account owner's confirmation.");
  expect(searchDocs("weather in Paris")).toBe(DESK_WORDS.noMatch);
  expect(scenarioFor("how do I rotate an API key")).toBe("acme-triage");
  expect(scenarioFor("when are invoices issued")).toBe("triage-desk");
});

test("once exercise 11 has passed, lab triage runs the learner's own loop from the workspace", async () => {
  const dir = tempDir("triage");
  const mine = join(dir, "workspace", "11-integrated.ts");
  mkdirSync(join(dir, "workspace", ".lab"), { recursive: true });
  const solution = readFileSync(join(import.meta.dirname, "../../../solutions/11-integrated.ts"), "utf8");
  writeFileSync(mine, solution.replace('answered: "answered"', 'answered: "answered by my own loop"'));
  const progress = { version: 1, exercises: { "11-integrated": { hintsShown: 0, passedAt: "2026-12-01T12:00:00.000Z" } } };
  writeFileSync(join(dir, "workspace", ".lab", "progress.json"), JSON.stringify(progress));

  const { code, stdout } = await lab(["triage", "how do I rotate an API key", "--tenant", "acme"], dir);
  expect(code, stdout).toBe(0);
  expect(stdout).toContain("loop: yours (");
  expect(stdout).toContain("Answer (answered by my own loop):");
});

test("the learner's loop runs in a realm of its own: its process.exit(0) ends that realm, not lab triage, which says so and exits 1", async () => {
  const dir = tempDir("triage-exit");
  mkdirSync(join(dir, "workspace", ".lab"), { recursive: true });
  const solution = readFileSync(join(import.meta.dirname, "../../../solutions/11-integrated.ts"), "utf8");
  // Its run ends the process it runs in; the solution's own run stays in the file, renamed.
  const exits = "export async function run(..._args: unknown[]): Promise<never> {\n  process.exit(0);\n}\nasync function solutionRun(";
  writeFileSync(join(dir, "workspace", "11-integrated.ts"), solution.replace("export async function run(", exits));
  const progress = { version: 1, exercises: { "11-integrated": { hintsShown: 0, passedAt: "2026-12-01T12:00:00.000Z" } } };
  writeFileSync(join(dir, "workspace", ".lab", "progress.json"), JSON.stringify(progress));

  const { code, stdout, stderr } = await lab(["triage", "how do I rotate an API key", "--tenant", "acme"], dir);
  expect(stdout).toContain("loop: yours (");
  expect(stderr.trim()).toBe(REALM_MESSAGES.exited(0));
  expect(code).toBe(1);
});
