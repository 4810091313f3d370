/**
 * Tier 2: offloading in a LangGraph graph (the lab's own tests run it against the scripted provider).
 *
 * Offloading belongs in the tool step, not in each tool. Here the "tools" node runs the
 * prebuilt ToolNode and then passes every ToolMessage it produced through the Offloader,
 * so a tool someone adds next month is offloaded without anyone remembering to. The model
 * also gets read_artifact, a tool like any other, whose body is the Offloader's `read`:
 * containment is enforced there, whatever the model was talked into asking for.
 *
 * What the framework does not do for you:
 * - Nothing in LangGraph limits the size of a ToolMessage; a 40,000-character result goes
 *   into the state, the checkpoint and every later prompt unless this node shrinks it.
 * - The checkpointer stores the pointer, not the dump, so resumed threads stay small too;
 *   the artifact files must outlive the thread for read_artifact to keep working.
 * - read_artifact is offloaded like any other tool: keep its window (at most 500 lines) under
 *   the threshold's worth of text, or raise the threshold for it, or a re-read comes back as
 *   yet another pointer.
 */
import { ChatAnthropic } from "@langchain/anthropic";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { Offloader, READ_ARTIFACT_TOOL } from "./tier3.js";

const OFFLOADER = new Offloader({ threshold: 2000 });

const searchDocs = tool(
  async (input: { q: string }) =>
    Array.from({ length: 346 }, (_, i) => `${String(i + 1).padStart(3)}. [docs/api-keys.md#rotate] 0.${70 + ((i + 1) % 10)} :: ${input.q}`).join("\n"),
  {
    name: "search_docs",
    description: "Full-text search over the help centre; returns one line per hit.",
    schema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
  },
);

const readArtifact = tool(
  async (input: { path: string; offset?: number; limit?: number }) => OFFLOADER.read(input.path, input.offset, input.limit),
  {
    name: READ_ARTIFACT_TOOL.name,
    description: READ_ARTIFACT_TOOL.description ?? "",
    schema: READ_ARTIFACT_TOOL.input_schema,
  },
);

const TOOLS = [searchDocs, readArtifact];

/** The tool step: run the calls, then replace every big result with a pointer. */
async function offloadingTools(state: typeof MessagesAnnotation.State) {
  const out = (await new ToolNode(TOOLS).invoke(state)) as { messages: ToolMessage[] };
  for (const message of out.messages) {
    const content = typeof message.content === "string" ? message.content : JSON.stringify(message.content);
    message.content = OFFLOADER.wrap(message.name ?? "tool", content);
  }
  return out;
}

export function buildAgent(baseUrl?: string) {
  const model = new ChatAnthropic({
    model: "claude-opus-5",
    maxTokens: 4096,
    ...(baseUrl ? { anthropicApiUrl: baseUrl } : {}),
  }).bindTools(TOOLS);

  async function callModel(state: typeof MessagesAnnotation.State) {
    return { messages: [await model.invoke(state.messages)] };
  }

  function next(state: typeof MessagesAnnotation.State) {
    const last = state.messages.at(-1);
    return last instanceof AIMessage && (last.tool_calls?.length ?? 0) > 0 ? "tools" : END;
  }

  return new StateGraph(MessagesAnnotation)
    .addNode("agent", callModel)
    .addNode("tools", offloadingTools)
    .addEdge(START, "agent")
    .addConditionalEdges("agent", next, ["tools", END])
    .addEdge("tools", "agent")
    .compile();
}

export async function run(goal: string): Promise<string> {
  const final = await buildAgent().invoke({ messages: [new HumanMessage(goal)] }, { recursionLimit: 24 });
  return final.messages.at(-1)?.text ?? "";
}
