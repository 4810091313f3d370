import { readFileSync } from "node:fs";
import { join } from "node:path";
import { labDir } from "./progress-store.js";

export const drillsFile = (workspaceDir: string) => join(labDir(workspaceDir), "drills.jsonl");

/** The fields every line of drills.jsonl has; `lab drill` writes more (see src/drill/history.ts). */
export interface DrillLine {
  exercise: number;
  seconds: number;
  passed: boolean;
  /** The references, lesson, hints or solution were opened during the attempt. */
  peeked?: boolean;
  [field: string]: unknown;
}

/** One line of drills.jsonl as a drill record, or null when it is not one. */
export function parseDrillLine(line: string): DrillLine | null {
  let drill: unknown;
  try {
    drill = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof drill !== "object" || drill === null || Array.isArray(drill)) return null;
  const { exercise, seconds, passed, peeked } = drill as Record<string, unknown>;
  if (!Number.isInteger(exercise) || typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) return null;
  if (typeof passed !== "boolean" || (peeked !== undefined && typeof peeked !== "boolean")) return null;
  return drill as DrillLine;
}

/**
 * Best passed drill time in seconds, by exercise number, or null when there is no drill history.
 * Lines that are not a drill record are skipped, and so are peeked and pasted attempts: a time
 * set with the references open, or with code pasted in, is not a time from memory.
 */
export function bestDrillSeconds(workspaceDir: string): Map<number, number> | null {
  const best = new Map<number, number>();
  let text: string;
  try {
    text = readFileSync(drillsFile(workspaceDir), "utf8");
  } catch {
    return null;
  }
  for (const line of text.split("\n")) {
    const drill = parseDrillLine(line);
    if (!drill || !drill.passed || drill.peeked === true || drill["pasted"] === true) continue;
    const previous = best.get(drill.exercise);
    if (previous === undefined || drill.seconds < previous) best.set(drill.exercise, drill.seconds);
  }
  return best;
}

/** 7:05, or 1:02:03 for a very long drill. */
export function formatSeconds(total: number): string {
  const s = Math.round(total);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}
