/** The parts of the live screen as lines fitted to a width; the drill screen shares most of them. */
import type { FileError, RunResult, TestOutcome } from "../../checker/model/result.js";
import { formatSeconds } from "../progress/drills.js";
import { bugToTell, FAILURE_WORDS, failureWords, firstLines, insteadLabel } from "../report/failure-words.js";
import { line, styled, type Line, type Style } from "./lines.js";
import { SCREEN_MESSAGES as M } from "./screen-messages.js";
import { paneWidth, runSummary, skippedCount, type Pane, type Row, type RowState, type ScreenState } from "./screen-state.js";
import { wrapCodeLine, wrapLine, wrapText } from "./wrap.js";

/** Where the run stands, in a few words and a colour; the drill's header says the same. */
export function statusLine(state: ScreenState): { text: string; color?: string } {
  const status = runStatus(state);
  return state.live ? { ...status, text: status.text ? `${status.text} · ${state.live}` : state.live } : status;
}

function runStatus(state: ScreenState): { text: string; color?: string } {
  if (state.phase === "waiting") return { text: M.waiting };
  if (state.phase === "running") return { text: state.stopping ? M.stoppedForSave : state.queued ? M.queued : M.running, color: "yellow" };
  if (!state.last) return { text: "" };
  return { text: `Run ${state.runs}: ${runSummary(state.last)}`, color: state.last.status === "passed" ? "green" : "red" };
}

/** A title on the left and a short note (the clock) on the right of the first line. */
export function titleLines(title: string, right: string, width: number): Line[] {
  const room = Math.max(10, width - right.length - 1);
  const lines = wrapLine(title, room);
  const first = lines[0]!;
  const pad = Math.max(1, width - first.length - right.length);
  return [[{ text: first, bold: true }, { text: " ".repeat(pad) }, { text: right, dim: true }], ...lines.slice(1).map((l) => line(l, { bold: true }))];
}

/** Exercise number and title, the time since the screen opened, the file and where the run stands. */
export function headerLines(state: ScreenState, elapsedMs: number, width: number): Line[] {
  const status = statusLine(state);
  return [
    ...titleLines(`Exercise ${state.exercise.number} · ${state.exercise.title}`, formatSeconds(elapsedMs / 1000), width),
    ...styled(wrapCodeLine(state.file, width), { dim: true }),
    ...styled(wrapLine(status.text, width), { color: status.color }),
  ];
}

export const MARKS: Record<RowState, { mark: string; color?: string; dim?: boolean }> = {
  pending: { mark: "○", dim: true },
  running: { mark: "●", color: "yellow" },
  passed: { mark: "✔", color: "green" },
  failed: { mark: "✘", color: "red" },
  "not-run": { mark: "–", dim: true },
  skipped: { mark: "↓", dim: true },
};

/** One hidden test, its whole name wrapped under itself (the bug id at its end included). */
export function rowLines(row: Row, width: number): Line[] {
  const { mark, color, dim } = MARKS[row.state];
  const nameDim = row.state === "pending" || row.state === "not-run";
  const lines: Line[] = wrapLine(row.name, width, "    ").map((text, i) => [
    ...(i === 0 ? [{ text: "  " }, { text: mark, color, dim }, { text: " " }] : [{ text: "    " }]),
    { text: text.slice(4), dim: nameDim },
  ]);
  if (row.state !== "passed" || row.ms === undefined) return lines;
  const ms = ` ${Math.round(row.ms)} ms`;
  const last = lines.at(-1)!;
  const used = last.reduce((n, s) => n + [...s.text].length, 0);
  if (used + ms.length <= width) last.push({ text: ms, dim: true });
  else lines.push([{ text: `    ${ms.trim()}`, dim: true }]);
  return lines;
}

/** A value the test compared, as code: kept as it is, broken at the width. */
const valueLines = (label: string, value: string, style: Style, width: number) =>
  styled(
    firstLines(`${label}: ${value}`, 8)
      .split("\n")
      .flatMap((l) => wrapCodeLine(`  ${l}`, width)),
    style,
  );

