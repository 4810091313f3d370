/** Every sentence `lab grade` prints about a problem, in one place: they are interface, tested word for word. */
import { listed } from "../../checker/model/words.js";

/** Why grading could not run at all (exit code 2). */
export const GRADE_ERRORS = {
  noDir: "Say which folder to grade, e.g. lab grade ./class, or combine shards with lab grade --merge DIR....",
  dirAndMerge: "Give either a class folder to grade or --merge with the folders to combine, not both.",
  noSuchDir: (dir: string) => `There is no folder at ${dir}.`,
  notADir: (dir: string) => `${dir} is a file; lab grade takes a folder holding one folder per learner.`,
  noLearners: (dir: string) => `${dir} holds no learner folders: put one folder per learner in it, each laid out like a workspace.`,
  noExercises: "There are no exercises to grade yet.",
  badExerciseList: (value: string) => `--exercises takes exercise numbers and ranges such as 1,2,5-7 (got "${value}").`,
  noSuchExercises: (missing: number[], existing: number[]) => `There is no exercise ${listed(missing)}; the exercises are ${listed(existing)}.`,
  badJobs: (value: string) => `--jobs takes a whole number of workers from 1 to 64 (got "${value}").`,
  badTimeout: (value: string) => `--timeout takes a number of seconds greater than 0 and at most 600 (got "${value}").`,
  badMemory: (value: string) => `--memory takes a number of megabytes from 256 to 16384 (got "${value}").`,
  badFormat: (value: string) => `--format takes table, json, csv, md, junit, gradescope or html (got "${value}").`,
  gradescopeOneLearner: (count: number) =>
    `--format gradescope writes the results of one submission, but there are ${count} learners here: grade a folder holding one learner's folder (as examples/gradescope/run_autograder does), or choose another format.`,
  unknownWeights: (file: string, numbers: string[], existing: number[]) =>
    `${file}: "grading.weights" gives points to exercise ${listed(numbers)}, which ${numbers.length === 1 ? "does" : "do"} not exist; the exercises are ${listed(existing)}.`,
  badShard: (value: string) => `--shard takes i/n with 1 ≤ i ≤ n, such as 2/3 (got "${value}").`,
  mergeOnlyFlags: (flags: string[]) => `--merge combines finished results, so ${listed(flags)} cannot be used with it.`,
  nothingToMerge: (dir: string) => `There are no results to merge in ${dir}: expected ${dir}/.lab-grade/results.jsonl or ${dir}/results.jsonl.`,
  outNotWritable: (file: string, reason: string) => `Could not write ${file}: ${reason}.`,
  resultsNotWritable: (dir: string, reason: string) => `Could not save results in ${dir}: ${reason}.`,
} as const;

/** The reason a row gives when its tests could not run normally. */
export const GRADE_REASONS = {
  missing: (file: string) => `No file ${file}.`,
  notAFile: (file: string) => `${file} is not a regular file (a folder or a link), so it was not run.`,
  tooLarge: (file: string, kb: number) => `${file} is larger than ${kb} KB, so it was not run.`,
  outOfMemory: (mb: number) => `The test process ran out of memory: it used more than the ${mb} MB limit and was stopped.`,
  crashed: "The test process ended before its tests finished: the file ended or killed its own process.",
  noTests: "The hidden tests found nothing to run.",
  sandbox: "grading runs your code without writing files, starting processes or reading outside the lab",
} as const;

/** What the command says on stderr while and after it runs. */
export const GRADE_NOTES = {
  planned: (toRun: number, reused: number, recorded: number) =>
    `lab grade: ${toRun} to run, ${reused} unchanged and reused, ${recorded} recorded without running.`,
  interrupted: (saved: number, total: number, file: string) =>
    `Stopped: ${saved} of ${total} results are saved in ${file}; run the same command again to grade the rest.`,
  finished: (graded: number, reused: number, seconds: number, dir: string) =>
    `Graded ${graded} and reused ${reused} unchanged in ${seconds.toFixed(1)} s; results are in ${dir}.`,
  merged: (records: number, sources: number, dir: string) => `Merged ${records} results from ${sources} folders into ${dir}.`,
  wrote: (file: string) => `Wrote ${file}.`,
} as const;
