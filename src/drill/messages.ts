/** Every sentence `lab drill` says, in one place; tests assert them word for word. */
import { formatSeconds } from "../progress/drills.js";
import { TIER_NAMES } from "../screen/tier-names.js";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export const DRILL_MESSAGES = {
  fileHeader: (n: number, attempt: number) => `// lab drill ${n}, attempt ${attempt}: write it from memory. The clock started when the drill opened.`,
  created: (n: number, attempt: number, file: string) => `Drill ${attempt} of exercise ${n}: ${file}`,
  howTo: "Write it from memory in your editor. The clock runs from now and stops at the first run where every hidden test passes.",
  peekFlag: "--peek: the lesson, hints, references and solution are open, and this attempt is marked as peeked.",
  polling: "Watching by polling the file (--poll).",
  liveNotKept:
    "--live: a real model answers, and the tests only the scripted provider can stage are skipped, so this attempt is timed but not added to your drill history.",
  title: (attempt: number, n: number, title: string) => `Drill ${attempt} · exercise ${n} · ${title}`,
  targets: (seconds: number, lines: number) => `target ${formatSeconds(seconds)} · ${lines} lines`,
  linesRule: (lines: number) =>
    `Target ${lines} lines: one for each line where a statement inside your functions starts (imports, types, signatures and braces are free).`,
  confirmPeek: (what: string) => `${what} is locked during a drill: opening it marks this attempt as peeked. Press y to open it, any other key to go back.`,
  confirmGiveUp: "Give up this attempt? It is recorded as abandoned, with the time so far.",
  peekedNote: (peeks: string[]) => `Peeked: ${peeks.join(", ")}. This attempt will not count as a personal best.`,
  noSolutionFile: (file: string) => `The solution file ${file} is missing from this copy of the lab.`,
  fileMissing: (file: string, n: number) => `Your drill file ${file} is gone: save it again, or quit and run lab drill ${n} for a fresh one.`,
  watcherSilent: (n: number) => `Your saves are not reaching lab as file events (common on network and VM folders); quit and run lab drill ${n} --poll.`,

  green: (seconds: number, lines: number, runs: number, peeked: boolean) =>
    `Green in ${formatSeconds(seconds)} · ${plural(lines, "line")} · ${plural(runs, "run")} · ${peeked ? "peeked" : "no peeking"}`,
  gaveUp: (seconds: number, lines: number, runs: number, peeked: boolean) =>
    `Gave up after ${formatSeconds(seconds)} · ${plural(lines, "line")} · ${plural(runs, "run")} · ${peeked ? "peeked" : "no peeking"} · recorded as abandoned`,
  linesCounted: "Lines count where the statements inside your functions start: imports, types, top-level constants, signatures, braces and comments do not.",
  target: (time: string, lines: string) => `Target: ${time}; ${lines}.`,
  timeUnder: (target: number, spare: number) => `${formatSeconds(target)} met with ${formatSeconds(spare)} to spare`,
  timeOver: (target: number, over: number) => `${formatSeconds(target)} missed by ${formatSeconds(over)}`,
  linesUnder: (target: number, lines: number) => `${target} lines met${lines < target ? ` with ${plural(target - lines, "line")} to spare` : ""}`,
  linesOver: (target: number, over: number) => `${target} lines exceeded by ${plural(over, "line")}`,
  firstBest: (n: number) => `Your first green drill of exercise ${n} without peeking: it is your personal best.`,
  newBest: (faster: number, old: number) => `New personal best: ${formatSeconds(faster)} faster than ${formatSeconds(old)}.`,
  sameBest: (best: number) => `Equal to your personal best, ${formatSeconds(best)}.`,
  slowerThanBest: (best: number, slower: number) => `Personal best ${formatSeconds(best)}: this one was ${formatSeconds(slower)} slower.`,
  peekedNoBest: (best: number | null) => `Peeked, so it does not count as a personal best${best === null ? "" : ` (your best: ${formatSeconds(best)})`}.`,
  pastedNoBest: (best: number | null) =>
    `Pasted: green faster than its code can be typed, so it is recorded as pasted and is not a personal best${best === null ? "" : ` (your best: ${formatSeconds(best)})`}.`,
  lastFive: (count: number, list: string) => `Last ${count}: ${list}.`,
  gaveUpAt: (seconds: number) => `gave up at ${formatSeconds(seconds)}`,
  greenTime: (seconds: number, peeked: boolean, pasted = false) => `${formatSeconds(seconds)}${pasted ? " (pasted)" : peeked ? " (peeked)" : ""}`,
  versusAverage: (average: number, delta: number) =>
    delta === 0
      ? `This one took as long as the average of their green ones, ${formatSeconds(average)}.`
      : `This one was ${formatSeconds(Math.abs(delta))} ${delta < 0 ? "faster" : "slower"} than the average of their green ones, ${formatSeconds(average)}.`,
  noGreenToCompare: "None of them was green, so there is no average to compare with.",
  interviewScore: (right: number, asked: number) => `Interview: ${right} of ${asked} right.`,
  notStarted: (file: string, removed: boolean) =>
    removed
      ? `You quit before changing the drill file, so nothing was recorded and the untouched file ${file} was removed.`
      : `You quit before changing the drill file, so nothing was recorded.`,
  recordFailed: (reason: string) => `This attempt could not be added to your history: ${reason}.`,
  recorded: (file: string) => `Recorded in ${file}.`,

  question: (i: number, total: number, q: string) => `Question ${i} of ${total}: ${q}`,
  answerPrompt: "Your answer (enter to submit):",
  modelAnswer: (a: string) => `Model answer: ${a}`,
  markPrompt: "Was yours right? y yes · n no",
  interviewDone: (right: number, asked: number) => `Interview done: ${right} of ${asked} right. Press q to finish.`,

  plainOnce: (n: number, file: string) =>
    `No terminal here, so there is no clock: the hidden tests run once on your latest drill of exercise ${n}, ${file}, and nothing is added to your history.`,
  plainFresh: (n: number, file: string) =>
    `No terminal here and no drill file yet, so this one was written: ${file}. Write it from memory, then run lab drill ${n} in a terminal for a timed attempt.`,
  plainInterview: "--interview needs a terminal to ask its questions; it was ignored.",

  historyTitle: (n: number, title: string) => `Exercise ${n} · ${title}`,
  historyNone: "No drills yet: lab drill 1 starts one.",
  historyNoneFor: (n: number) => `No drills of exercise ${n} yet: lab drill ${n} starts one.`,
  trend: (spark: string, first: number, last: number) => `Trend (green times, oldest → newest): ${spark}  ${formatSeconds(first)} → ${formatSeconds(last)}`,
  trendOne: (spark: string, only: number) => `Trend (green times): ${spark}  ${formatSeconds(only)}`,
  summary: (best: number | null, target: number) =>
    `${best === null ? "No green drill without peeking or pasting yet" : `Best ${formatSeconds(best)}`} · target ${formatSeconds(target)}`,
} as const;

/** What a peek opens, as a sentence names it: "The lesson", "The tier 1 reference (pseudocode)". */
export function peekName(what: string): string {
  const tier = /^tier (\d)$/.exec(what);
  if (tier) return `The tier ${tier[1]} reference (${TIER_NAMES[Number(tier[1])]})`;
  return what === "hint" ? "The next hint" : `The ${what}`;
}

export const DRILL_KEYS = {
  locked: (tiers: number[]) =>
    `h l ${[...tiers]
      .sort()
      .map((t) => `${t} `)
      .join("")}s locked (opening one marks the attempt peeked)`,
  peekKeys: (tiers: number[]) => `h hint · l lesson${tiers.length > 0 ? ` · ${[...tiers].sort().join(" ")} reference` : ""} · s solution`,
  rerun: "r rerun",
  giveUp: "q give up (recorded)",
  quit: "q quit",
  pane: "↑↓ scroll · esc close · q quit",
  confirm: "y open it · any other key: back",
  confirmGiveUp: "y give up · any other key: keep going",
  typing: "enter submit · ctrl-c quit",
  judging: "y right · n wrong · q quit",
} as const;
