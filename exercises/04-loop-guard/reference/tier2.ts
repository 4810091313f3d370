/**
 * Tier 2: the loop guard as a graph node (the lab's own tests run it against the scripted provider).
 *
 * The guard sits between "tools" and "agent". After each round of tool calls it looks
 * at the calls the model just made and asks the LoopGuard about each one. Nothing
 * found: back to "agent" as usual. A first trip: the nudge goes into the shared state
 * as one more message, so the model reads it on its next turn. A second trip, or the
 * step cap: the edge after the guard goes to END, and the partial report is the last
 * message.
 *
 * The difference from tier 3 is where the nudge lands. Here it is a separate message
 * after the tool results, not the content of the tool result itself: the graph's
 * ToolNode has already written those. The model reads it either way.
 */
import { ChatAnthropic } from "@langchain/anthropic";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { Annotation, END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";

/** The LoopGuard of tier 3 (or yours), as much of it as the graph needs. */
interface Guard {
  trips: number;
  halted: boolean;
  check(tool: string, args: unknown, state: unknown, progress?: number): string | null;
}

const searchDocs = tool(async (input: { q: string }) => `0 results for "${input.q}"`, {
  name: "search_docs",
  description: "Searches the documentation.",
  schema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
});

const TOOLS = [searchDocs];

const State = Annotation.Root({
  ...MessagesAnnotation.spec,
  /** Set by the guard when the run must end; the edge after it reads this. */
  stopped: Annotation<boolean>({ reducer: (_old, next) => next, default: () => false }),
});

export function buildGraph(guard: Guard) {
  const model = new ChatAnthropic({ model: "claude-opus-5", maxTokens: 4096 }).bindTools(TOOLS);

  async function callModel(state: typeof State.State) {
    return { messages: [await model.invoke(state.messages)] };
  }

  /** Checks the calls of the latest assistant turn, with the results that follow it. */
  function guardNode(state: typeof State.State) {
    const asked = [...state.messages].reverse().find((m): m is AIMessage => m instanceof AIMessage);
    const results = state.messages.filter((m): m is ToolMessage => m instanceof ToolMessage);
    for (const call of asked?.tool_calls ?? []) {
      // The "world" here is what the tools answered: nothing else changes in this graph.
      const snapshot = results.find((r) => r.tool_call_id === call.id)?.content;
      const message = guard.check(call.name, call.args, snapshot);
      if (message === null) continue;
      if (guard.halted || guard.trips > 1) {
        return { stopped: true, messages: [new HumanMessage(`Run stopped: ${message}`)] };
      }
      return { messages: [new HumanMessage(message)] }; // the nudge, then carry on
    }
    return {};
  }

  const afterAgent = (state: typeof State.State) => {
    const last = state.messages.at(-1);
    return last instanceof AIMessage && (last.tool_calls?.length ?? 0) > 0 ? "tools" : END;
  };
  const afterGuard = (state: typeof State.State) => (state.stopped ? END : "agent");

  return new StateGraph(State)
    .addNode("agent", callModel)
    .addNode("tools", new ToolNode(TOOLS))
    .addNode("guard", guardNode)
    .addEdge(START, "agent")
    .addConditionalEdges("agent", afterAgent, ["tools", END])
    .addEdge("tools", "guard")
    .addConditionalEdges("guard", afterGuard, ["agent", END])
    .compile();
}
