/**
 * Token counting that takes turns. Counting a 150K-token prompt or a 128K-token reply is tens of
 * milliseconds of CPU; done in one go, every other request on the provider waits for it. These
 * versions count in chunks of a few thousand characters and let the event loop run between
 * them, so a small request is answered while a large one is still being counted. The counts are
 * exactly those of tokens.ts: a chunk ends just before a space that follows a non-space, and no
 * o200k piece (nor a long run of non-space) spans such a point.
 */
import { decode, encode } from "./o200k.js";
import { countingWalk, countPieces, knownCount, rememberCount, type PromptCount, type Segment } from "./tokens.js";

/** Characters counted between two chances for other requests to run. */
const CHUNK = 4_096;
/** The most time spent counting before others get a turn. */
const TURN_MS = 2;

/** Lets other requests run if this one has had the CPU for a turn. */
export class Turns {
  private since = performance.now();

  async take(): Promise<void> {
    if (performance.now() - this.since < TURN_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.since = performance.now();
  }
}

/** `text` in chunks of about CHUNK characters, each cut where o200k would start a new piece anyway. */
export function* chunksOf(text: string): Generator<string> {
  let start = 0;
  while (text.length - start > CHUNK) {
    let cut = text.indexOf(" ", start + CHUNK);
    while (cut > 0 && /\s/.test(text[cut - 1]!)) cut = text.indexOf(" ", cut + 1);
    if (cut < 0) break;
    yield text.slice(start, cut);
    start = cut;
  }
  yield text.slice(start);
}

async function countInTurns(text: string, turns: Turns): Promise<number> {
  let n = 0;
  for (const chunk of chunksOf(text)) {
    n += countPieces(chunk);
    await turns.take();
  }
  return n;
}

/** countText, in turns. */
export async function countTextFairly(text: string, turns = new Turns()): Promise<number> {
  if (text.length === 0) return 0;
  const hit = knownCount(text);
  if (hit !== undefined) return hit;
  const n = await countInTurns(text, turns);
  rememberCount(text, n);
  return n;
}

/** countSegments, in turns: the same counts, totals and extrapolation past `limit`. */
export async function countSegmentsFairly(segments: Segment[], limit = Infinity): Promise<PromptCount> {
  const turns = new Turns();
  const walk = countingWalk(segments, limit);
  let step = walk.next();
  while (!step.done) {
    const { text, whole } = step.value;
    step = walk.next(whole ? await countTextFairly(text, turns) : await countInTurns(text, turns));
  }
  return step.value;
}

/** The first `limit` tokens of `text` as text, encoding only as far as needed, in turns. */
export async function firstTokens(text: string, limit: number, turns = new Turns()): Promise<string> {
  let kept = "";
  let left = limit;
  for (const chunk of chunksOf(text)) {
    const tokens = encode(chunk);
    if (tokens.length >= left) return kept + decode(tokens.slice(0, left));
    kept += chunk;
    left -= tokens.length;
    await turns.take();
  }
  return kept;
}
