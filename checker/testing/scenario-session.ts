import type Anthropic from "#anthropic-sdk";
import type { Exchange, Provider } from "../provider/index.js";

/** What useScenario hands a hidden test: a client bound to one scenario and what that client sent. */
export interface ScenarioSession {
  /** An SDK client for the scenario; `maxRetries: 0` unless overridden. */
  client: Anthropic;
  url: string;
  apiKey: string;
  /** The scripted provider behind the session (a live session has none: reading it throws). */
  provider: Provider;
  /** Every exchange this session's API key made, in order. */
  requests(): Exchange[];
  /** The /v1/messages exchanges only: each one is a model call that was charged or failed. */
  calls(): Exchange[];
  /** The request bodies of the model calls, as the provider received them. */
  bodies(): Array<Anthropic.MessageCreateParams>;
}
