import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { judgeResolved, judgeSpecifier, refusedImport } from "../../../../checker/run/walls/import-wall.js";
import { tempDir } from "../../../support/temp-dir.js";

const root = "/class/ada";
const importer = `${root}/01-adder.ts`;
const lab = (spec: string) => spec === "lab:test" || spec.startsWith("@anthropic-ai/sdk");
const judge = (spec: string) => judgeSpecifier(spec, importer, root, lab);

describe("judgeSpecifier: what a learner file may ask for, before anything is resolved", () => {
  test.each([
    ["./helper.ts", { kind: "path", lexical: `${root}/helper.ts` }],
    [`${root}/helper.ts`, { kind: "path", lexical: `${root}/helper.ts` }],
    [`file://${root}/helper.ts`, { kind: "path", lexical: `${root}/helper.ts` }],
    ["@anthropic-ai/sdk", { kind: "pass" }],
    ["lab:test", { kind: "pass" }],
    ["node:fs", { kind: "builtin" }],
    ["fs/promises", { kind: "builtin" }],
  ])("allows %s", (spec, verdict) => {
    expect(judge(spec)).toEqual(verdict);
  });

  test.each([
    ["./helper.ts?raw", "query"],
    ["/etc/passwd?url", "query"],
    ["./x.ts#y", "query"],
    ["../ben/01-adder.ts", "outside"],
    ["./sub/../../ben/01-adder.ts", "outside"],
    ["/lab/solutions/01-adder.ts", "outside"],
    ["file:///etc/passwd", "outside"],
    ["vitest", "package"],
    ["lab:impl", "package"],
    ["zod", "package"],
  ])("refuses %s (%s)", (spec, reason) => {
    expect(judge(spec)).toEqual({ kind: "refuse", reason });
  });
});

describe("judgeResolved: where a resolved import really is", () => {
  test("a link beside the file that leads outside is outside; a file inside is fine; a hidden test is refused", () => {
    const dir = tempDir("wall");
    const learner = join(dir, "ada");
    mkdirSync(learner);
    mkdirSync(join(dir, "solutions"));
    writeFileSync(join(dir, "solutions/01-adder.ts"), "");
    writeFileSync(join(learner, "helper.ts"), "");
    writeFileSync(join(learner, "hidden.test.ts"), "");
    symlinkSync(join(dir, "solutions"), join(learner, "solutions"));
    const isTest = (path: string) => path.endsWith("hidden.test.ts");
    expect(judgeResolved(join(learner, "helper.ts"), learner, isTest)).toBeNull();
    expect(judgeResolved(join(learner, "solutions/01-adder.ts"), learner, isTest)).toBe("outside");
    expect(judgeResolved(join(learner, "hidden.test.ts"), learner, isTest)).toBe("test");
    expect(judgeResolved("\0virtual", learner, isTest)).toBe("query");
    expect(judgeResolved("relative.ts", learner, isTest)).toBe("notAFile");
  });

  test("the refusal names the import, shortened when long", () => {
    expect(refusedImport("/etc/passwd?raw", "query")).toBe(
      'lab refused to load "/etc/passwd?raw": a query suffix (?raw, ?url, ?inline…) reads a file as data.',
    );
    expect(refusedImport(`/${"a".repeat(300)}`, "outside")).toMatch(/^lab refused to load "\/a{159}…": it is outside your file's folder\.$/);
  });
});
