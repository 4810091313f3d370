import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseSync } from "rolldown/utils";
import ts from "typescript";
import { beforeEach, describe, expect, test } from "vitest";
import { loadExercises } from "../../../checker/model/exercises.js";
import { createDrillFile, drillFiles } from "../../../src/drill/drill-files.js";
import { drillSource } from "../../../src/drill/drill-source.js";
import { tempDir } from "../../support/temp-dir.js";

const root = resolve(import.meta.dirname, "../../..");
const exercises = loadExercises(join(root, "exercises"), join(root, "solutions"));
const fixture = loadExercises(join(root, "test/fixtures/lab/exercises"), join(root, "test/fixtures/lab/solutions"))[0]!;
const HEADER = "// drill header";

const exportedNames = (source: string) =>
  parseSync("x.ts", source)
    .module.staticExports.flatMap((e) => e.entries.map((entry) => entry.exportName.name))
    .sort();

describe("drillSource: imports and signatures only", () => {
  test("the fixture exercise: its import and three signatures, bodies that throw", () => {
    expect(drillSource(readFileSync(fixture.stub, "utf8"), HEADER)).toBe(`// drill header

import type Anthropic from "@anthropic-ai/sdk";

export function add(a: number, b: number): number {
  throw new Error("not implemented");
}

export async function echoSum(client: Anthropic, a: number, b: number): Promise<string> {
  throw new Error("not implemented");
}

export async function isRateLimit(client: Anthropic): Promise<boolean> {
  throw new Error("not implemented");
}
`);
  });

  test("bodies of every kind throw, given data keeps only its type, private helpers and teaching comments go", () => {
    const stub = `/** Exercise 9: teaches a lot. */
import { a } from "a"; // why a
import b from "b";

/** Options: the default is 3. */
interface Options {
  /** Default 3. */
  retries?: number;
}

const HELPER = 42; // a private value is part of the answer
function helper(): number {
  return HELPER;
}

export const TABLE: Record<string, number> = {
  // "opus": 15,
  x: 1,
};
export const LIST: string[] = ["one"];
export const LIMIT = 3;
export const run = async (o: Options = {}): Promise<number> => o.retries ?? helper();
export const twice = (n: number) => n * 2;

export class Meter<T> extends Base implements Thing {
  count = 0;
  private readonly seen: T[] = [];
  /** How it starts. */
  constructor(limit: number) {
    super();
    this.count = limit;
  }
  onTick = (by: number): void => {
    this.count += by;
  };
  get full(): boolean {
    return this.count > 3;
  }
  static make(): Meter<string> {
    return new Meter(1);
  }
}

export default function main(): void {
  console.log(a, b);
}
`;
    expect(drillSource(stub, HEADER)).toBe(`// drill header

import { a } from "a";
import b from "b";

interface Options {
  retries?: number;
}

export const TABLE: Record<string, number> = {};

export const LIST: string[] = [];

export const LIMIT = 3;

export const run = async (o: Options = {}): Promise<number> => {
  throw new Error("not implemented");
};

export const twice = (n: number) => {
  throw new Error("not implemented");
};

export class Meter<T> extends Base implements Thing {
  count = 0;
  private readonly seen: T[] = [];

  constructor(limit: number) {
    throw new Error("not implemented");
  }
  onTick = (by: number): void => {
    throw new Error("not implemented");
  };

  get full(): boolean {
    throw new Error("not implemented");
  }

  static make(): Meter<string> {
    throw new Error("not implemented");
  }
}

export default function main(): void {
  throw new Error("not implemented");
}
`);
  });

  test.each(exercises.map((e) => [e.id, e] as const))("%s: the stub's exports, no comment but the header, no code to copy", (_id, exercise) => {
    const stub = readFileSync(exercise.stub, "utf8");
    const drill = drillSource(stub, HEADER);
    const parsed = parseSync("drill.ts", drill);
    expect(parsed.errors).toEqual([]);
    expect(parsed.comments.map((c) => drill.slice(c.start, c.end))).toEqual([HEADER]);
    expect(exportedNames(drill)).toEqual(exportedNames(stub));
    expect(drill).not.toMatch(/\breturn\b/);
    const bodies = drill.match(/\{\n\s*throw new Error\("not implemented"\);\n\s*\}/g) ?? [];
    expect(bodies.length).toBeGreaterThan(0);
  });

  test("every exercise's drill file type-checks as the learner's editor sees it", () => {
    // Virtual files inside the lab, so "@anthropic-ai/sdk" resolves from its node_modules.
    const files = new Map(exercises.map((e) => [join(root, "exercises", `__drill__${e.id}.ts`), drillSource(readFileSync(e.stub, "utf8"), HEADER)]));
    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      skipLibCheck: true,
      esModuleInterop: true,
      types: ["node"],
    };
    const host = ts.createCompilerHost(options);
    const { getSourceFile, fileExists, readFile } = host;
    host.fileExists = (f) => files.has(f) || fileExists.call(host, f);
    host.readFile = (f) => files.get(f) ?? readFile.call(host, f);
    host.getSourceFile = (f, language, ...rest) =>
      files.has(f) ? ts.createSourceFile(f, files.get(f)!, language) : getSourceFile.call(host, f, language, ...rest);
    const program = ts.createProgram([...files.keys()], options, host);
    const problems = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    expect(problems).toEqual([]);
  }, 30_000);
});

describe("drill files: a new name each attempt, the exercise's own file untouched", () => {
  let workspace: string;
  beforeEach(() => void (workspace = tempDir("drill-files")));

  test("attempt 1, then 2, each a fresh file under drills/; the workspace file stays as it was", () => {
    const own = join(workspace, fixture.fileName);
    writeFileSync(own, "my own work\n");
    const first = createDrillFile(workspace, fixture, 0);
    writeFileSync(first.file, "half written\n");
    const second = createDrillFile(workspace, fixture, 0);
    expect([first.attempt, second.attempt]).toEqual([1, 2]);
    expect(second.file).toBe(join(workspace, "drills", "01-adder.2.ts"));
    expect(readFileSync(first.file, "utf8")).toBe("half written\n");
    expect(readFileSync(second.file, "utf8")).toContain("// lab drill 1, attempt 2: write it from memory. The clock started when the drill opened.");
    expect(readFileSync(own, "utf8")).toBe("my own work\n");
    expect(drillFiles(workspace, fixture).map((f) => f.attempt)).toEqual([1, 2]);
  });

  test("numbers continue past the history when old drill files were deleted, and other files in drills/ are ignored", () => {
    mkdirSync(join(workspace, "drills"));
    writeFileSync(join(workspace, "drills", "01-adder.notes.ts"), "");
    writeFileSync(join(workspace, "drills", "02-other.9.ts"), "");
    const next = createDrillFile(workspace, fixture, 4);
    expect(next.attempt).toBe(5);
    expect(existsSync(next.file)).toBe(true);
    expect(drillFiles(workspace, fixture)).toEqual([next]);
  });
});
