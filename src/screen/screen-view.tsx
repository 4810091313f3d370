import { Static, Text } from "#ink";
import { screenLines } from "./screen-layout.js";
import { Lines } from "./screen-lines.js";
import type { HistoryEntry, ScreenState } from "./screen-state.js";

export interface ScreenViewProps {
  state: ScreenState;
  elapsedMs: number;
  /** Whether keys work (a real terminal); the key bar is only shown then. */
  interactive: boolean;
}

/** Finished runs, one line each, written once above the live part of the screen. */
export function History({ entries }: { entries: HistoryEntry[] }) {
  return (
    <Static items={entries}>
      {(entry) => (
        <Text key={entry.id} dimColor>
          {entry.text}
        </Text>
      )}
    </Static>
  );
}

/** The live screen as a pure function of its state: finished runs above, the live run below. */
export function ScreenView({ state, elapsedMs, interactive }: ScreenViewProps) {
  return (
    <>
      <History entries={state.history} />
      <Lines lines={screenLines(state, elapsedMs, interactive)} width={state.size.columns} />
    </>
  );
}
