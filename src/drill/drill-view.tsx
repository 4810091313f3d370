import { Box, Static, Text } from "ink";
import type { ScreenState } from "../screen/screen-state.js";
import { Hints, Notices, TextPane } from "../screen/side-notes.js";
import { TestRows } from "../screen/test-rows.js";
import type { DrillTargets } from "./compare.js";
import { DrillHeader } from "./drill-header.js";
import { DrillKeyBar, DrillOutcome, InterviewPanel, PeekNote } from "./drill-panels.js";
import { elapsedMs, type DrillState } from "./drill-state.js";
import type { DrillRecord } from "./history.js";

export interface DrillViewProps {
  screen: ScreenState;
  drill: DrillState;
  /** Now, on the drill's clock. */
  nowMs: number;
  /** Whether keys work (a real terminal); the key bar is only shown then. */
  interactive: boolean;
  /** This exercise's earlier attempts, oldest first. */
  previous: DrillRecord[];
  targets: DrillTargets;
}

/** The drill as a pure function of its two states: finished runs above, the clock and the live run below. */
export function DrillView({ screen, drill, nowMs, interactive, previous, targets }: DrillViewProps) {
  const finished = (
    <Static items={screen.history}>
      {(entry) => (
        <Text key={entry.id} dimColor>
          {entry.text}
        </Text>
      )}
    </Static>
  );
  if (drill.closed) return finished;
  const pane = screen.pane;
  return (
    <>
      {finished}
      <Box flexDirection="column">
        <DrillHeader screen={screen} drill={drill} elapsedMs={elapsedMs(drill, nowMs)} targets={targets} />
        {pane ? null : <TestRows rows={screen.rows} />}
        {pane ? null : <DrillOutcome screen={screen} drill={drill} previous={previous} targets={targets} />}
        <InterviewPanel drill={drill} />
        <Notices state={screen} />
        <Hints hints={screen.exercise.hints} shown={screen.hintsShown} over={screen.hintsOver} />
        <PeekNote drill={drill} />
        {pane ? <TextPane pane={pane} /> : null}
        <Box marginTop={1}>
          <DrillKeyBar screen={screen} drill={drill} interactive={interactive} />
        </Box>
      </Box>
    </>
  );
}
