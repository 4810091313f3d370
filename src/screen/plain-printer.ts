import { writeLine } from "../terminal/io.js";
import type { Exercise } from "../../checker/model/exercises.js";
import { inLearnerWords } from "../report/learner-words.js";
import { describeRun } from "../report/plain-run.js";
import type { SessionEvent } from "../watch/watch-session.js";
import { SCREEN_MESSAGES as M } from "./screen-messages.js";

/** The screen's other consumer: the same events as plain lines, for pipes, CI and logs. */
export function plainPrinter(stream: NodeJS.WritableStream, exercise: Pick<Exercise, "number" | "stub">): (event: SessionEvent) => void {
  const exerciseNumber = exercise.number;
  return (event) => {
    switch (event.type) {
      case "run-started":
        writeLine(stream, M.running);
        writeLine(stream);
        return;
      case "run-finished":
        for (const line of describeRun(inLearnerWords(event.result, exercise))) writeLine(stream, line);
        return;
      case "watcher-silent":
        writeLine(stream, M.watcherSilent(exerciseNumber));
        return;
      case "file-missing":
        writeLine(stream, M.fileMissing(event.file, exerciseNumber));
        return;
      case "watch-error":
        writeLine(stream, M.watchError(event.message));
        return;
      case "run-crashed":
        writeLine(stream, M.crash(event.message));
        return;
      default:
        return;
    }
  };
}
