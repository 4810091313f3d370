/**
 * The learner's realm runs one bundled module loaded from a data: URL, so its stack traces
 * point into that URL. This maps each such frame back to the learner's own file, line and
 * column through the bundle's source map, the way a learner's editor shows them.
 */
import { SourceMap } from "node:module";

const BUNDLE_FRAME = /data:text\/javascript;base64,[A-Za-z0-9+/=]+:(\d+):(\d+)/g;

export function stackMapper(sourceMap: string): (stack: string) => string {
  if (!sourceMap) return (stack) => stack;
  let map: SourceMap | null = null;
  return (stack) =>
    stack.replace(BUNDLE_FRAME, (frame, line: string, column: string) => {
      map ??= new SourceMap(JSON.parse(sourceMap));
      const entry = map.findEntry(Number(line) - 1, Number(column) - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number };
      if (!entry.originalSource) return frame;
      return `${entry.originalSource}:${entry.originalLine! + 1}:${entry.originalColumn! + 1}`;
    });
}
