/**
 * Tier 2: the budget as graph state (the lab's own tests run it against the scripted provider).
 *
 * The running total lives in the graph's state, with a reducer that ADDS what each node
 * reports instead of overwriting it: the model node returns the cost of its own call,
 * and the channel keeps the sum. A conditional edge after the model reads the sum and
 * picks the next node: "halt" at the limit, "wrapUp" once from 80 %, "tools" while the
 * model asks for tools, END when it answers.
 *
 * "halt" is a node, not an exception. The run still ends through the graph's normal
 * exit, carrying a partial report the caller can read, where an exception would hand
 * the caller a stack trace.
 *
 * One trap in the adapter: LangChain's `usage_metadata.input_tokens` is the whole
 * prompt, cache writes and reads included. Price that at the input rate and every
 * cached token is billed at full price (or twice); take the cache details out first.
 */
import { ChatAnthropic } from "@langchain/anthropic";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { Annotation, END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";

const LIMIT_USD = 2.0;
const PRICE = { in: 5e-6, out: 25e-6 }; // claude-opus-5, USD per token

const State = Annotation.Root({
  ...MessagesAnnotation.spec,
  /** Nodes return the cost of their own step; the reducer keeps the running sum. */
  spent: Annotation<number>({ reducer: (total, delta) => total + delta, default: () => 0 }),
  /** Set once the wrap-up note has been sent, so it is sent only once. */
  warned: Annotation<boolean>({ reducer: (_old, next) => next, default: () => false }),
});

function usdOf(reply: AIMessage): number {
  const usage = reply.usage_metadata;
  if (!usage) return 0;
  const write = usage.input_token_details?.cache_creation ?? 0;
  const read = usage.input_token_details?.cache_read ?? 0;
  const uncached = usage.input_tokens - write - read;
  return uncached * PRICE.in + usage.output_tokens * PRICE.out + write * PRICE.in * 1.25 + read * PRICE.in * 0.1;
}

const searchDocs = tool(async (input: { q: string }) => `3 documents match "${input.q}"`, {
  name: "search_docs",
  description: "Searches the documentation.",
  schema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
});

export function buildGraph() {
  const model = new ChatAnthropic({ model: "claude-opus-5", maxTokens: 8192 }).bindTools([searchDocs]);

  async function callModel(state: typeof State.State) {
    const reply = await model.invoke(state.messages);
    return { messages: [reply], spent: usdOf(reply) };
  }

  function budgetGate(state: typeof State.State) {
    if (state.spent >= LIMIT_USD) return "halt";
    const last = state.messages.at(-1);
    const wantsTools = last instanceof AIMessage && (last.tool_calls?.length ?? 0) > 0;
    if (!wantsTools) return END;
    return state.spent >= 0.8 * LIMIT_USD && !state.warned ? "wrapUp" : "tools";
  }

  // The note rides along with the tool results, at the END of the conversation: the
  // system prompt stays byte-identical, so the cached prefix survives.
  async function wrapUp(state: typeof State.State) {
    const results = await new ToolNode([searchDocs]).invoke({ messages: state.messages });
    const note = new HumanMessage(
      "Budget note: 80% of the budget is spent. Finish the current step, start nothing new, and list what remains.",
    );
    return { messages: [...results.messages, note], warned: true };
  }

  function halt(state: typeof State.State) {
    const report = `Stopped: spent $${state.spent.toFixed(2)} of $${LIMIT_USD.toFixed(2)}. Partial work is in the transcript above.`;
    return { messages: [new AIMessage(report)] };
  }

  return new StateGraph(State)
    .addNode("agent", callModel)
    .addNode("tools", new ToolNode([searchDocs]))
    .addNode("wrapUp", wrapUp)
    .addNode("halt", halt)
    .addEdge(START, "agent")
    .addConditionalEdges("agent", budgetGate, ["tools", "wrapUp", "halt", END])
    .addEdge("tools", "agent")
    .addEdge("wrapUp", "agent")
    .addEdge("halt", END)
    .compile();
}
