import { countCodeLinesOutside } from "./code-lines.js";
import { isImportOrType, topLevel } from "./parse-ts.js";

/**
 * The lines a drill is measured by: non-blank, non-comment lines outside imports and type
 * declarations, so the interfaces the drill file hands you do not count against the target.
 * A file that does not parse is measured as far as it does.
 */
export function drillLines(source: string): number {
  const skip = topLevel(source).body.filter(isImportOrType);
  return countCodeLinesOutside(source, skip);
}
