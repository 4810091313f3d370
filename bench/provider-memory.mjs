// The provider's heap under a long run: 10,000 requests of 100 KB each (an agent transcript
// resent turn after turn, a new document every 10th request), against the provider as
// `lab provider` starts it. Prints the heap after a full GC every 1,000 requests and fails
// (exit 1) if the last is more than twice the first. Run with `npm run bench:provider-memory`.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { startProvider } from "../dist/checker/provider/index.js";
import { PROVIDER_COMMAND_KEEP } from "../dist/src/commands/provider.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc");
const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
};

const TOTAL = Number(process.env.REQUESTS ?? 10_000);
const CLIENTS = 4;

/** About 100 KB of words, different for every seed. */
function document(seed) {
  const words = [];
  let n = seed;
  let length = 0;
  while (length < 100 * 1024) {
    n = (n * 1103515245 + 12345) % 2 ** 31;
    const word = ["tool", "result", "budget", "cache", "retry", "guard", "loop"][n % 7] + (n % 9973);
    words.push(word);
    length += word.length + 1;
  }
  return words.join(" ");
}

const provider = await startProvider({ keep: PROVIDER_COMMAND_KEEP });
const url = `${provider.origin}/s/echo/v1/messages`;
const headers = { "x-api-key": "bench", "anthropic-version": "2023-06-01", "content-type": "application/json" };
let doc = document(0);
let docSeed = 0;

async function send(i) {
  if (Math.floor(i / 10) !== docSeed) {
    docSeed = Math.floor(i / 10);
    doc = document(docSeed);
  }
  const body = JSON.stringify({
    model: "claude-opus-5",
    max_tokens: 64,
    messages: [
      { role: "user", content: doc },
      { role: "assistant", content: "I have read it." },
      { role: "user", content: `Question ${i}?` },
    ],
  });
  const response = await fetch(url, { method: "POST", headers, body });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`request ${i}: status ${response.status}`);
}

await send(-1);
const start = heapMb();
console.log(`heap after GC at the start (one request served): ${start.toFixed(1)} MB`);
const started = performance.now();
let next = 0;
let reported = 0;
const readings = [];
await Promise.all(
  Array.from({ length: CLIENTS }, async () => {
    while (next < TOTAL) {
      await send(next++);
      if (next - reported >= 1_000) {
        reported = next;
        const mb = heapMb();
        readings.push(mb);
        console.log(`after ${String(next).padStart(6)} requests: ${mb.toFixed(1)} MB`);
      }
    }
  }),
);
const end = heapMb();
await provider.close();
const seconds = (performance.now() - started) / 1000;
console.log(`heap after GC at the end: ${end.toFixed(1)} MB (${(end / start).toFixed(2)}× the start; peak reading ${Math.max(...readings).toFixed(1)} MB)`);
console.log(`${TOTAL} requests of ${(Buffer.byteLength(doc) / 1024).toFixed(0)} KB in ${seconds.toFixed(1)} s`);
if (end > 2 * start) {
  console.log("FAIL: the heap grew past twice its size at the start");
  process.exit(1);
}
