import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { main } from "../../../src/cli/main.js";
import { buildProgram } from "../../../src/cli/program.js";
import { captureIo } from "../../support/io.js";

const root = join(import.meta.dirname, "../../..");

describe("lab --help", () => {
  test("lists every command, each with one example", async () => {
    const io = captureIo(root);
    expect(await main(["node", "lab", "--help"], io)).toBe(0);
    const help = io.out();
    const names = buildProgram(io).program.commands.map((c) => c.name());
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      expect(help).toMatch(new RegExp(`^  ${name}\\b`, "m"));
      expect(help.split("\n").filter((line) => line.startsWith(`  $ lab ${name}`))).toHaveLength(1);
    }
  });

  test("loads neither Ink, React nor vitest: nothing they import is reachable from the launcher", () => {
    const seen = new Set<string>();
    const bare: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, "utf8").replace(/^\s*\/\/.*$/gm, "");
      for (const match of source.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']/gm)) {
        const spec = match[1] ?? match[2]!;
        if (spec.startsWith(".")) visit(resolve(dirname(file), spec));
        else bare.push(spec);
      }
    };
    visit(join(root, "dist/src/cli/main.js"));
    expect(bare.filter((s) => /^(ink|react|vitest|vite|chokidar|@anthropic-ai)/.test(s))).toEqual([]);
  });
});

describe("the program is an adapter", () => {
  test("an unknown command is a usage error, exit 2 (not a failing test's 1), with commander's message; nothing exits the process", async () => {
    const io = captureIo(root);
    expect(await main(["node", "lab", "fly"], io)).toBe(2);
    expect(io.err()).toContain("error: unknown command 'fly'");
  });

  test("a bad port is refused before anything starts", async () => {
    const io = captureIo(root);
    expect(await main(["node", "lab", "provider", "--port", "99999"], io)).toBe(2);
    expect(io.err()).toContain("option '--port <port>' argument '99999' is invalid. a port is a whole number from 0 to 65535.");
  });
});

describe("usage errors exit 2 everywhere; --version", () => {
  test.each([
    [["check"], "error: missing required argument 'exercise'"],
    [["start"], "error: missing required argument 'exercise'"],
    [["check", "1", "--nope"], "error: unknown option '--nope'"],
    [["show", "1", "--tier", "2", "--lesson"], "error: option '--lesson' cannot be used with option '--tier <tier>'"],
    [["check", "99"], "There is no exercise 99; run lab list to see all"],
    [["check", "1", "--file", "no/such/file.ts"], "There is no file at"],
  ])("lab %j: exit 2 with one sentence", async (args, sentence) => {
    const io = captureIo(root);
    expect(await main(["node", "lab", ...args], io)).toBe(2);
    expect(io.err()).toContain(sentence);
  });

  test("lab --version and -v print the package's version, exit 0", async () => {
    const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
    for (const flag of ["--version", "-v"]) {
      const io = captureIo(root);
      expect(await main(["node", "lab", flag], io)).toBe(0);
      expect(io.out()).toBe(`${version}\n`);
    }
  });

  test("outside a lab checkout (no lab.config.ts up the tree), lab says where it looked and creates nothing", async () => {
    const { tempDir } = await import("../../support/temp-dir.js");
    const { readdirSync } = await import("node:fs");
    const away = tempDir("away");
    const io = captureIo(away);
    expect(await main(["node", "lab", "start", "1"], io)).toBe(2);
    expect(io.err()).toContain(`No lab.config.ts in ${away} or any folder above it, so there is no workspace to use. Run lab inside the lab's folder (`);
    expect(readdirSync(away)).toEqual([]);
  });
});

test("a config error printed to a pipe carries no colour codes", async () => {
  const { tempDir } = await import("../../support/temp-dir.js");
  const { writeFileSync } = await import("node:fs");
  const dir = tempDir("colour");
  writeFileSync(join(dir, "lab.config.ts"), "export default {\n");
  const io = captureIo(dir);
  expect(await main(["node", "lab", "list"], io)).toBe(1);
  expect(io.err()).toContain(`${join(dir, "lab.config.ts")}: `);
  expect(io.err()).not.toMatch(/\u001b\[/);
});
