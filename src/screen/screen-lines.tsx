/** Draws built lines (lines.ts) with Ink; the rest of the screen code never loads Ink. */
import { Box, Text } from "#ink";
import type { Line } from "./lines.js";

/** Draws lines exactly as built: one Text per line, nothing wrapped again by Ink. */
export function Lines({ lines, width }: { lines: Line[]; width: number }) {
  return (
    <Box flexDirection="column" width={width}>
      {lines.map((segments, i) => (
        <Text key={i} wrap="truncate-end">
          {segments.length === 0
            ? " "
            : segments.map((s, j) => (
                <Text key={j} color={s.color} dimColor={s.dim} bold={s.bold}>
                  {s.text}
                </Text>
              ))}
        </Text>
      ))}
    </Box>
  );
}
