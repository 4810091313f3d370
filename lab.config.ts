import { defineConfig } from "harness-lab";

// Your settings for `lab`. Every field is optional; delete one to get its default.
export default defineConfig({
  // Where your exercise files and progress live.
  workspace: "./workspace",
  // Set to a command such as "code -g" to open each exercise in your editor.
  editor: null,
  // A test run that takes longer than this is stopped and reported.
  timeoutSeconds: 10,
  // Type errors in your file are shown beside the test results (never instead of them).
  typeCheck: true,
  // targetLines is each exercise's own unless you set one here for all of them.
  drill: { targetSeconds: 600 },
  provider: { port: 4010, cacheMinTokens: 1024 },
});
