/**
 * Tier 2: the loop as a LangGraph graph (the lab's own tests run it against the scripted provider).
 *
 * The four steps of the loop become two nodes and one decision. "agent" asks the
 * model; "tools" runs whatever it asked for; after "agent" a conditional edge looks at
 * the last message and goes to "tools" when it carries tool calls, to END when it does
 * not; "tools" always leads back to "agent". That edge back is the cycle that is the agent.
 *
 * What the framework takes off your hands, and what it does not:
 * - ToolNode runs every call of a turn and writes one ToolMessage per call id;
 *   @langchain/anthropic folds consecutive ToolMessages into ONE user message on the
 *   wire, so split results cannot happen here.
 * - With handleToolErrors (on by default) a tool that throws becomes a ToolMessage
 *   holding the error text, so the run goes on and the model reads what went wrong.
 *   (This adapter sends it as plain tool_result content, without is_error.)
 * - The step cap is `recursionLimit`, counted in super-steps: each agent→tools round
 *   is two of them, so about 2 × 12 caps the run near 12 model calls. Past it, invoke
 *   throws GraphRecursionError.
 * - Nothing here checks stop_reason: a reply cut off at max_tokens has no tool calls,
 *   so the edge sends it to END as if it were an answer. callModel checks it by hand.
 * - The checkpointer stores the state after every node; the same thread_id resumes a
 *   run that crashed, instead of paying for its first 39 minutes again.
 */
import { ChatAnthropic } from "@langchain/anthropic";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { END, MemorySaver, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";

const CAPITALS: Record<string, string> = { France: "Paris", Japan: "Tokyo", Peru: "Lima" };

const getCapital = tool(
  async (input: { country: string }) => {
    const city = CAPITALS[input.country];
    if (!city) throw new Error(`no capital known for ${input.country}`);
    return city;
  },
  {
    name: "get_capital",
    description: "The capital city of a country.",
    schema: { type: "object", properties: { country: { type: "string" } }, required: ["country"] },
  },
);

const getWeather = tool(async (input: { city: string }) => `14C, rain in ${input.city}`, {
  name: "get_weather",
  description: "Current weather in a city.",
  schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
});

const TOOLS = [getCapital, getWeather];
const MAX_STEPS = 12;

export function buildAgent(baseUrl?: string) {
  const model = new ChatAnthropic({
    model: "claude-opus-5",
    maxTokens: 8192,
    ...(baseUrl ? { anthropicApiUrl: baseUrl } : {}),
  }).bindTools(TOOLS);

  async function callModel(state: typeof MessagesAnnotation.State) {
    const reply = await model.invoke(state.messages);
    if (reply.response_metadata["stop_reason"] === "max_tokens") {
      throw new Error("The reply was cut off at max_tokens; it is not an answer.");
    }
    return { messages: [reply] };
  }

  function next(state: typeof MessagesAnnotation.State) {
    const last = state.messages.at(-1);
    return last instanceof AIMessage && (last.tool_calls?.length ?? 0) > 0 ? "tools" : END;
  }

  return new StateGraph(MessagesAnnotation)
    .addNode("agent", callModel)
    .addNode("tools", new ToolNode(TOOLS))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", next, ["tools", END])
    .addEdge("tools", "agent")
    .compile({ checkpointer: new MemorySaver() });
}

export async function run(goal: string, threadId: string): Promise<string> {
  const app = buildAgent();
  const final = await app.invoke(
    { messages: [new HumanMessage(goal)] },
    { configurable: { thread_id: threadId }, recursionLimit: 2 * MAX_STEPS },
  );
  return final.messages.at(-1)?.text ?? "";
}
