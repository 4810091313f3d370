/**
 * Gradescope's documented results.json fields (its autograder specification): what a results
 * file may hold and of what type. Anything else is a problem, as is a wrong type or value.
 */
const VISIBILITY = ["hidden", "after_due_date", "after_published", "visible"];
const OUTPUT_FORMAT = ["text", "html", "simple_format", "md", "ansi"];

type Rule = (value: unknown) => boolean;
const number: Rule = (v) => typeof v === "number" && Number.isFinite(v);
const string: Rule = (v) => typeof v === "string";
const oneOf =
  (values: string[]): Rule =>
  (v) =>
    typeof v === "string" && values.includes(v);
const object: Rule = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const strings: Rule = (v) => Array.isArray(v) && v.every(string);

const TOP: Record<string, Rule> = {
  score: number,
  execution_time: number,
  output: string,
  output_format: oneOf(OUTPUT_FORMAT),
  test_output_format: oneOf(OUTPUT_FORMAT),
  test_name_format: oneOf(OUTPUT_FORMAT),
  visibility: oneOf(VISIBILITY),
  stdout_visibility: oneOf(VISIBILITY),
  extra_data: object,
  tests: Array.isArray,
  leaderboard: Array.isArray,
};

const TEST: Record<string, Rule> = {
  score: number,
  max_score: number,
  status: oneOf(["passed", "failed"]),
  name: string,
  name_format: oneOf(OUTPUT_FORMAT),
  number: string,
  output: string,
  output_format: oneOf(OUTPUT_FORMAT),
  tags: strings,
  visibility: oneOf(VISIBILITY),
  extra_data: object,
};

function check(value: Record<string, unknown>, rules: Record<string, Rule>, where: string): string[] {
  return Object.entries(value).flatMap(([key, v]) => {
    const rule = rules[key];
    if (!rule) return [`${where}.${key} is not a documented field`];
    return rule(v) ? [] : [`${where}.${key} has the wrong type or value: ${JSON.stringify(v)}`];
  });
}

/** Every way `results` departs from the documented format; empty when it conforms. */
export function gradescopeProblems(results: unknown): string[] {
  if (!object(results)) return ["results.json is not an object"];
  const top = results as Record<string, unknown>;
  const tests = Array.isArray(top["tests"]) ? (top["tests"] as unknown[]) : [];
  const problems = check(top, TOP, "results");
  tests.forEach((test, i) => {
    if (!object(test)) problems.push(`tests[${i}] is not an object`);
    else problems.push(...check(test as Record<string, unknown>, TEST, `tests[${i}]`));
  });
  // Without a total, Gradescope adds the tests' scores: each must then have one.
  if (top["score"] === undefined && tests.some((t) => (t as Record<string, unknown>)["score"] === undefined))
    problems.push("no score: neither a total nor one per test");
  return problems;
}
