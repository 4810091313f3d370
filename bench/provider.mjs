// The scripted provider's latency as a test sees it: in-process, through the real SDK, on loopback.
// Run with `npm run bench:provider` (it builds first). Prints p50/p95 per request shape, then start/close.
import Anthropic from "@anthropic-ai/sdk";
import { startProvider } from "../dist/checker/provider/index.js";

const MODEL = "claude-opus-5";

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function report(label, samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const ms = (v) => `${v.toFixed(2)} ms`.padStart(10);
  console.log(`${label.padEnd(34)} p50 ${ms(percentile(sorted, 50))}   p95 ${ms(percentile(sorted, 95))}   (${samples.length} samples)`);
}

async function measure(count, run) {
  const samples = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await run(i);
    samples.push(performance.now() - started);
  }
  return samples;
}

/** About 100 KB of varied prose, so the encoder's word cache does not make it look cheap. */
function document(kb, seed) {
  const words = ["harness", "budget", "tool", "result", "retry", "cache", "prefix", "token", "loop", "guard", "stream", "model"];
  let text = "";
  let n = seed;
  while (text.length < kb * 1024) {
    n = (n * 1103515245 + 12345) % 2 ** 31;
    text += `${words[n % words.length]}${n % 97} `;
    if (n % 13 === 0) text += "\n";
  }
  return text;
}

const provider = await startProvider();
const client = new Anthropic({ baseURL: provider.url("echo"), apiKey: "bench", maxRetries: 0 });
const small = (i) => client.messages.create({ model: MODEL, max_tokens: 256, messages: [{ role: "user", content: `hello ${i}` }] });
const big = document(100, 7);
// An agent loop resends its transcript each turn: the same 100 KB document, then a new question.
/** @type {(doc: string, i: number) => Anthropic.MessageParam[]} */
const transcript = (doc, i) => [
  { role: "user", content: doc },
  { role: "assistant", content: "I have read it." },
  { role: "user", content: `Question ${i}?` },
];
const large = (i) => client.messages.create({ model: MODEL, max_tokens: 256, messages: transcript(big, i) });
const fresh = (i) => client.messages.create({ model: MODEL, max_tokens: 256, messages: transcript(document(100, 1000 + i), i) });

await measure(50, small);
await measure(10, large);
report("small request", await measure(200, small));
report("100 KB prompt (resent)", await measure(50, large));
report("100 KB prompt (new each time)", await measure(20, fresh));
await provider.close();

const starts = [];
const closes = [];
for (let i = 0; i < 20; i++) {
  let started = performance.now();
  const p = await startProvider();
  starts.push(performance.now() - started);
  started = performance.now();
  await p.close();
  closes.push(performance.now() - started);
}
report("startProvider()", starts);
report("close()", closes);
