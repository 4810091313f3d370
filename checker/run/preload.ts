/**
 * Loaded by every spare worker process before it is needed, so the first-use costs of a
 * hidden test (the SDK, the o200k encoder, the provider, Node's fetch) are paid while the
 * learner is still typing, not after the save.
 */
import Anthropic from "@anthropic-ai/sdk";
import "gpt-tokenizer/encoding/o200k_base";
import { startProvider } from "../testing/index.js";
import { guardWorker, MEMORY_LIMIT_ENV } from "./worker-guard.js";

// Off unless the runner's caller set a memory limit in the workers' environment (grading does).
guardWorker(process.env[MEMORY_LIMIT_ENV]);

// A spare whose parent died has nothing to wait for.
process.once("disconnect", () => process.exit(0));

// One real round trip warms fetch (undici loads lazily) and the SDK's request path.
const provider = await startProvider();
try {
  await new Anthropic({ baseURL: provider.url("echo"), apiKey: "warm-up", maxRetries: 0 }).messages.create({
    model: "claude-haiku-4-5",
    max_tokens: 8,
    messages: [{ role: "user", content: "warm up" }],
  });
} finally {
  await provider.close();
}
