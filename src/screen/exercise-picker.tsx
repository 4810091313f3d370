import { Box, Text, useApp, useInput, useStdin } from "#ink";
import { useRef, useState } from "react";
import { formatSeconds } from "../progress/drills.js";
import type { ExerciseTable } from "../progress/exercise-table.js";
import type { ExerciseStatus } from "../progress/status.js";
import { nextExercise } from "../progress/status.js";

const STATUS_COLORS: Record<ExerciseStatus, string | undefined> = { untouched: undefined, started: "yellow", passing: "green", done: "green" };

export const PICKER_KEYS = "↑↓ choose · enter start · q quit";

export interface ExercisePickerProps {
  table: ExerciseTable;
  onChoose: (exerciseNumber: number | null) => void;
}

/** The exercise list in a terminal: arrows move, enter starts the highlighted exercise. */
export function ExercisePicker({ table, onChoose }: ExercisePickerProps) {
  const { rows, hasDrills } = table;
  const suggested = nextExercise(rows);
  const [selected, setSelected] = useState(Math.max(0, suggested ? rows.indexOf(suggested) : 0));
  // Keys read the selection from a ref: a fast "down, enter" must start the row it moved to.
  const current = useRef(selected);
  const move = (by: number) => {
    current.current = Math.max(0, Math.min(rows.length - 1, current.current + by));
    setSelected(current.current);
  };
  const { exit } = useApp();
  const { isRawModeSupported } = useStdin();
  const choose = (n: number | null) => {
    onChoose(n);
    exit();
  };
  useInput(
    (input, key) => {
      if (key.upArrow || input === "k") move(-1);
      else if (key.downArrow || input === "j") move(1);
      else if (key.return && rows[current.current]) choose(rows[current.current]!.exercise.number);
      else if (input === "q" || key.escape || (key.ctrl && input === "c")) choose(null);
    },
    { isActive: isRawModeSupported === true },
  );
  const titleWidth = Math.max(...rows.map((r) => r.exercise.title.length));
  return (
    <Box flexDirection="column">
      {rows.map((row, i) => (
        <Text key={row.exercise.id} inverse={i === selected} wrap="truncate-end">
          {`${i === selected ? "›" : " "} ${String(row.exercise.number).padStart(2)}  ${row.exercise.title.padEnd(titleWidth)}  `}
          <Text color={STATUS_COLORS[row.status]}>{row.status.padEnd(9)}</Text>
          {hasDrills ? `  ${(row.bestDrill === null ? "" : formatSeconds(row.bestDrill)).padStart(7)}` : ""}
          {`  ${row.nextStep}`}
        </Text>
      ))}
      <Box marginTop={1}>
        <Text dimColor>{PICKER_KEYS}</Text>
      </Box>
    </Box>
  );
}
