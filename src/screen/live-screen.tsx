import { useInput, useStdin, type Key } from "#ink";
import { useEffect, useState, useSyncExternalStore, type ReactElement } from "react";
import type { Readable } from "./store.js";

export type KeyHandler = (input: string, key: Key) => void;

export interface LiveScreenProps<S> {
  state: Readable<S>;
  /** The frame for a state; `interactive` says whether keys work (a real terminal). */
  view: (state: S, interactive: boolean) => ReactElement;
  onKey: KeyHandler;
  /** How often the frame redraws on its own (a clock); 0 turns the ticking off (tests). */
  tickMs: (state: S) => number;
  /** Whether keys are read in this state; they never are without raw mode. */
  keysOn: (state: S) => boolean;
}

function KeyInput({ onKey }: { onKey: KeyHandler }) {
  useInput(onKey);
  return null;
}

/** Redraws every `tickMs` while it is above 0. */
export function useTicker(tickMs: number): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (tickMs <= 0) return;
    const handle = setInterval(() => setTick((t) => t + 1), tickMs);
    return () => clearInterval(handle);
  }, [tickMs]);
}

/** A screen bound to its state; keys are handled only where raw mode truly works. */
export function LiveScreen<S>({ state, view, onKey, tickMs, keysOn }: LiveScreenProps<S>) {
  const now = useSyncExternalStore(state.subscribe, state.getState);
  const { isRawModeSupported } = useStdin();
  useTicker(tickMs(now));
  const interactive = isRawModeSupported === true;
  return (
    <>
      {interactive && keysOn(now) ? <KeyInput onKey={onKey} /> : null}
      {view(now, interactive)}
    </>
  );
}
