/**
 * Tier 2: the semantic cache as the graph's first node (the lab's own tests run it
 * against the scripted provider).
 *
 * "cache" reads the latest question and looks it up in the tenant's namespace. On a
 * hit it writes the stored answer as the assistant's message and a conditional edge
 * goes straight to END: the model node never runs. On a miss the edge goes to "agent";
 * after it, "store" saves the answer when the question may be cached at all.
 *
 * The cache itself is the tier-3 class (or yours); the graph only decides when to
 * consult it. The tenant travels in the graph's state, so one compiled graph serves
 * every customer without their entries meeting.
 */
import { ChatAnthropic } from "@langchain/anthropic";
import { AIMessage } from "@langchain/core/messages";
import { Annotation, END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";

/** What the graph needs of a SemanticCache. */
interface Cache {
  get(q: string, namespace?: string): Promise<string | null>;
  put(q: string, a: string, namespace?: string): Promise<void>;
}

const State = Annotation.Root({
  ...MessagesAnnotation.spec,
  tenant: Annotation<string>({ reducer: (_old, next) => next, default: () => "default" }),
  cacheHit: Annotation<boolean>({ reducer: (_old, next) => next, default: () => false }),
});

const textOf = (content: unknown) => (typeof content === "string" ? content : JSON.stringify(content));

export function buildGraph(cache: Cache, cacheable: (q: string, a: string) => boolean) {
  const model = new ChatAnthropic({ model: "claude-opus-5", maxTokens: 4096 });
  const question = (state: typeof State.State) => textOf(state.messages.at(-1)?.content);

  async function lookup(state: typeof State.State) {
    const hit = await cache.get(question(state), state.tenant);
    return hit === null ? { cacheHit: false } : { cacheHit: true, messages: [new AIMessage(hit)] };
  }

  async function callModel(state: typeof State.State) {
    return { messages: [await model.invoke(state.messages)] };
  }

  async function store(state: typeof State.State) {
    const q = textOf(state.messages.at(-2)?.content);
    const a = textOf(state.messages.at(-1)?.content);
    if (cacheable(q, a)) await cache.put(q, a, state.tenant);
    return {};
  }

  return new StateGraph(State)
    .addNode("cache", lookup)
    .addNode("agent", callModel)
    .addNode("store", store)
    .addEdge(START, "cache")
    .addConditionalEdges("cache", (s) => (s.cacheHit ? END : "agent"), ["agent", END])
    .addEdge("agent", "store")
    .addEdge("store", END)
    .compile();
}
