// The build's second half, after tsc: what workers load instead of slow-to-load originals
// (see checker/provider/o200k-table.ts, checker/run/workers/sdk-bundle.ts and src/screen/ink-bundle.ts).
import { writeTableCopy } from "../dist/checker/provider/o200k-table.js";
import { bundleSdk, installedSdkRoot } from "../dist/checker/run/workers/sdk-bundle.js";
import { bundleInk } from "../dist/src/screen/ink-bundle.js";

writeTableCopy();
await bundleSdk(installedSdkRoot());
await bundleInk();
