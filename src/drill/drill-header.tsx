import { Box, Text } from "ink";
import { statusLine } from "../screen/header.js";
import type { ScreenState } from "../screen/screen-state.js";
import { bigText } from "./big-clock.js";
import { formatSeconds } from "../progress/drills.js";
import type { DrillTargets } from "./compare.js";
import { isGreen, type DrillState } from "./drill-state.js";
import { DRILL_MESSAGES as M } from "./messages.js";

/** The clock's colour: dim before the first save, green once stopped, yellow past the target. */
function clockColor(drill: DrillState, seconds: number, target: number): { color?: string; dim?: boolean } {
  if (drill.startedAt === null) return { dim: true };
  if (isGreen(drill)) return { color: "green" };
  return seconds > target ? { color: "yellow" } : {};
}

/** Drill and exercise, the targets, the file, the large clock and where the run stands. */
export function DrillHeader({ screen, drill, elapsedMs, targets }: { screen: ScreenState; drill: DrillState; elapsedMs: number; targets: DrillTargets }) {
  const seconds = Math.floor(elapsedMs / 1000);
  const { color, dim } = clockColor(drill, seconds, targets.seconds);
  const status = drill.startedAt === null && screen.phase !== "running" ? { text: M.clockWaits } : statusLine(screen);
  return (
    <Box flexDirection="column">
      <Box justifyContent="space-between">
        <Text bold>{M.title(drill.attempt, drill.exercise.number, drill.exercise.title)}</Text>
        <Text dimColor>{M.targets(targets.seconds, targets.lines)}</Text>
      </Box>
      <Text dimColor wrap="truncate-middle">
        {drill.file}
      </Text>
      <Box flexDirection="column" marginY={1} marginLeft={2}>
        {bigText(formatSeconds(seconds)).map((row, i) => (
          <Text key={i} color={color} dimColor={dim}>
            {row}
          </Text>
        ))}
      </Box>
      <Text color={status.color}>{status.text}</Text>
    </Box>
  );
}
