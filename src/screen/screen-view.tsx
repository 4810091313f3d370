import { Box, Static, Text } from "ink";
import { Header } from "./header.js";
import { KeyBar } from "./key-bar.js";
import { RunOutcome } from "./run-outcome.js";
import type { ScreenState } from "./screen-state.js";
import { Hints, Notices, TextPane } from "./side-notes.js";
import { TestRows } from "./test-rows.js";

export interface ScreenViewProps {
  state: ScreenState;
  elapsedMs: number;
  /** Whether keys work (a real terminal); the key bar is only shown then. */
  interactive: boolean;
}

/** The live screen as a pure function of its state: finished runs above, the live run below. */
export function ScreenView({ state, elapsedMs, interactive }: ScreenViewProps) {
  return (
    <>
      <Static items={state.history}>
        {(entry) => (
          <Text key={entry.id} dimColor>
            {entry.text}
          </Text>
        )}
      </Static>
      <Box flexDirection="column">
        <Header state={state} elapsedMs={elapsedMs} />
        {/* With a pane open the rows give way, so the whole frame still fits the terminal. */}
        {state.pane ? null : <TestRows rows={state.rows} />}
        {state.pane ? null : <RunOutcome state={state} />}
        <Notices state={state} />
        <Hints hints={state.exercise.hints} shown={state.hintsShown} over={state.hintsOver} />
        {state.pane ? <TextPane pane={state.pane} /> : null}
        <Box marginTop={1}>
          <KeyBar state={state} interactive={interactive} />
        </Box>
      </Box>
    </>
  );
}
