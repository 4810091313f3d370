// The build's second half, after tsc: what workers load instead of slow-to-load originals
// (see checker/provider/o200k-ranks.ts and checker/run/sdk-bundle.ts).
import { writeRanksCopy } from "../dist/checker/provider/o200k-ranks.js";
import { bundleSdk, installedSdkRoot } from "../dist/checker/run/sdk-bundle.js";

writeRanksCopy();
await bundleSdk(installedSdkRoot());
