/** The settings a learner or instructor may put in `lab.config.ts`. */
export interface LabConfig {
  /** Folder that holds the learner's exercise files and `.lab/` progress. */
  workspace: string;
  /** Command that opens a file in the learner's editor, e.g. "code -g". */
  editor: string | null;
  /** Hard wall-clock limit for one test run, in seconds. */
  timeoutSeconds: number;
  /** Poll the file system instead of relying on native change events. */
  poll: boolean;
  /** Type-check the learner's file after each run and show its errors as a warning. */
  typeCheck: boolean;
  /** null: each exercise's own target (time: sized from its solution, see src/drill/targets.ts; lines: its exercise.json). */
  drill: { targetSeconds: number | null; targetLines: number | null };
  provider: { port: number; cacheMinTokens: number };
  /** How `lab grade --format gradescope` (and the report's scores) weigh the exercises. */
  grading: GradingConfig;
}

export interface GradingConfig {
  /** Points for an exercise, by its number ("4": 20); an exercise not listed is worth DEFAULT_WEIGHT. */
  weights: Record<string, number>;
  /** true: each hidden test earns its share of the exercise's points; false: the points go only to a fully passing exercise. */
  partialCredit: boolean;
}

/** Points an exercise is worth unless `grading.weights` says otherwise. */
export const DEFAULT_WEIGHT = 10;
/** The most points one exercise may be worth. */
export const MAX_WEIGHT = 1000;

export interface UserConfig {
  workspace?: string;
  editor?: string | null;
  timeoutSeconds?: number;
  poll?: boolean;
  typeCheck?: boolean;
  drill?: Partial<LabConfig["drill"]>;
  provider?: Partial<LabConfig["provider"]>;
  grading?: { weights?: Record<number | string, number>; partialCredit?: boolean };
}

export const DEFAULT_CONFIG: LabConfig = {
  workspace: "./workspace",
  editor: null,
  timeoutSeconds: 10,
  poll: false,
  typeCheck: true,
  drill: { targetSeconds: null, targetLines: null },
  provider: { port: 4010, cacheMinTokens: 1024 },
  grading: { weights: {}, partialCredit: true },
};

type Check = (value: unknown) => string | null;

/** The longest time limit a run may have: an hour is already far past any hidden test. */
export const MAX_TIMEOUT_SECONDS = 3600;

const positiveInteger: Check = (v) => (Number.isInteger(v) && (v as number) > 0 ? null : "must be a positive whole number");
const timeLimit: Check = (v) =>
  typeof v === "number" && Number.isFinite(v) && v > 0 && v <= MAX_TIMEOUT_SECONDS
    ? null
    : `must be a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS}`;
const port: Check = (v) => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 65535 ? null : "must be a port number from 0 to 65535");
const nonEmptyString: Check = (v) => (typeof v === "string" && v.trim() !== "" ? null : "must be a non-empty string");
const stringOrNull: Check = (v) => (v === null || nonEmptyString(v) === null ? null : "must be a command string or null");
const boolean: Check = (v) => (typeof v === "boolean" ? null : "must be true or false");
const isPoints = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= MAX_WEIGHT;
const weights: Check = (v) =>
  isPlainObject(v) && Object.entries(v).every(([key, points]) => /^[1-9]\d?$/.test(key) && isPoints(points))
    ? null
    : `must map exercise numbers to points from 0 to ${MAX_WEIGHT}, such as { 1: 10, 4: 20 }`;

const FIELDS: Record<string, Check | Record<string, Check>> = {
  workspace: nonEmptyString,
  editor: stringOrNull,
  timeoutSeconds: timeLimit,
  poll: boolean,
  typeCheck: boolean,
  drill: { targetSeconds: (v) => (v === null ? null : positiveInteger(v)), targetLines: (v) => (v === null ? null : positiveInteger(v)) },
  provider: { port, cacheMinTokens: positiveInteger },
  grading: { weights, partialCredit: boolean },
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (value === undefined) return "undefined";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Checks a user config against the schema and fills in defaults; a bad value names the field and the file. */
export function resolveConfig(user: unknown, file: string): LabConfig {
  const fail = (field: string, problem: string, value: unknown): never => {
    throw new ConfigError(`${file}: "${field}" ${problem} (got ${describe(value)}).`);
  };
  if (user === undefined || user === null) return structuredClone(DEFAULT_CONFIG);
  if (!isPlainObject(user)) fail("default export", "must be an object made with defineConfig({...})", user);
  const input = user as Record<string, unknown>;
  const out = structuredClone(DEFAULT_CONFIG) as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(input)) {
    const rule = FIELDS[key];
    if (!rule) fail(key, `is not a setting; known settings are ${Object.keys(FIELDS).join(", ")}`, value);
    if (typeof rule === "function") {
      const problem = rule(value);
      if (problem) fail(key, problem, value);
      out[key] = value;
      continue;
    }
    if (!isPlainObject(value)) fail(key, "must be an object", value);
    const nested = out[key] as Record<string, unknown>;
    for (const [sub, subValue] of Object.entries(value as Record<string, unknown>)) {
      const subRule = (rule as Record<string, Check>)[sub];
      if (!subRule)
        fail(
          `${key}.${sub}`,
          `is not a setting; known settings are ${Object.keys(rule!)
            .map((k) => `${key}.${k}`)
            .join(", ")}`,
          subValue,
        );
      const problem = subRule!(subValue);
      if (problem) fail(`${key}.${sub}`, problem, subValue);
      nested[sub] = subValue;
    }
  }
  return out as unknown as LabConfig;
}
