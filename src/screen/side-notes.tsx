import { Box, Text } from "ink";
import { SCREEN_MESSAGES as M } from "./screen-messages.js";
import type { Pane, ScreenState } from "./screen-state.js";

/** The latest hint asked for; h shows one more each press (lab hint N repeats them all). */
export function Hints({ hints, shown, over }: { hints: string[]; shown: number; over: boolean }) {
  if (shown === 0) return null;
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text color="cyan">{M.hint(shown, hints.length, hints[shown - 1]!)}</Text>
      {over ? <Text dimColor>{M.noMoreHints}</Text> : null}
    </Box>
  );
}

/** A reference tier or the lesson, `height` lines at a time. */
export function TextPane({ pane }: { pane: Pane }) {
  const visible = pane.lines.slice(pane.offset, pane.offset + pane.height);
  const to = pane.offset + visible.length;
  return (
    <Box flexDirection="column" marginTop={1} borderStyle="single" borderColor="gray" paddingX={1}>
      <Text bold>{pane.title}</Text>
      {visible.map((line, i) => (
        <Text key={pane.offset + i} wrap="truncate-end">
          {line === "" ? " " : line}
        </Text>
      ))}
      <Text dimColor>{M.paneFooter(pane.offset + 1, to, pane.lines.length)}</Text>
    </Box>
  );
}

/** Things that need the learner's attention but are not test results. */
export function Notices({ state }: { state: ScreenState }) {
  const n = state.exercise.number;
  const lines = [
    ...state.notices,
    ...(state.watcherSilent ? [M.watcherSilent(n)] : []),
    ...(state.fileMissing ? [M.fileMissing(state.file, n)] : []),
    ...(state.watchError ? [M.watchError(state.watchError)] : []),
    ...(state.crash ? [M.crash(state.crash)] : []),
  ];
  if (lines.length === 0) return null;
  return (
    <Box flexDirection="column" marginTop={1}>
      {lines.map((line) => (
        <Text key={line} color="yellow">
          {line}
        </Text>
      ))}
    </Box>
  );
}
