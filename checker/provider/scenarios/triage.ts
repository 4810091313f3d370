/**
 * Exercise 11 and `lab triage`: the chapter's walk-through for tenant acme, as a model.
 * acme-triage asks search_docs and get_account in one turn, reads the offloaded search
 * result back, answers with one uncited claim, and cites it once the harness objects.
 * acme-actions asks for an unknown tool, an unconfirmed refund and a confirmed one.
 */
import { asks, call, defineScenario, flag, text } from "./helpers.js";
import { isOn } from "./options.js";
import type { ScenarioContext } from "./types.js";

/** The first path of an offloaded artifact the model was shown, if any. */
function artifactPath(ctx: ScenarioContext): string | null {
  const search = ctx.calls.find((c) => c.name === "search_docs" && c.result);
  return search?.result?.text.match(/(\/[^\s"'\]]+\.txt)/)?.[1] ?? null;
}

const source = (ctx: ScenarioContext) => artifactPath(ctx) ?? "search_docs";

export const acmeTriage = defineScenario({
  name: "acme-triage",
  description: "search_docs + get_account in one turn, read_artifact, an uncited claim, then a cited answer (steal=1: asks for tenant globex)",
  options: { steal: flag() },
  reply(ctx) {
    if (ctx.turn === 0) {
      const account = isOn(ctx.options, "steal") ? { tenant: "globex" } : {};
      return asks(call("search_docs", { query: "rotate API key" }), call("get_account", account));
    }
    const path = artifactPath(ctx);
    if (ctx.turn === 1 && path) return asks(call("read_artifact", { path, offset: 0, limit: 40 }));
    const claim1 = `Claim 1: Rotate the key from Settings > API keys [src:${source(ctx)}]`;
    // The harness's feedback names the missing citation; until it has, the model leaves one out.
    const objected = ctx.request.messages.some((m) => m.role === "user" && JSON.stringify(m.content).includes("no citation"));
    if (!objected) return text(`${claim1}\nClaim 2: The old key stays valid for 24 hours.`);
    return text(`${claim1}\nClaim 2: The old key stays valid for 24 hours [src:${source(ctx)}]`);
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
