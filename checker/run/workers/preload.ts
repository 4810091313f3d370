/**
 * Loaded by every spare worker process before it is needed, so the first-use costs of a
 * hidden test (the SDK, the o200k encoder, the provider, Node's fetch) are paid while the
 * learner is still typing, not after the save. No learner code runs in this thread: it runs
 * in a realm of its own (checker/realm/), where its walls are put up.
 */
import "../../provider/o200k.js";
import { ONE_FILE_ENV, WARM_UP_ENV } from "./worker-env.js";
import { warmUp } from "./warm-up.js";
import { joinChannel } from "./channel.js";
import { prepareSpareRealm } from "../../realm/host.js";
// What every hidden test's "lab:impl" imports first (see binding-plugin.ts), loaded before the save.
import "../../realm/lab-impl.js";

// The lab's channel, and its key, before anything else can run here (see channel.ts).
await joinChannel();

// A spare whose parent died has nothing to wait for. Its parent may be gone before this line
// runs, the "disconnect" already past: hence the checks after each wait below too.
const orphaned = () => process.exit(0);
process.once("disconnect", orphaned);

// A spare waits for a save anyway: real round trips warm fetch (undici loads lazily) and the
// paths a hidden test takes, here and in the realm it starts for the learner's code. A worker
// forked for a batch (self-check, grading) goes straight to work, its realm starting meanwhile.
const again = process.env[ONE_FILE_ENV] !== "1";
if (process.env[WARM_UP_ENV] === "1") await warmUp(again);
else prepareSpareRealm(null, again);

if (!process.connected) orphaned();
