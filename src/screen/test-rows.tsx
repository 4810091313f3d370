import { Box, Text } from "ink";
import type { Row, RowState } from "./screen-state.js";

const MARKS: Record<RowState, { mark: string; color?: string; dim?: boolean }> = {
  pending: { mark: "○", dim: true },
  running: { mark: "●", color: "yellow" },
  passed: { mark: "✔", color: "green" },
  failed: { mark: "✘", color: "red" },
  "not-run": { mark: "–", dim: true },
  skipped: { mark: "↓", dim: true },
};

/** One line per hidden test, marked pending, running, passed or failed. */
export function TestRows({ rows }: { rows: Row[] }) {
  if (rows.length === 0) return null;
  return (
    <Box flexDirection="column" marginTop={1}>
      {rows.map((row) => {
        const { mark, color, dim } = MARKS[row.state];
        return (
          <Text key={row.name} wrap="truncate-end">
            {"  "}
            <Text color={color} dimColor={dim}>
              {mark}
            </Text>{" "}
            <Text dimColor={row.state === "pending" || row.state === "not-run"}>{row.name}</Text>
            {row.state === "passed" && row.ms !== undefined ? <Text dimColor>{` ${Math.round(row.ms)} ms`}</Text> : null}
          </Text>
        );
      })}
    </Box>
  );
}
