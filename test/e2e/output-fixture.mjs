// The live screen of the fixture exercise in a real terminal, with each test's outcome carrying
// `output` as the runner will once the learner's console is captured (the capture is the
// learner realm's work): a stand-in runner wraps the real one and adds what the learner's
// file "printed", the lines in the OUTPUT environment variable, to each failing test.
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "../..");
const fixtures = join(root, "test/fixtures/lab");
const dist = (path) => import(join(root, "dist", path));
const { loadExercises } = await dist("checker/model/exercises.js");
const { Runner } = await dist("checker/run/runner.js");
const { ProgressStore } = await dist("src/progress/progress-store.js");
const { processIo } = await dist("src/terminal/io.js");
const { importScreen } = await dist("src/screen/import-screen.js");
const { watchExercise } = await importScreen(() => dist("src/screen/watch-exercise.js"));

const [file, workspace] = process.argv.slice(2);
const exercise = loadExercises(join(fixtures, "exercises"), join(fixtures, "solutions"))[0];
const printed = `${process.env.OUTPUT ?? ""}\n`;
const withOutput = (test) => (test.state === "failed" ? { ...test, output: printed } : test);
const real = await Runner.create({ timeoutSeconds: 30 });
const runner = {
  run: (request, listener) =>
    real.run(request, (event) => {
      if (event.type === "test-finished") return listener?.({ ...event, test: withOutput(event.test) });
      if (event.type === "run-finished") return listener?.({ ...event, result: { ...event.result, tests: event.result.tests.map(withOutput) } });
      listener?.(event);
    }),
  stopRun: () => real.stopRun(),
  abort: () => real.abort(),
};
try {
  await watchExercise({ io: processIo(), exercise, file, next: null, runner, progress: new ProgressStore(workspace, () => {}), poll: false, openEditor: null });
} finally {
  await real.close();
}
