/**
 * Copies flagged: a learner's file whose fingerprint is that of the reference solution, the
 * tier 3 reference, an alternative solution or another learner's file for the same exercise.
 * A flag is information for the instructor; it never changes a result or a score.
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import type { Exercise } from "../../../checker/model/exercises.js";
import type { GradeRecord } from "../record.js";
import { fingerprint } from "./fingerprint.js";

export type CopyKind = "solution" | "tier 3" | "alternative" | "learner";

export interface CopyMatch {
  kind: CopyKind;
  /** The alternative's or the learner's name; the kind alone for the solution and tier 3. */
  name: string;
}

export interface CopyFlag {
  key: string;
  learner: string;
  exercise: string;
  number: number;
  matches: CopyMatch[];
}

/** The fingerprints of what the lab ships for an exercise. */
export interface ReferencePrints {
  /** The untouched stub: learners who all handed it in copied nothing from each other. */
  stub: string | null;
  known: (CopyMatch & { print: string | null })[];
}

function printOf(file: string | undefined): string | null {
  if (file === undefined) return null;
  try {
    return fingerprint(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

export function referencePrints(exercise: Exercise): ReferencePrints {
  return {
    stub: printOf(exercise.stub),
    known: [
      { kind: "solution", name: "solution", print: printOf(exercise.solution) },
      { kind: "tier 3", name: "tier 3", print: exercise.references[3]?.endsWith(".ts") ? printOf(exercise.references[3]) : null },
      ...exercise.alternatives.map((file) => ({ kind: "alternative" as const, name: basename(file, ".ts"), print: printOf(file) })),
    ],
  };
}

/** Every record whose file matches something, in the records' order. */
export function copyFlags(records: GradeRecord[], references: Map<string, ReferencePrints>): CopyFlag[] {
  const alike = new Map<string, string[]>();
  for (const r of records) {
    const stub = references.get(r.exercise)?.stub ?? null;
    if (r.fingerprint === null || r.fingerprint === stub) continue;
    const key = `${r.exercise}\u0000${r.fingerprint}`;
    alike.set(key, [...(alike.get(key) ?? []), r.learner]);
  }
  return records.flatMap((r) => {
    const refs = references.get(r.exercise);
    if (r.fingerprint === null || r.fingerprint === refs?.stub) return [];
    const known = (refs?.known ?? []).filter((k) => k.print === r.fingerprint).map(({ kind, name }) => ({ kind, name }));
    const others = (alike.get(`${r.exercise}\u0000${r.fingerprint}`) ?? []).filter((l) => l !== r.learner).map((name) => ({ kind: "learner" as const, name }));
    const matches = [...known, ...others];
    return matches.length === 0 ? [] : [{ key: r.key, learner: r.learner, exercise: r.exercise, number: r.number, matches }];
  });
}

/** How many classmates a one-line flag names before it only counts the rest. */
export const NAMED_CLASSMATES = 3;

/** "the reference solution, alternative parallel-tools, ben, cy, dee and 4 more learners" */
export function copyText(matches: CopyMatch[]): string {
  const known = matches
    .filter((m) => m.kind !== "learner")
    .map((m) => (m.kind === "solution" ? "the reference solution" : m.kind === "tier 3" ? "the tier 3 reference" : `alternative ${m.name}`));
  const learners = matches.filter((m) => m.kind === "learner").map((m) => m.name);
  const named = learners.slice(0, NAMED_CLASSMATES);
  const rest = learners.length - named.length;
  const classmates = named.length === 0 ? [] : [`${named.join(", ")}${rest > 0 ? ` and ${rest} more ${rest === 1 ? "learner" : "learners"}` : ""}`];
  return [...known, ...classmates].join(", ");
}
