/**
 * A generated class of 28 learners graded the way examples/github-actions/grade-class.yml grades
 * it: the workflow's own commands, four shard jobs each in a checkout of its own, the results
 * carried between jobs as artifacts, then the merge job. Its report must be the report of one
 * machine grading the whole class, byte for byte but for the date and the runs' durations. The
 * same results then feed every check of the report's content, and the HTML page in Chromium.
 */
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { labPaths } from "../../../checker/paths.js";
import { loadExercises } from "../../../checker/model/exercises.js";
import { launchChromium, VIEWPORT } from "./chromium.js";
import { everyKind, generateClass, type Handed } from "./generate-class.js";
import { declaredTests, ROOT, tempDir } from "./support.js";
import { labCheckout, readWorkflow, runCommand, runJob } from "./workflow.js";

const lab = labPaths();
/** Exercise 1 handed in by everyone (solutions, alternatives, each of its bugs, the stub), exercise 3 by nobody. */
const EXERCISES = "1,3";
const chosen = loadExercises(lab.exercises, lab.solutions).filter((e) => e.number === 1 || e.number === 3);
const exercise1 = chosen.find((e) => e.number === 1)!;
/**
 * A learner for each kind of exercise 1 file, then two from the generator's spread, so some bug
 * is handed in by two learners (copies of each other) and the others by one; rounded up to an
 * even class, whose pairs the four shards split evenly. Grading costs time per learner and more
 * of them prove nothing new; the first test below fails if this ever stops covering every kind.
 */
const LEARNERS = 2 * Math.ceil((everyKind(exercise1).length + 2) / 2);
const FORMATS = { md: "md", html: "html", junit: "xml" } as const;
type Reports = Record<keyof typeof FORMATS, string>;

let work: string;
let handed: Handed[];
let merged: Reports;
let single: Reports;
let summary: string;
let shardFiles: string[][];
/** What each learner handed in for exercise 1. */
const intent = () => handed.filter((h) => h.exercise === exercise1.id);

const read = (dir: string, base: string): Reports =>
  Object.fromEntries(Object.entries(FORMATS).map(([format, ext]) => [format, readFileSync(join(dir, `${base}.${ext}`), "utf8")])) as Reports;

beforeAll(async () => {
  work = tempDir("class-report");
  handed = generateClass(join(work, "generated"), chosen, { learners: LEARNERS, unsubmitted: [3], eachKindFirst: true });
  const workflow = readWorkflow(join(ROOT, "examples/github-actions/grade-class.yml"));
  const artifacts = join(work, "artifacts");
  const shards = (workflow.jobs["grade"] as unknown as { strategy: { matrix: { shard: number[] } } }).strategy.matrix.shard;
  expect(shards).toEqual([1, 2, 3, 4]);
  expect(workflow.env?.["SHARDS"]).toBe(shards.length);
  for (const shard of shards) {
    await runJob(workflow, "grade", {
      checkout: labCheckout(ROOT, join(work, `shard-${shard}`), join(work, "generated")),
      artifacts,
      matrix: { shard },
      env: { EXERCISES },
    });
  }
  shardFiles = readdirSync(artifacts)
    .filter((name) => name.startsWith("lab-grade-shard-"))
    .sort()
    .map((name) =>
      readFileSync(join(artifacts, name, "results.jsonl"), "utf8")
        .trim()
        .split("\n"),
    );
  const report = labCheckout(ROOT, join(work, "report"), null);
  summary = (await runJob(workflow, "report", { checkout: report, artifacts, env: { EXERCISES } })).summary;
  merged = read(report, "report");

  const one = labCheckout(ROOT, join(work, "single"), join(work, "generated"));
  for (const [format, ext] of Object.entries(FORMATS))
    await runCommand(`node bin/lab.js grade class --exercises ${EXERCISES} --format ${format} --out single.${ext}`, one);
  single = read(one, "single");
}, 1_500_000);

/** The report with its date and the runs' durations replaced: the only things two gradings of the same files may differ in. */
function aside(text: string): { text: string; dates: number; durations: number } {
  let dates = 0;
  let durations = 0;
  const out = text
    .replace(/\d{4}-\d\d-\d\d(T\d\d:\d\d:\d\d\.\d{3}Z| \d\d:\d\d UTC)?/g, () => (dates++, "<date>"))
    .replace(/ time="\d+\.\d{3}"/g, () => (durations++, ' time="<s>"'))
    .replace(/^(\| learner-.*) \| (\d+|-) \|$/gm, (_, row: string) => (durations++, `${row} | <ms> |`));
  return { text: out, dates, durations };
}

