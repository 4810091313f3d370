import { Box, Text } from "ink";
import { formatSeconds } from "../progress/drills.js";
import { SCREEN_MESSAGES as M } from "./screen-messages.js";
import { runSummary, type ScreenState } from "./screen-state.js";

/** Where the run stands, in a few words and a colour; the drill's header says the same. */
export function statusLine(state: ScreenState): { text: string; color?: string } {
  if (state.phase === "waiting") return { text: M.waiting };
  if (state.phase === "running") return { text: state.queued ? M.queued : M.running, color: "yellow" };
  if (!state.last) return { text: "" };
  return { text: `Run ${state.runs}: ${runSummary(state.last)}`, color: state.last.status === "passed" ? "green" : "red" };
}

/** Exercise number and title, the time since the screen opened, and where the run stands. */
export function Header({ state, elapsedMs }: { state: ScreenState; elapsedMs: number }) {
  const status = statusLine(state);
  return (
    <Box flexDirection="column">
      <Box justifyContent="space-between">
        <Text bold>{`Exercise ${state.exercise.number} · ${state.exercise.title}`}</Text>
        <Text dimColor>{formatSeconds(elapsedMs / 1000)}</Text>
      </Box>
      <Text dimColor wrap="truncate-middle">
        {state.file}
      </Text>
      <Text color={status.color}>{status.text}</Text>
    </Box>
  );
}
