import { pathToFileURL } from "node:url";

/** A path the terminal lets you click (OSC 8); terminals without the feature show the plain path. */
export function fileLink(path: string): string {
  return `\u001B]8;;${pathToFileURL(path).href}\u0007${path}\u001B]8;;\u0007`;
}
