/**
 * Scenarios for exercise 12 (a run as data): a repeated read, a repeated delete, an error
 * no retry can fix, a parent that hands a question to a research subagent, and a reply cut off
 * with a tool call in it.
 */
import { asks, call, callsOf, defineScenario, filler, text, toolUse } from "./helpers.js";

const firstLine = (value: string) => value.trim().split("\n")[0]!.slice(0, 200);
const answered = (calls: ReturnType<typeof callsOf>) => calls.filter((c) => c.result !== null);

export const repeatRead = defineScenario({
  name: "repeat-read",
  description: "read_file errors.log twice in a row with identical input, then an answer quoting it",
  reply(ctx) {
    const reads = answered(callsOf(ctx, "read_file"));
    if (reads.length < 2) return toolUse("read_file", { path: "errors.log" });
    return text(`errors.log says: ${firstLine(reads[1]!.result!.text)}`);
  },
});

export const repeatDelete = defineScenario({
  name: "repeat-delete",
  description: "delete_file access.log twice in a row with identical input (two tool_use ids), then reports it",
  reply(ctx) {
    const deletions = answered(callsOf(ctx, "delete_file"));
    if (deletions.length < 2) return toolUse("delete_file", { path: "access.log" });
    return text("Deleted access.log.");
  },
});

export const stubborn = defineScenario({
  name: "stubborn",
  description: "read_file /var/log/secure again after every error, forever; answers only if a read succeeds",
  reply(ctx) {
    const done = answered(callsOf(ctx, "read_file")).find((c) => !c.result!.isError && !/^error/i.test(c.result!.text));
    if (done) return text(`/var/log/secure says: ${firstLine(done.result!.text)}`);
    return toolUse("read_file", { path: "/var/log/secure" });
  },
});

export const delegate = defineScenario({
  name: "delegate",
  description: "hands one question to a research tool (a subagent), then answers from its summary",
  reply(ctx) {
    const research = answered(callsOf(ctx, "research")).at(-1);
    if (!research) return toolUse("research", { question: "Which log file mentions a timeout?" });
    if (research.result!.isError) return text(`The research failed: ${firstLine(research.result!.text)}`);
    return text(`From the research: ${firstLine(research.result!.text)}`);
  },
});

export const cutToolCall = defineScenario({
  name: "cut-tool-call",
  description: "asks for list_files and a write_file whose content runs past max_tokens: the reply is cut off with a tool call in it",
  reply(ctx) {
    if (callsOf(ctx, "list_files").some((c) => c.result !== null)) return text("Listed the files; the report was never written.");
    return asks(call("list_files"), call("write_file", { path: "report.md", content: filler(ctx.request.max_tokens + 64, "the report") }));
  },
});