/** A message's lines after a label, hanging under it; `count` lines of it at most. */
const labelled = (label: string, text: string, count: number, width: number) =>
  firstLines(text, count)
    .split("\n")
    .flatMap((l, i) => (i === 0 ? wrapLine(`${label} ${l}`, width, "  ", "    ") : wrapText(l, width, "    ")));

/** What the failure says under the test's sentence: the assertion's own sentence, then what it found instead. */
function failureSaid(message: string, width: number): Line[] {
  const words = failureWords(message);
  if (words.other !== null) return styled(wrapText(firstLines(words.other, 6), width, "  "));
  const instead = words.instead === null ? null : insteadLabel(words.instead);
  return [
    ...(words.checked !== null ? styled(labelled(FAILURE_WORDS.checked, words.checked, 2, width)) : []),
    ...(instead !== null ? styled(labelled(instead.label, instead.text, 5, width)) : []),
  ];
}

/** The failing test's sentence, what it found instead, expected vs received, and the bug it points at. */
export function failureLines(test: TestOutcome, width: number): Line[] {
  const failure = test.failure;
  const bug = bugToTell(test);
  return [
    ...styled(wrapLine(M.firstFailure(test.name), width), { color: "red", bold: true }),
    ...(failure ? failureSaid(failure.message, width) : []),
    ...(failure?.expected !== undefined ? valueLines("expected", failure.expected, { color: "green" }, width) : []),
    ...(failure?.received !== undefined ? valueLines("received", failure.received, { color: "red" }, width) : []),
    ...(bug ? styled(wrapLine(M.guards(bug.id, bug.summary), width, "  "), { color: "yellow" }) : []),
  ];
}

/** The code line around `column`, as much as fits in `room` characters, and where the caret goes in it. */
function codeWindow(code: string, column: number, room: number): { text: string; caret: number } {
  if (code.length <= room) return { text: code, caret: column - 1 };
  const start = Math.max(0, Math.min(column - 1 - Math.floor(room / 2), code.length - room));
  return { text: code.slice(start, start + room), caret: column - 1 - start };
}

/** A syntax error as file:line:col with the code line and a caret; a timeout said plainly. */
export function fileErrorLines(error: FileError, width: number): Line[] {
  const out = styled(wrapLine(error.message, width), { color: error.kind === "timeout" ? "yellow" : "red", bold: true });
  if (error.codeLine !== undefined && error.line !== undefined) {
    const gutter = String(error.line);
    const room = Math.max(10, width - gutter.length - 5);
    const { text, caret } = codeWindow(error.codeLine, error.column ?? 1, room);
    out.push(line(`  ${gutter} | ${text}`));
    if (error.column !== undefined) out.push(line(`  ${" ".repeat(gutter.length)} | ${" ".repeat(Math.max(0, caret))}^`, { color: "red" }));
  }
  if (error.kind === "timeout") out.push(...styled(wrapLine(M.timeoutAfter, width), { dim: true }));
  return out;
}

function allPassedLines(result: RunResult, state: ScreenState, width: number): Line[] {
  const n = state.exercise.number;
  const skipped = skippedCount(result);
  if (skipped > 0) return styled(wrapLine(`✔ ${M.ranPassed(result.total - skipped, skipped)}`, width, "", "  "), { color: "green" });
  return [
    ...styled(wrapLine(`✔ ${M.allPassed(result.total, n)}`, width, "", "  "), { color: "green", bold: true }),
    ...styled(wrapLine(M.compare(n), width, "  ")),
    ...styled(wrapLine(state.next ? M.next(state.next.number, state.next.title) : M.last, width, "  ")),
  ];
}

/** The first test that did not pass in a finished run. */
export const firstFailing = (result: RunResult) => result.tests.find((t) => t.state === "failed" || t.state === "not-run");

/** Before the outcome: a label when it belongs to the run before the one in flight. */
export const staleLines = (state: ScreenState, width: number): Line[] =>
  state.phase === "running" ? styled(wrapLine(M.staleLabel, width), { dim: true }) : [];

