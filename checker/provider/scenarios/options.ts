/**
 * A scenario's path options, declared next to it: `options: { faults: integer(0, 1000) }`.
 * The server checks every option of a request against the declaration before the scenario
 * runs, so a typo (`retryafter=7`) or a value out of range is a 400 naming it, never ignored.
 */
import type { OptionSpec, Scenario } from "./types.js";
import { listed } from "../../model/words.js";

export const integer = (min: number, max: number): OptionSpec => ({ type: "integer", min, max });
export const decimal = (min: number, max: number): OptionSpec => ({ type: "number", min, max });
export const flag = (): OptionSpec => ({ type: "boolean" });
/** A comma-separated list of up to `most` integers, each from min to max: out=180,150,120. */
export const integers = (min: number, max: number, most: number): OptionSpec => ({ type: "integers", min, max, most });

/** Accepted spellings of a boolean option. */
const TRUE = ["true", "1"];
const FALSE = ["false", "0"];

function expected(spec: OptionSpec): string {
  if (spec.type === "boolean") return "true or false";
  if (spec.type === "integers") return `up to ${spec.most} comma-separated integers, each from ${spec.min} to ${spec.max}`;
  return `${spec.type === "integer" ? "an integer" : "a number"} from ${spec.min} to ${spec.max}`;
}

/** At most this much of a refused value is quoted back. */
const QUOTE = 100;
const quote = (value: string) => JSON.stringify(value.length > QUOTE ? `${value.slice(0, QUOTE)}…` : value);

export const OPTION_MESSAGES = {
  unknown: (scenario: string, name: string, known: string[], everywhere: string[] = []) =>
    `Unknown option ${quote(name)} for scenario "${scenario}". ` +
    (everywhere.length === 0
      ? known.length
        ? `It takes: ${known.join(", ")}.`
        : "It takes no options."
      : `${known.length ? `It takes: ${known.join(", ")}` : "It takes none of its own"}; every scenario also takes ${listed(everywhere)}.`),
  invalid: (scenario: string, name: string, spec: OptionSpec, value: string) =>
    `Option "${name}" of scenario "${scenario}" must be ${expected(spec)}; got ${quote(value)}.`,
} as const;

/** True when `value` is one this declaration accepts. */
export function accepts(spec: OptionSpec, value: string): boolean {
  if (spec.type === "boolean") return TRUE.includes(value) || FALSE.includes(value);
  if (spec.type === "integers") {
    const items = value.split(",");
    return items.length <= spec.most && items.every((item) => accepts({ type: "integer", min: spec.min, max: spec.max }, item));
  }
  // Number("") is 0 and Number(" 7") is 7: only plain decimal notation counts.
  if (!/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(value)) return false;
  const n = Number(value);
  if (spec.type === "integer" && !Number.isInteger(n)) return false;
  return n >= spec.min && n <= spec.max;
}

/** The first problem with `options` for this scenario (which also takes the `everywhere` options), as the sentence a 400 carries, or null. */
export function optionProblem(
  scenario: Pick<Scenario, "name" | "options">,
  options: Record<string, string>,
  everywhere: Readonly<Record<string, OptionSpec>> = {},
): string | null {
  const declared = { ...everywhere, ...scenario.options };
  for (const [name, value] of Object.entries(options)) {
    const spec = Object.hasOwn(declared, name) ? declared[name] : undefined;
    if (!spec) return OPTION_MESSAGES.unknown(scenario.name, name, Object.keys(scenario.options ?? {}), Object.keys(everywhere));
    if (!accepts(spec, value)) return OPTION_MESSAGES.invalid(scenario.name, name, spec, value);
  }
  return null;
}

/** True for a well-formed declaration, so a user's scenario file can be checked when it is loaded. */
export function isOptionSpec(value: unknown): value is OptionSpec {
  const spec = value as Partial<Record<string, unknown>> | null;
  if (spec?.type === "boolean") return true;
  if (spec?.type === "integers")
    return typeof spec.most === "number" && spec.most >= 1 && typeof spec.min === "number" && typeof spec.max === "number" && spec.min <= spec.max;
  if (spec?.type !== "integer" && spec?.type !== "number") return false;
  return typeof spec.min === "number" && typeof spec.max === "number" && spec.min <= spec.max;
}

/** A boolean option's value, or the fallback when it was not given. */
export const isOn = (options: Record<string, string>, name: string, fallback = false): boolean =>
  options[name] === undefined ? fallback : TRUE.includes(options[name]!);
