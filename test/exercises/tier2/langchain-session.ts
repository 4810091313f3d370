/**
 * Runs a tier-2 reference (LangGraph through @langchain/anthropic) against one scenario of the
 * scripted provider. A reference builds its own ChatAnthropic and reads nothing but the
 * environment, as it would against the real API, so the session is handed over the way a
 * learner would point it elsewhere: ANTHROPIC_API_URL and ANTHROPIC_API_KEY. Each session has
 * its own key, so what crossed the wire is that run's alone.
 */
import { afterEach, vi } from "vitest";
import { useScenario, type ScenarioSession } from "../../../checker/testing/index.js";

afterEach(() => {
  vi.unstubAllEnvs();
});

/** Opens `scenario` and points every ChatAnthropic built from now on (until the test ends) at it. */
export async function langchainSession(scenario: string, options: Record<string, number> = {}): Promise<ScenarioSession> {
  const session = await useScenario(scenario, { options });
  // ChatAnthropic reads ANTHROPIC_API_URL first, then ANTHROPIC_BASE_URL: set both, so neither leaks in from the shell.
  vi.stubEnv("ANTHROPIC_API_URL", session.url);
  vi.stubEnv("ANTHROPIC_BASE_URL", session.url);
  vi.stubEnv("ANTHROPIC_API_KEY", session.apiKey);
  return session;
}
