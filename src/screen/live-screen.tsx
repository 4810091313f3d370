import { useInput, useStdin } from "ink";
import { useEffect, useState, useSyncExternalStore } from "react";
import { commandForKey, type ScreenCommand } from "./key-map.js";
import type { ScreenStore } from "./screen-store.js";
import { ScreenView } from "./screen-view.js";

export interface LiveScreenProps {
  store: ScreenStore;
  onCommand: (command: ScreenCommand) => void;
  /** Milliseconds since the screen opened; injected so tests control the clock. */
  elapsed: () => number;
  /** How often the elapsed time is redrawn; 0 turns the clock off (tests). */
  tickMs?: number;
}

function KeyInput({ store, onCommand }: Pick<LiveScreenProps, "store" | "onCommand">) {
  useInput((input, key) => {
    const command = commandForKey(input, key, store.getState());
    if (command) onCommand(command);
  });
  return null;
}

/** Redraws every `tickMs` while it is above 0; the drill's clock ticks with it too. */
export function useTicker(tickMs: number): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (tickMs <= 0) return;
    const handle = setInterval(() => setTick((t) => t + 1), tickMs);
    return () => clearInterval(handle);
  }, [tickMs]);
}

/** The screen bound to its store; keys are handled only where raw mode truly works. */
export function LiveScreen({ store, onCommand, elapsed, tickMs = 1000 }: LiveScreenProps) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const { isRawModeSupported } = useStdin();
  useTicker(tickMs);
  const interactive = isRawModeSupported === true;
  return (
    <>
      {interactive ? <KeyInput store={store} onCommand={onCommand} /> : null}
      <ScreenView state={state} elapsedMs={elapsed()} interactive={interactive} />
    </>
  );
}
