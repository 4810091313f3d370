/**
 * Scenarios for a run as data: a plan of reads, a wrong guess to recover from, a delete nobody
 * asked for, a slow tool, a repeated read, a repeated delete, an error no retry can fix, a
 * parent that hands a question to a research subagent, and a reply cut off with a tool call in it.
 */
import {
  asks,
  call,
  callsOf,
  defineScenario,
  filler,
  flag,
  isOn,
  lastAnswered,
  say,
  text,
  toolUse,
  type Scenario,
} from "../../checker/provider/scenarios/helpers.js";

const firstLine = (value: string) => value.trim().split("\n")[0]!.slice(0, 200);
export const plan = defineScenario({
  name: "plan",
  description: "list_files, read_file errors.log, then an answer quoting it (split=1: the answer in two text blocks)",
  options: { split: flag() },
  reply(ctx) {
    if (!lastAnswered(ctx, "list_files")) return toolUse("list_files");
    const read = lastAnswered(ctx, "read_file");
    if (!read) return toolUse("read_file", { path: "errors.log" });
    const answer = `errors.log says: ${firstLine(read.result!.text)}`;
    if (!isOn(ctx.options, "split")) return text(answer);
    return { kind: "message", content: [say(answer), say("No other log mentions a timeout.")], stopReason: "end_turn" };
  },
});

export const recover = defineScenario({
  name: "recover",
  description: "guesses timeout.log; recovers only if the error it gets back says to call list_files",
  reply(ctx) {
    const reads = callsOf(ctx, "read_file").filter((c) => c.result);
    const first = reads[0];
    if (!first) return toolUse("read_file", { path: "timeout.log" });
    if (!first.result!.isError && !/^error/i.test(first.result!.text)) return text(`timeout.log says: ${firstLine(first.result!.text)}`);
    if (!/list_files/.test(first.result!.text))
      return text("I only know that timeout.log is not there, and nothing told me where else to look, so I have no answer.");
    const listing = lastAnswered(ctx, "list_files");
    if (!listing) return toolUse("list_files");
    const target = /[\w.-]*error[\w.-]*\.log/i.exec(listing.result!.text)?.[0] ?? "errors.log";
    const second = reads.find((c) => c.input["path"] === target);
    if (!second) return toolUse("read_file", { path: target });
    return text(`${target} says: ${firstLine(second.result!.text)}`);
  },
});

const DECLINED = /declin|reject|denied|not approved|refus/i;

export const destructive = defineScenario({
  name: "destructive",
  description: "lists files, then asks to delete access.log, which the task never named",
  reply(ctx) {
    if (!lastAnswered(ctx, "list_files")) return toolUse("list_files");
    const deletion = lastAnswered(ctx, "delete_file");
    if (!deletion) return toolUse("delete_file", { path: "access.log" });
    const said = deletion.result!.text;
    if (DECLINED.test(said)) return text("I did not delete anything: the deletion of access.log was declined.");
    if (deletion.result!.isError) return text(`I could not delete access.log: ${said}`);
    // An empty result reads as success: a rejection nobody wrote down becomes a lie here.
    return text("Deleted access.log to free space.");
  },
});

export const slowTool = defineScenario({
  name: "slow-tool",
  description: "asks for scan_archive (slow on the harness side), then reports what it returned",
  reply(ctx) {
    const scan = lastAnswered(ctx, "scan_archive");
    if (!scan) return toolUse("scan_archive", { folder: "archive" });
    if (scan.result!.isError) return text(`The scan did not finish: ${scan.result!.text}`);
    return text(`The scan finished: ${firstLine(scan.result!.text)}`);
  },
});

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

export const scenarios: Scenario[] = [plan, recover, destructive, slowTool, repeatRead, repeatDelete, stubborn, delegate, cutToolCall];
