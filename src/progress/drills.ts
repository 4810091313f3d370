import { readFileSync } from "node:fs";
import { join } from "node:path";
import { labDir } from "./progress-store.js";

export const drillsFile = (workspaceDir: string) => join(labDir(workspaceDir), "drills.jsonl");

/**
 * Best passed drill time in seconds, by exercise number, or null when there is no drill history.
 * Lines that are not a drill record are skipped.
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
    let drill: { exercise?: unknown; seconds?: unknown; passed?: unknown };
    try {
      drill = JSON.parse(line) as typeof drill;
    } catch {
      continue;
    }
    const { exercise, seconds, passed } = drill ?? {};
    if (passed !== true || !Number.isInteger(exercise) || typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) continue;
    const previous = best.get(exercise as number);
    if (previous === undefined || seconds < previous) best.set(exercise as number, seconds);
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
