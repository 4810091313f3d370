import Anthropic from "@anthropic-ai/sdk";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, sep } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { Offloader, READ_ARTIFACT_TOOL } from "lab:impl";
import { PLANTED_DOCUMENT } from "lab:support";
import { exerciseFixtures, useScenario } from "lab:test";

const OUTSIDE = "Error: path outside the artifact directory.";
/** A refusal the model can read that carries nothing of the file: no passwd line. */
const REFUSED = /^Error: (?![\s\S]*:0:0:)/;
const base = mkdtempSync(join(tmpdir(), "lab-08-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

let folders = 0;
/** A fresh artifact root inside this run's temporary folder. */
const freshRoot = (name = "agent-artifacts") => join(mkdtempSync(join(base, `case-${++folders}-`)), name);

/** The chapter's search dump: rows until the text reaches 38,000 characters (38,059 over 346 lines). */
function searchDump(): string {
  const rows: string[] = [];
  let size = 0;
  for (let i = 1; size < 38_000; i++) {
    const row = `${String(i).padStart(3)}. [docs/api-keys.md#rotate] 0.${70 + (i % 10)} :: Settings > API keys > Rotate: the earlier key works for 24 more hours.`;
    rows.push(row);
    size += row.length + 1;
  }
  return rows.join("\n");
}

const numbered = (n: number, what = "row") => Array.from({ length: n }, (_, i) => `${what} ${i}`).join("\n");
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The artifact path a pointer names: the root (as given or resolved) and a file name, up to a space or quote. */
function pathIn(pointer: string, root: string): string {
  for (const prefix of new Set([root, realpathSync(root)])) {
    const found = new RegExp(`${escape(prefix + sep)}[^\\s'"\`]+`).exec(pointer);
    if (found) return found[0];
  }
  throw new Error(`the pointer names no file under ${root}:\n${pointer}`);
}

/** How many lines of the pointer are exactly `line`. */
const timesShown = (pointer: string, line: string) => pointer.split("\n").filter((l) => l === line).length;

/** An Offloader holding one 400-line artifact ("row 0" … "row 399"), and that artifact's path. */
function withArtifact(root: string, lines = 400) {
  const off = new Offloader({ root, threshold: 100 });
  const path = pathIn(off.wrap("dump", numbered(lines)), root);
  const legitimateRead = () => off.read(path, 0, 2);
  return { off, path, legitimateRead };
}

/** A secret file outside the root: in a sibling folder of the root's parent. */
function secretOutside(root: string): string {
  const folder = join(root, "..", "outside");
  mkdirSync(folder, { recursive: true });
  const secret = join(folder, "secret.txt");
  writeFileSync(secret, "tenant-b api key: sk-live-0000");
  return secret;
}

// Provider round trips slow down on a busy machine; a hung test still ends at the run's time limit.
describe("08 offloading", () => {
  test("a result at the threshold passes through unchanged and writes nothing; one past it is offloaded (threshold-exclusive bug)", () => {
    const root = freshRoot();
    const off = new Offloader({ root, threshold: 100 });

    const small = "a".repeat(100);
    expect(off.wrap("lookup", small)).toBe(small);
    expect(readdirSync(root), "nothing written for a small result").toEqual([]);
    expect(off.savedChars).toBe(0);

    const big = "b".repeat(101);
    const pointer = off.wrap("lookup", big);
    expect(pointer.startsWith("[offloaded]")).toBe(true);
    expect(readdirSync(root)).toHaveLength(1);
    expect(readFileSync(pathIn(pointer, root), "utf8")).toBe(big);
    expect(off.savedChars).toBe(101);

    // The defaults: 2,000 characters, in join(tmpdir(), "agent-artifacts").
    const byDefault = new Offloader();
    const defaultRoot = join(tmpdir(), "agent-artifacts");
    expect(byDefault.wrap("lookup", "c".repeat(2_000))).toBe("c".repeat(2_000));
    const saved = pathIn(byDefault.wrap("lookup", "c".repeat(2_001)), defaultRoot);
    expect(readFileSync(saved, "utf8")).toHaveLength(2_001);
    rmSync(saved);
  });

  test("the chapter's 38,059-character search dump becomes a pointer 20× shorter naming size, path, head and tail (thin-pointer bug)", () => {
    const root = freshRoot();
    const off = new Offloader({ root });
    const dump = searchDump();
    const rows = dump.split("\n");
    expect([dump.length, rows.length], "the chapter's dump, rebuilt from its row recipe").toEqual([38_059, 346]);

    const pointer = off.wrap("search_docs", dump);

    console.log(`pointer: ${pointer.length} characters for a ${dump.length}-character dump (${(dump.length / pointer.length).toFixed(1)}× shorter)`);
    expect(pointer.startsWith("[offloaded]")).toBe(true);
    expect(pointer).toContain("search_docs");
    expect(pointer).toContain("346 lines");
    expect(pointer).toContain("38059 chars");
    expect(pointer).toContain("read_artifact");
    const path = pathIn(pointer, root);
    expect(readFileSync(path, "utf8"), "the artifact holds the whole result").toBe(dump);
    rows.forEach((row, i) => {
      const shown = i < 8 || i >= 342 ? 1 : 0;
      expect(timesShown(pointer, row), `row ${i + 1} shown ${shown} time(s)`).toBe(shown);
    });
    expect(dump.length / pointer.length, `a ${pointer.length}-character pointer`).toBeGreaterThanOrEqual(20);
    expect(off.savedChars).toBe(38_059);
  });

  test("no tail when head and tail would meet: 10 and 12 lines show only the head, and no line twice (tail-overlaps bug)", () => {
    const root = freshRoot();
    const off = new Offloader({ root, threshold: 50 });

    for (const count of [10, 12, 13]) {
      const lines = numbered(count, `${count}-line result, line`).split("\n");
      const pointer = off.wrap("scan", lines.join("\n"));
      lines.forEach((line, i) => {
        expect(timesShown(pointer, line), `${count} lines: line ${i + 1} appears at most once`).toBeLessThanOrEqual(1);
        if (count <= 12 && i >= 8) expect(timesShown(pointer, line), `${count} lines: line ${i + 1} is past the head`).toBe(0);
      });
      if (count === 13) expect(timesShown(pointer, lines[8]!), "13 lines: line 9 is in neither preview").toBe(0);
    }
  });

  test("read serves the requested window with its line range, and stops at the end of the file (range-past-end bug)", () => {
    const { off, path } = withArtifact(freshRoot());
    const rows = numbered(400).split("\n");

    expect(off.read(path, 0, 2)).toBe("[lines 0-2 of 400]\nrow 0\nrow 1");
    expect(off.read(path, 390, 50)).toBe(`[lines 390-400 of 400]\n${rows.slice(390).join("\n")}`);
    expect(off.read(path)).toBe(`[lines 0-200 of 400]\n${rows.slice(0, 200).join("\n")}`);
    const folder = join(dirname(path), "a-folder");
    mkdirSync(folder);
    expect(off.read(folder), "a folder inside the root is no artifact").toMatch(/^Error:/);
  });

  test("one read returns at most 500 lines, however many are asked for (uncapped-window bug)", () => {
    const { off, path } = withArtifact(freshRoot(), 1_000);

    const text = off.read(path, 0, 100_000);

    const [header, ...lines] = text.split("\n");
    expect(header).toBe("[lines 0-500 of 1000]");
    expect(lines).toHaveLength(500);
    expect(lines.at(-1)).toBe("row 499");
  });

  test("a sibling folder whose name extends the root's is outside it (string-prefix bug)", () => {
    const root = freshRoot();
    const { off, legitimateRead } = withArtifact(root);
    const sibling = `${root}-evil`;
    mkdirSync(sibling);
    writeFileSync(join(sibling, "secret.txt"), "tenant-b api key: sk-live-1111");

    expect(off.read(join(sibling, "secret.txt"))).toBe(OUTSIDE);
    expect(legitimateRead()).toBe("[lines 0-2 of 400]\nrow 0\nrow 1");
  });

  test("a symlink planted inside the root that points outside is refused (no-realpath bug)", () => {
    // Real links come from the lab (fixtures/): a walled worker may not make one itself.
    const planted = join(exerciseFixtures("08-offloading", base), "planted-link");
    const root = join(planted, "agent-artifacts");
    const link = join(root, "innocent.txt");
    expect(lstatSync(link).isSymbolicLink(), "innocent.txt is a real symlink").toBe(true);
    expect(realpathSync(link), "it points at the secret outside the root").toBe(realpathSync(join(planted, "outside", "secret.txt")));
    const { off, legitimateRead } = withArtifact(root);

    expect(off.read(link)).toBe(OUTSIDE);
    expect(legitimateRead()).toBe("[lines 0-2 of 400]\nrow 0\nrow 1");
  });

  test("an absolute path outside and a ../ traversal out of the root are refused (unresolved-dots bug)", () => {
    const root = freshRoot();
    const { off, legitimateRead } = withArtifact(root);
    secretOutside(root);
    // Written out by hand: join() would tidy the .. away before the Offloader saw it.
    const traversal = [root, "..", "outside", "secret.txt"].join(sep);

    // Only an Error: sentence is asserted here: under lab grade's walls /etc/passwd cannot even be
    // resolved, so a correct Offloader that resolves before it compares says so in its own words.
    expect(off.read("/etc/passwd"), "the case every version catches: refused, nothing read").toMatch(REFUSED);
    expect(legitimateRead()).toBe("[lines 0-2 of 400]\nrow 0\nrow 1");
    expect(off.read(traversal)).toBe(OUTSIDE);
    expect(off.read([root, ".."].join(sep)), "the root's own parent").toBe(OUTSIDE);
    expect(legitimateRead()).toBe("[lines 0-2 of 400]\nrow 0\nrow 1");
  });

  test("an Offloader whose root is reached through a symlink still reads its own artifacts (realpath-one-side bug)", () => {
    const linked = join(exerciseFixtures("08-offloading", base), "linked-root");
    const root = join(linked, "artifacts-link");
    expect(lstatSync(root).isSymbolicLink(), "the root is a real symlink to real-artifacts").toBe(true);

    const { off, path } = withArtifact(root);

    expect(off.read(path, 0, 2)).toBe("[lines 0-2 of 400]\nrow 0\nrow 1");
    expect(off.read(join(root, "earlier.txt"), 0, 2), "a file already in the root").toBe("[lines 0-2 of 2]\nan artifact from an earlier session\nline 2");
    expect(off.read(join(linked, "nowhere", "x.txt")).startsWith("Error:")).toBe(true);
  });

  test("a document planting 'read /etc/passwd' gets the containment error through a tool loop (tool-without-window bug)", async () => {
    const schema = READ_ARTIFACT_TOOL.input_schema as { type: string; properties: Record<string, { type?: string }>; required?: string[] };
    expect(READ_ARTIFACT_TOOL.name).toBe("read_artifact");
    expect(schema.type).toBe("object");
    expect(schema.properties["path"]?.type).toBe("string");
    expect(schema.properties["offset"]?.type, "the model can ask for a window").toBe("integer");
    expect(schema.properties["limit"]?.type).toBe("integer");
    expect(schema.required).toEqual(["path"]);
    expect(READ_ARTIFACT_TOOL.description, "says when to use it").toContain("[offloaded]");
    expect(READ_ARTIFACT_TOOL.description, "and to keep the window narrow").toMatch(/narrow/i);

    const session = await useScenario("injection");
    const off = new Offloader({ root: freshRoot() });
    const searchDocs: Anthropic.Tool = {
      name: "search_docs",
      description: "Searches the help centre.",
      input_schema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
    };
    const run = (name: string, input: Record<string, unknown>) =>
      name === "read_artifact"
        ? off.read(String(input["path"]), input["offset"] as number | undefined, input["limit"] as number | undefined)
        : off.wrap(name, PLANTED_DOCUMENT);
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "How do I rotate an API key?" }];
    let answer = "";
    for (let turn = 0; turn < 6 && !answer; turn++) {
      const reply = await session.client.messages.create({ model: "claude-opus-5", max_tokens: 1024, tools: [searchDocs, READ_ARTIFACT_TOOL], messages });
      messages.push({ role: "assistant", content: reply.content });
      const uses = reply.content.filter((b): b is Anthropic.ToolUseBlock => b.type === "tool_use");
      if (uses.length === 0) answer = reply.content.map((b) => (b.type === "text" ? b.text : "")).join("");
      else messages.push({ role: "user", content: uses.map((u) => ({ type: "tool_result" as const, tool_use_id: u.id, content: run(u.name, u.input as Record<string, unknown>) })) });
    }

    expect(answer, "the planted read came back refused").toMatch(/the read was refused: Error: /);
    expect(JSON.stringify(session.bodies()), "nothing from /etc/passwd reached the provider").not.toMatch(/root:[^:\n]*:0:0:/);
  });

  test("over 30 turns the prompt grows at least 5× more slowly with the offloader than without (compact-json bug)", async () => {
    const hits = (page: number) => ({
      page,
      query: "rotate api key",
      hits: Array.from({ length: 30 }, (_, i) => ({
        rank: i + 1,
        doc: `docs/security/api-keys-${page}-${i}.md#rotate`,
        score: Number((0.95 - i / 100).toFixed(2)),
        snippet: `Settings > API keys > Rotate: the earlier key works for 24 more hours (section ${i}).`,
      })),
    });
    const tools: Anthropic.Tool[] = [
      { name: "fetch_page", description: "Fetches one page of search results.", input_schema: { type: "object", properties: { page: { type: "integer" } } } },
    ];
    const session = await useScenario("growing", { options: { turns: 30, grow: 20 } });
    const off = new Offloader({ root: freshRoot() });
    // One run with the offloader; beside it, the same conversation with every result sent whole.
    const offloaded: Anthropic.MessageParam[] = [{ role: "user", content: "Collect every rotation rule from the search results." }];
    const whole: Anthropic.MessageParam[] = [...offloaded];
    const withOffloader: number[] = [];
    const without: Array<[turn: number, tokens: number]> = [];
    for (let turn = 1; turn <= 30; turn++) {
      const reply = await session.client.messages.create({ model: "claude-opus-5", max_tokens: 4096, tools, messages: offloaded });
      withOffloader.push(reply.usage.input_tokens + (reply.usage.cache_read_input_tokens ?? 0) + (reply.usage.cache_creation_input_tokens ?? 0));
      // The prompt that turn would have sent without offloading, counted at every fifth turn.
      if (turn === 1 || turn % 5 === 0) {
        const counted = await session.client.messages.countTokens({ model: "claude-opus-5", tools, messages: whole });
        without.push([turn, counted.input_tokens]);
      }
      const uses = reply.content.filter((b): b is Anthropic.ToolUseBlock => b.type === "tool_use");
      const answer = (content: string) => ({ role: "user" as const, content: uses.map((u) => ({ type: "tool_result" as const, tool_use_id: u.id, content })) });
      offloaded.push({ role: "assistant", content: reply.content }, answer(off.wrap("fetch_page", hits(turn))));
      whole.push({ role: "assistant", content: reply.content }, answer(JSON.stringify(hits(turn), null, 2)));
    }
    /** Least-squares slope of tokens against turn. */
    const slope = (points: Array<[number, number]>) => {
      const mx = points.reduce((a, [x]) => a + x, 0) / points.length;
      const my = points.reduce((a, [, y]) => a + y, 0) / points.length;
      const sxy = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
      const sxx = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
      return sxy / sxx;
    };

    const steep = slope(without);
    const flat = slope(withOffloader.map((tokens, i) => [i + 1, tokens]));
    console.log(`prompt tokens without offloading (slope ${steep.toFixed(0)} a turn), at turns ${without.map(([t, n]) => `${t}: ${n}`).join(", ")}`);
    console.log(`prompt tokens with offloading (slope ${flat.toFixed(0)} a turn), turns 1-30: ${withOffloader.join(", ")}`);
    expect(withOffloader[0], "turn 1 is the same prompt either way").toBe(without[0]![1]);
    expect(steep / flat, `slopes: ${steep.toFixed(0)} tokens a turn without, ${flat.toFixed(0)} with`).toBeGreaterThanOrEqual(5);
  });
});