describe("the class graded on four machines, as the workflow does it", () => {
  test("the class hands in every kind of file: the solution, each alternative, each bug, the stub; some bug by two learners, some by one", () => {
    const kinds = (h: Handed) => `${h.kind}${h.name ? ` ${h.name}` : ""}`;
    const expected = [
      "solution",
      ...exercise1.alternatives.map((file) => `alternative ${basename(file, ".ts")}`),
      ...exercise1.mutants.map((m) => `mutant ${m.bug}`),
      "stub",
    ];
    expect(new Set(intent().map(kinds))).toEqual(new Set(expected));
    const learnersPerBug = Object.keys(exercise1.bugs).map((bug) => intent().filter((h) => h.kind === "mutant" && h.name === bug).length);
    expect(learnersPerBug).toContain(1);
    expect(Math.max(...learnersPerBug)).toBeGreaterThan(1);
  });

  test("each shard graded a quarter of the pairs, and together all of them once", () => {
    expect(shardFiles.map((lines) => lines.length)).toEqual(Array(4).fill(LEARNERS / 2));
    const keys = shardFiles.flat().map((line) => (JSON.parse(line) as { key: string }).key);
    expect(new Set(keys).size).toBe(LEARNERS * 2);
  });

  test("the merged report is the single machine's, byte for byte, the date and the runs' durations aside", () => {
    for (const format of Object.keys(FORMATS) as (keyof Reports)[]) {
      const a = aside(merged[format]);
      const b = aside(single[format]);
      expect(a.text, format).toBe(b.text);
      expect(a.dates, format).toBeGreaterThan(0);
      expect(a.dates, format).toBe(b.dates);
    }
    // Only the HTML page has no duration in it: it is equal to the date.
    expect(aside(merged.html).durations).toBe(0);
    expect(aside(merged.md).durations).toBe(LEARNERS);
  });

  test("the merge job's step summary is the Markdown report", () => {
    expect(summary).toBe(merged.md);
  });
});

/** A Markdown section's table rows as cells (header and rule dropped). */
function mdRows(md: string, heading: string): string[][] {
  const body = md.split(`\n## ${heading}\n\n`)[1]!.split("\n\n")[0]!;
  return body
    .split("\n")
    .slice(2)
    .map((line) =>
      line
        .slice(2, -2)
        .split(/ (?<!\\)\| /)
        .map((cell) => cell.replace(/\\(.)/g, "$1")),
    );
}

describe("what the report says about the class", () => {
  test("a title, the date and the lab's version; exercise 3, which nobody handed in, is one line", () => {
    const [title, , meta] = merged.md.split("\n");
    expect(title).toBe("# harness-lab class report");
    expect(meta).toMatch(new RegExp(`^${LEARNERS} learners · 2 exercises · \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC · lab \\d+\\.\\d+\\.\\d+$`));
    expect(merged.md).toContain("\nNobody handed in 03-budget: no row is shown for it.\n");
    expect(mdRows(merged.md, "Results").filter((row) => row[1] === "03-budget")).toEqual([]);
  });

  test("every learner's result is what the generator handed in: correct files pass, every bug and the stub fail", () => {
    const states = new Map(mdRows(merged.md, "Results").map((row) => [row[0], row[3]]));
    expect(states.size).toBe(LEARNERS);
    for (const h of intent())
      expect(states.get(h.learner), `${h.learner} handed in ${h.kind} ${h.name}`).toBe(h.kind === "solution" || h.kind === "alternative" ? "pass" : "fail");
  });

  test("the misconception map: every bug handed in is there with its sentence, counting at least its learners, most common first", () => {
    const map = mdRows(merged.md, "Misconceptions");
    const counts = map.map((row) => Number(row[0]));
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    for (const [bug, sentence] of Object.entries(exercise1.bugs)) {
      const learners = intent().filter((h) => h.kind === "mutant" && h.name === bug).length;
      if (learners === 0) continue;
      const row = map.find((r) => r[1] === exercise1.id && r[2] === bug);
      expect(row, bug).toBeDefined();
      expect(Number(row![0])).toBeGreaterThanOrEqual(learners);
      expect(row![3]).toBe(sentence);
    }
  });

  test("copies: each solution and alternative is flagged as what it is, learners with the same bug as each other, the stub never; states unchanged", () => {
    const flags = new Map(mdRows(merged.md, "Copies (flags only: no score changes)").map((row) => [row[0], row[2]]));
    for (const h of intent()) {
      const flag = flags.get(h.learner);
      if (h.kind === "solution") expect(flag).toMatch(/^the reference solution/);
      if (h.kind === "alternative") expect(flag).toMatch(new RegExp(`^alternative ${h.name}`));
      if (h.kind === "stub") expect(flag).toBeUndefined();
      const twins = intent().filter((o) => o.learner !== h.learner && o.kind === h.kind && o.name === h.name);
      if (h.kind === "mutant") expect(flag === undefined).toBe(twins.length === 0);
    }
  });

  test("peeks and drills from each learner's .lab/ are shown", () => {
    const peeks = new Map(mdRows(merged.md, "Peeks").map((row) => [`${row[0]}/${row[1]}`, row[2]]));
    expect(peeks.get("learner-01/01-tool-loop")).toBe("1 hint, the solution before passing, 1 drill peeked (hint, tier 1)");
    expect(peeks.get("learner-02/01-tool-loop")).toBeUndefined();
    expect(merged.html).toContain('<section id="drills">');
    expect(merged.html).not.toContain("No learner's .lab/drills.jsonl holds a drill");
  });
});

