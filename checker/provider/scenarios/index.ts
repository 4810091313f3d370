import { walkthrough } from "./accounting.js";
import { badRequest, clientErrors, dropBeforeHeaders, dropMidStream, overloaded, rateLimited, serverErrors } from "./faults.js";
import { cutToolCall, delegate, repeatDelete, repeatRead, stubborn } from "./harness.js";
import { loopCycle, loopRepeat, loopStall } from "./loops.js";
import { exactReply } from "./measured.js";
import { supportDesk } from "./support-desk.js";
import { acmeActions, acmeTriage } from "./triage.js";
import { capitalWeather, destructive, echo, growing, injection, paused, plan, recover, refusing, runaway, slowTool, truncated, weather } from "./tasks.js";
import type { Scenario } from "./types.js";

export const BUILT_IN_SCENARIOS: readonly Scenario[] = [
  echo,
  weather,
  capitalWeather,
  plan,
  recover,
  destructive,
  slowTool,
  injection,
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
  supportDesk,
  exactReply,
  walkthrough,
  repeatRead,
  repeatDelete,
  stubborn,
  delegate,
  cutToolCall,
  acmeTriage,
  acmeActions,
];

export { PLANTED_DOCUMENT, WEATHER_CITIES } from "./tasks.js";
export { padToTokens } from "./measured.js";
export { SUPPORT_RETRY_LIMIT } from "./support-desk.js";
export { tokenText, WALKTHROUGH_OUTPUT } from "./accounting.js";
export * from "./helpers.js";
export { OPTION_MESSAGES } from "./options.js";
export type * from "./types.js";