/** What the last finished run means: all green, a file error, or the first failure explained. */
export function outcomeLines(state: ScreenState, width: number): Line[] {
  const result = state.last;
  if (!result) return [];
  const failing = firstFailing(result);
  const body = result.error
    ? fileErrorLines(result.error, width)
    : result.status === "passed"
      ? allPassedLines(result, state, width)
      : failing
        ? failureLines(failing, width)
        : [];
  return body.length === 0 ? [] : [...staleLines(state, width), ...body];
}

/** Things that need the learner's attention but are not test results. */
export function noticeLines(state: ScreenState, width: number): Line[] {
  const n = state.exercise.number;
  const texts = [
    ...(state.peekAsked !== null ? [M.peekAsk(state.peekAsked, n)] : []),
    ...state.notices,
    ...(state.watcherSilent ? [M.watcherSilent(n)] : []),
    ...(state.fileMissing ? [M.fileMissing(state.file, n)] : []),
    ...(state.watchError ? [M.watchError(state.watchError)] : []),
    ...(state.crash ? [M.crash(state.crash)] : []),
  ];
  return texts.flatMap((text) => styled(wrapLine(text, width), { color: "yellow" }));
}

/** How many type errors the screen lists; the rest are counted. */
export const TYPE_ERRORS_SHOWN = 3;

/** The type checker's errors for the tested file: a yellow warning, a few of them, never the verdict. */
export function typeErrorLines(state: ScreenState, width: number): Line[] {
  const errors = state.typeErrors;
  // A file that does not parse has only that to say: the type checker's word on it repeats the syntax error.
  if (errors.length === 0 || state.last?.error?.kind === "syntax") return [];
  const shown = errors.slice(0, TYPE_ERRORS_SHOWN);
  return [
    ...styled(wrapLine(M.typeErrors(errors.length), width), { color: "yellow" }),
    ...shown.flatMap((e) => styled(wrapLine(M.typeError(e.line, e.column, e.message), width, "  ", "    "))),
    ...(errors.length > shown.length ? styled(wrapLine(M.moreTypeErrors(errors.length - shown.length), width, "  "), { dim: true }) : []),
  ];
}

/** The latest hint asked for; h shows one more each press (lab hint N repeats them all). */
export function hintLines(state: ScreenState, width: number): Line[] {
  const { hintsShown: shown, hintsOver: over } = state;
  const hints = state.exercise.hints;
  if (shown === 0) return [];
  return [
    ...styled(wrapLine(M.hint(shown, hints.length, hints[shown - 1]!), width), { color: "cyan" }),
    ...(over ? styled(wrapLine(M.noMoreHints, width), { dim: true }) : []),
  ];
}

/** Lines a pane needs around its text: its border, title and footer. */
export const paneChrome = (pane: Pane, width: number) => 3 + wrapLine(pane.title, paneWidth(width)).length;

const boxed = (text: string, inner: number, style: Style = {}): Line => [
  { text: "│ ", dim: true },
  { text, ...style },
  { text: `${" ".repeat(Math.max(0, inner - [...text].length))} │`, dim: true },
];

/** A reference tier or the lesson in a box, `rows` lines of it from its offset on. */
export function paneLines(pane: Pane, width: number, rows: number): Line[] {
  const inner = paneWidth(width);
  const offset = Math.max(0, Math.min(pane.offset, pane.lines.length - rows));
  const visible = pane.lines.slice(offset, offset + rows);
  const rule = "─".repeat(inner + 2);
  return [
    line(`┌${rule}┐`, { dim: true }),
    ...wrapLine(pane.title, inner).map((t) => boxed(t, inner, { bold: true })),
    ...visible.map((t) => boxed(t, inner)),
    boxed(M.paneFooter(offset + 1, offset + visible.length, pane.lines.length).slice(0, inner), inner, { dim: true }),
    line(`└${rule}┘`, { dim: true }),
  ];
}

/** The keys that do something now, as dim lines broken between keys, never inside one. */
export function keyLines(keys: string[], width: number): Line[] {
  const texts: string[] = [];
  for (const key of keys) {
    const last = texts.at(-1);
    if (last !== undefined && [...last].length + 3 + [...key].length <= width) texts[texts.length - 1] = `${last} · ${key}`;
    else texts.push(...wrapLine(key, width));
  }
  return styled(texts, { dim: true });
}
