/**
 * The assembled loop and `lab triage`: the chapter's walk-through for tenant acme, as a model.
 * acme-triage asks search_docs and get_account in one turn, reads the offloaded search
 * result back a page at a time, answers with one uncited claim, and cites it once the
 * harness objects. Each reply is sized in output tokens so that, with the reference parts and
 * a loop that caches the conversation, the five calls price to the chapter's figures.
 * acme-actions asks for an unknown tool, an unconfirmed refund and a confirmed one.
 */
import {
  asks,
  call,
  callsOf,
  countText,
  defineScenario,
  flag,
  isOn,
  padToTokens,
  say,
  text,
  type ReplyBlock,
  type Scenario,
  type ScenarioReply,
  type ScenarioContext,
} from "../../checker/provider/scenarios/helpers.js";

/**
 * Output tokens of the five replies. With the 6,060-token prefix (tools and system), the
 * 1,053-token first results and 24-line pages, they price to $0.0427, 0.0149, 0.0123, 0.0150
 * and 0.0147 at claude-opus-5: the chapter's turns, within a hundredth of a cent each.
 */
export const ACME_OUTPUT = [193, 165, 99, 206, 347] as const;
/** Lines of the offloaded search result read back per read_artifact call. */
export const ACME_PAGE = 24;

/** The first path of an offloaded artifact the model was shown, if any. */
function artifactPath(ctx: ScenarioContext): string | null {
  const search = ctx.calls.find((c) => c.name === "search_docs" && c.result);
  return search?.result?.text.match(/(\/[^\s"'\]]+\.txt)/)?.[1] ?? null;
}

const source = (ctx: ScenarioContext) => artifactPath(ctx) ?? "search_docs";

/** A tool call rendered as the provider counts it. */
const callTokens = (block: ReplyBlock) => (block.type === "tool_use" ? countText(`${block.name} ${JSON.stringify(block.input)}`) : 0);

/** Some words, then the calls: exactly `tokens` output tokens in all. */
function sizedAsk(tokens: number, words: string, ...calls: ReplyBlock[]) {
  const used = calls.reduce((n, c) => n + callTokens(c), 0);
  return asks(say(padToTokens(words, tokens - used)), ...calls);
}

function answer(ctx: ScenarioContext, cited: boolean): string {
  const src = `[src:${source(ctx)}]`;
  return [
    `Claim 1: You rotate a key from Settings > API keys, with the Rotate button next to the key ${src}`,
    `Claim 2: The earlier key still works for 24 hours past the rotation, then is refused${cited ? ` ${src}` : "."}`,
    "",
    "How to do it without an outage:",
    "1. Open Settings > API keys and pick the key you want to replace. Your account has three active keys, so check its name and last-used date first.",
    "2. Press Rotate. A new secret is shown once: copy it into your secret store straight away, because it cannot be displayed again.",
    "3. Deploy the new secret to every service that calls the API. The old key keeps working for 24 hours, which is your window to roll the change out.",
    "4. Watch the last-used date of the old key. When it stops moving, every caller has switched and you can revoke it early instead of waiting.",
    "5. If a key has leaked, do not wait for the 24 hours: rotate it and revoke the old one at once, then review the audit log for calls you do not recognise.",
    "6. Update any scheduled jobs, CI secrets and local .env files last; they are the callers people forget, and they fail quietly at night.",
    "",
    "Both claims come from the same section of the API keys guide (docs/api-keys.md#rotate), which all 346 search hits point to. " +
      "If a service still fails after the switch, compare the key prefix it sends with the one shown in Settings: a stale secret left in a config file is nearly always the cause.",
  ].join("\n");
}

/** The answer at its set size: the cited one is written to it; the draft is cut short and padded. */
function sizedAnswer(ctx: ScenarioContext, cited: boolean, tokens: number): string {
  if (cited) {
    const full = answer(ctx, true);
    return countText(full) <= tokens ? padToTokens(full, tokens) : full;
  }
  const draft = answer(ctx, false).split("\n").slice(0, 7).join("\n");
  return padToTokens(`${draft}\nThe remaining steps follow the same pattern.`, tokens);
}

/** An answer as two text blocks, the second opening at Claim 2: joined with "\n" they are the one-block answer. */
function inTwoBlocks(answer: string): ScenarioReply {
  const at = answer.indexOf("\nClaim 2");
  return { kind: "message", content: [say(answer.slice(0, at)), say(answer.slice(at + 1))], stopReason: "end_turn" };
}

/** What the real API sometimes sends: an end_turn reply with no content at all. */
const saysNothing = (): ScenarioReply => ({ kind: "message", content: [], stopReason: "end_turn" });

export const acmeTriage = defineScenario({
  name: "acme-triage",
  description:
    "search_docs + get_account in one turn, two read_artifact pages, an uncited claim, then a cited answer " +
    "(steal=1: asks for tenant globex; split=1: each answer in two text blocks; silent=1: an empty reply once the draft is sent back)",
  options: { steal: flag(), split: flag(), silent: flag() },
  reply(ctx) {
    const [first, page1, page2, draft, final] = ACME_OUTPUT;
    if (ctx.turn === 0) {
      const account = isOn(ctx.options, "steal") ? { tenant: "globex" } : {};
      const words = "I will search the support docs for key rotation and look at the account in the same turn, since neither depends on the other.";
      return sizedAsk(first, words, call("search_docs", { query: "rotate API key" }), call("get_account", account));
    }
    const path = artifactPath(ctx);
    const pages = callsOf(ctx, "read_artifact").length;
    if (path && pages < 2) {
      const words =
        pages === 0
          ? "The search result was set aside as an artifact. Its head and tail all point to one section, so I will read the first page of hits."
          : "The first page agrees on the steps. I will read one more page to check whether any hit disagrees about the 24 hours.";
      return sizedAsk(pages === 0 ? page1 : page2, words, call("read_artifact", { path, offset: pages * ACME_PAGE, limit: ACME_PAGE }));
    }
    // The harness's feedback names the missing citation; until it has, the model leaves one out.
    const objected = ctx.request.messages.some((m) => m.role === "user" && JSON.stringify(m.content).includes("no citation"));
    if (objected && isOn(ctx.options, "silent")) return saysNothing();
    const reply = sizedAnswer(ctx, objected, objected ? final : draft);
    return isOn(ctx.options, "split") ? inTwoBlocks(reply) : text(reply);
  },
});

export const acmeActions = defineScenario({
  name: "acme-actions",
  description: "rm_rf, an unconfirmed issue_refund and a confirmed one in one turn, then a report of what was refused",
  reply(ctx) {
    if (ctx.turn === 0) {
      const refund = { order: "A-1001", amount_usd: 20 };
      return asks(call("rm_rf", { path: "/" }), call("issue_refund", refund), call("issue_refund", { ...refund, confirmed: true }));
    }
    const refused = ctx.calls.filter((c) => c.result?.isError).length;
    return text(`${refused} of ${ctx.calls.length} calls were refused; the confirmed refund went through.`);
  },
});

export const scenarios: Scenario[] = [acmeTriage, acmeActions];