/** The little of the page's DOM these checks read in Chromium (the project's type check has no DOM library). */
interface Node {
  textContent: string | null;
  hash: string;
  getBoundingClientRect(): { right: number };
  getAttribute(name: string): string | null;
  querySelector(selector: string): Node | null;
  querySelectorAll(selector: string): ArrayLike<Node>;
}
declare const document: Node & { documentElement: { scrollWidth: number }; getElementById(id: string): Node | null };
declare const window: { innerWidth: number };
declare class DOMParser {
  parseFromString(text: string, type: string): Node;
}

describe("the HTML report in Chromium", () => {
  // One browser for both pages: a launch costs more than either check.
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(() => browser?.close());

  test("it opens offline and shows the grid, the rates and the misconception map, sized for 1280×800 with no sideways scroll", async () => {
    const file = join(work, "report/report.html");
    const page = await browser.newPage();
    try {
      const requests: string[] = [];
      page.on("request", (request) => void requests.push(request.url()));
      await page.goto(`file://${file}`);
      const seen = await page.evaluate(() => {
        const rows = (selector: string) => Array.from(document.querySelectorAll(selector));
        return {
          gridRows: rows("#grid table tbody tr").length,
          gridCells: rows("#grid table tbody tr:first-child td.cell").length,
          mapRows: rows("#map table tbody tr").map((tr) => Number(tr.querySelector("td")!.textContent)),
          charts: { standing: rows("#standing svg").length, map: rows("#map svg").length },
          links: rows("#grid a").map((a) => a.hash.slice(1)),
          scrollWidth: document.documentElement.scrollWidth,
          widest: Math.max(...rows("section, figure, table, svg").map((e) => e.getBoundingClientRect().right)),
          width: window.innerWidth,
        };
      });
      expect(requests).toEqual([`file://${file}`]);
      expect(seen.gridRows).toBe(LEARNERS);
      expect(seen.gridCells).toBe(1);
      expect(seen.mapRows.length).toBeGreaterThan(5);
      expect(seen.mapRows).toEqual([...seen.mapRows].sort((a, b) => b - a));
      expect(seen.charts).toEqual({ standing: 2, map: 1 });
      expect(seen.width).toBe(VIEWPORT.width);
      expect(seen.scrollWidth).toBeLessThanOrEqual(VIEWPORT.width);
      expect(seen.widest).toBeLessThanOrEqual(VIEWPORT.width);
      // Every failing cell links to its failures, and every link lands on them.
      expect(seen.links.length).toBe(intent().filter((h) => h.kind === "mutant" || h.kind === "stub").length);
      const landed = await page.evaluate((ids: string[]) => ids.filter((id) => document.getElementById(id) === null), seen.links);
      expect(landed).toEqual([]);
      const shot = join(tempDir("report-shot"), "report.png");
      await page.screenshot({ path: shot });
      expect(readFileSync(shot).subarray(1, 4).toString()).toBe("PNG");
    } finally {
      await page.close();
    }
  }, 120_000);

  test("the JUnit report is well-formed XML: a testsuite per learner × exercise, a testcase per hidden test", async () => {
    const page = await browser.newPage();
    try {
      const parsed = await page.evaluate((xml) => {
        const doc = new DOMParser().parseFromString(xml, "application/xml");
        const suite = doc.querySelector("testsuite[name='learner-02/01-tool-loop']");
        return {
          error: doc.querySelector("parsererror")?.textContent ?? null,
          suites: doc.querySelectorAll("testsuite").length,
          cases: suite?.querySelectorAll("testcase").length ?? 0,
          failures: Array.from(doc.querySelectorAll("failure")).map((f) => f.getAttribute("message")),
        };
      }, merged.junit);
      expect(parsed.error).toBeNull();
      expect(parsed.suites).toBe(LEARNERS * 2);
      expect(parsed.cases).toBe(declaredTests(join(ROOT, "exercises/01-tool-loop/hidden.test.ts")));
      expect(parsed.failures).toContain(exercise1.bugs["split-results"]);
    } finally {
      await page.close();
    }
  }, 60_000);
});
