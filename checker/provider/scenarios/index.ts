import { badRequest, clientErrors, dropBeforeHeaders, dropMidStream, overloaded, rateLimited, serverErrors } from "./faults.js";
import { loopCycle, loopRepeat, loopStall } from "./loops.js";
import { capitalWeather, echo, growing, paused, refusing, runaway, truncated, weather } from "./tasks.js";
import { exerciseScenarios } from "./discover.js";
import type { Scenario } from "./types.js";

/** The scenarios the engine keeps: the ones several exercises use. An exercise's own come from its folder (see discover.ts). */
export const BUILT_IN_SCENARIOS: readonly Scenario[] = [
  echo,
  weather,
  capitalWeather,
  runaway,
  growing,
  loopRepeat,
  loopCycle,
  loopStall,
  refusing,
  truncated,
  paused,
  rateLimited,
  overloaded,
  serverErrors,
  badRequest,
  clientErrors,
  dropBeforeHeaders,
  dropMidStream,
];

/** The engine's scenarios and every exercise's own (see discover.ts). */
export async function allScenarios(): Promise<Scenario[]> {
  return [...BUILT_IN_SCENARIOS, ...(await exerciseScenarios(BUILT_IN_SCENARIOS))];
}

export { WEATHER_CITIES } from "./tasks.js";
export * from "./helpers.js";
export { OPTION_MESSAGES } from "./options.js";
export type * from "./types.js";
