/**
 * Loaded by every spare worker process before it is needed, so the first-use costs of a
 * hidden test (the SDK, the o200k encoder, the provider, Node's fetch) are paid while the
 * learner is still typing, not after the save.
 */
import "gpt-tokenizer/encoding/o200k_base";
import { warmUp } from "./warm-up.js";
import { guardWorker, MEMORY_LIMIT_ENV } from "./worker-guard.js";

// Off unless the runner's caller set a memory limit in the workers' environment (grading does).
guardWorker(process.env[MEMORY_LIMIT_ENV]);

// A spare whose parent died has nothing to wait for.
process.once("disconnect", () => process.exit(0));

// Real round trips warm fetch (undici loads lazily) and the paths a hidden test takes.
await warmUp();
