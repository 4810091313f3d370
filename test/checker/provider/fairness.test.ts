/** One large request does not stall the others: small requests are answered while it is still being worked on. */
import { describe, expect, it } from "vitest";
import { ask, MODEL, post, useProvider } from "./support.js";

const provider = useProvider();

/** About `kb` KB of words never sent before, so nothing about it is remembered. */
function freshText(kb: number, seed: number): string {
  const words: string[] = [];
  let n = seed;
  let length = 0;
  while (length < kb * 1024) {
    n = (n * 1103515245 + 12345) % 2 ** 31;
    const word = `${["plan", "tool", "cache", "retry", "guard"][n % 5]}${n % 100_003}`;
    words.push(word);
    length += word.length + 1;
  }
  return words.join(" ");
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed<T>(run: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await run();
  return [performance.now() - started, value];
}

describe("fairness", () => {
  it.each([false, true])(
    "small requests keep being answered while a 100K-token prompt gets a 100K-token reply (stream: %s)",
    async (stream) => {
      const small = () => post(provider(), "/s/echo/v1/messages", JSON.stringify(ask("small")));
      for (let i = 0; i < 5; i++) await small();
      const large = JSON.stringify({ model: MODEL, max_tokens: 100_000, stream, messages: [{ role: "user", content: freshText(400, stream ? 2 : 1) }] });

      let done = false;
      const largeRun = timed(() => post(provider(), "/s/truncated/v1/messages", large)).finally(() => (done = true));
      const during: number[] = [];
      while (!done) {
        const [ms, got] = await timed(small);
        expect(got.status).toBe(200);
        if (!done) during.push(ms);
      }
      const [largeMs, got] = await largeRun;
      expect(got.status).toBe(200);
      // Waiting their turn behind the whole large request, a small one would finish only once it is done: none
      // (or the one already in flight) would finish during it, and that one would take about all of it. How many
      // fit depends on how fast this machine counts the large one, so the count asks only for a median to exist.
      expect(during.length, "small requests answered while the large one was being worked on").toBeGreaterThanOrEqual(3);
      expect(median(during) / largeMs).toBeLessThan(0.25);
    },
    60_000,
  );
});
