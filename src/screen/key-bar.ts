import { outputKeyHint } from "./results-window.js";
import { SCREEN_MESSAGES as M } from "./screen-messages.js";
import { allPassed, type ScreenState } from "./screen-state.js";

/** The keys that do something right now. */
export function keyHints(state: ScreenState): string[] {
  if (state.peekAsked !== null) return [M.peekKeys];
  if (state.pane) return ["↑↓ scroll", "esc close", "q quit"];
  const { hints, tiers } = state.exercise;
  const keys = [`h hint (${state.hintsShown}/${hints.length})`];
  if (tiers.length > 0) keys.push(`${[...tiers].sort().join(" ")} reference`);
  keys.push("l lesson", "r rerun");
  const output = outputKeyHint(state);
  if (output) keys.push(output);
  if (allPassed(state) && state.next) keys.push("n next");
  keys.push("q quit");
  return keys;
}
