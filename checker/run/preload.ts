/**
 * Loaded by every spare worker process before it is needed, so the first-use costs of a
 * hidden test (the SDK, the o200k encoder, the provider, Node's fetch) are paid while the
 * learner is still typing, not after the save.
 */
import "gpt-tokenizer/encoding/o200k_base";
import { WARM_UP_ENV } from "./worker-env.js";
import { warmUp } from "./warm-up.js";
import { guardWorker, MEMORY_LIMIT_ENV } from "./worker-guard.js";

// Dies with its parent even when learner code blocks; checks memory when a limit is set (grading).
guardWorker(process.env[MEMORY_LIMIT_ENV]);

// A spare whose parent died has nothing to wait for.
process.once("disconnect", () => process.exit(0));

// A spare waits for a save anyway: real round trips warm fetch (undici loads lazily) and the
// paths a hidden test takes. A worker forked for a batch (self-check, grading) goes straight to work.
if (process.env[WARM_UP_ENV] === "1") await warmUp();
