/** Parts of a request the handler reads besides its body: who is asking, and where it asks to cache. */
import type { IncomingMessage } from "node:http";
import type { Breakpoint } from "./prompt-cache.js";
import type { Segment } from "./tokens.js";
import type { MessagesRequest } from "./wire.js";

export function apiKeyOf(req: IncomingMessage): string | null {
  const key = req.headers["x-api-key"];
  if (typeof key === "string" && key !== "") return key;
  const auth = req.headers["authorization"];
  const bearer = typeof auth === "string" ? /^Bearer\s+(\S+)$/i.exec(auth)?.[1] : undefined;
  return bearer ?? null;
}

/** Segment indices that carry cache_control, plus the automatic one from a top-level cache_control. */
export function breakpointsOf(request: MessagesRequest, segments: Segment[]): Breakpoint[] {
  const points: Breakpoint[] = [];
  segments.forEach((segment, index) => {
    if (segment.cacheControl) points.push({ index, ttl: segment.cacheControl.ttl ?? "5m" });
  });
  const automatic = request.cache_control;
  const last = segments.length - 1;
  if (automatic && last >= 0 && !points.some((p) => p.index === last)) points.push({ index: last, ttl: automatic.ttl ?? "5m" });
  return points;
}
