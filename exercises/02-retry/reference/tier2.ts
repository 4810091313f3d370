/**
 * Tier 2: retry as a LangGraph node policy (the lab's own tests run it against the scripted provider).
 *
 * In LangGraph you do not write the retry loop: you attach a RetryPolicy to the node
 * that calls the model, and the runtime re-runs that node when it throws. What you buy
 * is the place the retry happens: only the failed node runs again, from the state the
 * checkpointer saved before it, not the whole graph from the top. A generic wrapper
 * around `app.invoke` cannot give you that.
 *
 * Read the policy with the chapter's questions in mind, because its defaults answer
 * some of them differently:
 * - Intervals are in milliseconds, not seconds.
 * - `jitter: true` adds up to one second, whatever the wait; it is not proportional.
 * - The runtime never reads retry-after. A 429 that asks for 7 s gets the doubling.
 * - Without `retryOn`, anything without a 4xx status is retried, a TypeError in your
 *   own node code included. The classifier below narrows it to the three transient
 *   kinds and lets everything else fail at once.
 * - The chat model retries on its own as well (LangChain's caller allows 6 extra tries
 *   unless told otherwise). Layers multiply: 5 node attempts × 7 = 35 requests for
 *   one call. Keep one layer; `maxRetries: 0` below turns the inner one off.
 */
import { ChatAnthropic } from "@langchain/anthropic";
import { END, MessagesAnnotation, START, StateGraph, type RetryPolicy } from "@langchain/langgraph";

/**
 * The same three kinds the SDK version retries; a 400 or a bug fails at once.
 * @langchain/anthropic ships its own copy of the SDK, so `instanceof` against the
 * classes you import would never match its errors: read the status and the name.
 */
function transient(error: unknown): boolean {
  const { status, name } = (error ?? {}) as { status?: unknown; name?: unknown };
  if (name === "APIConnectionError" || name === "APIConnectionTimeoutError") return true;
  return status === 429 || (typeof status === "number" && status >= 500);
}

const policy: RetryPolicy = {
  maxAttempts: 5,
  initialInterval: 1_000, // ms: 1 s, then 2, 4, 8
  backoffFactor: 2,
  maxInterval: 60_000, // the cap
  jitter: true,
  retryOn: transient,
};

export function buildGraph() {
  const model = new ChatAnthropic({ model: "claude-opus-5", maxTokens: 8192, maxRetries: 0 });

  async function callModel(state: typeof MessagesAnnotation.State) {
    return { messages: [await model.invoke(state.messages)] };
  }

  return new StateGraph(MessagesAnnotation)
    .addNode("agent", callModel, { retryPolicy: policy })
    .addEdge(START, "agent")
    .addEdge("agent", END)
    .compile();
}
