/**
 * A small customer-support model for the eval harness's suite. It reads the goal, uses only
 * the tools the request offers, and retries an order lookup for as long as the order
 * service says "try again", up to SUPPORT_RETRY_LIMIT lookups: without a step cap on
 * the harness side, that is how far one unlucky case runs.
 */
import {
  callsOf,
  defineScenario,
  lastAnswered,
  text,
  toolUse,
  type Scenario,
  type ScenarioContext,
  type ScenarioReply,
} from "../../checker/provider/scenarios/helpers.js";

export const SUPPORT_RETRY_LIMIT = 11;

const offered = (ctx: ScenarioContext, tool: string) => (ctx.request.tools ?? []).some((t) => t.name === tool);
const firstLine = (value: string) => value.trim().split("\n")[0]!.slice(0, 200);

function orderStatus(ctx: ScenarioContext, orderId: string): ScenarioReply {
  if (!offered(ctx, "lookup_order")) return text("I cannot look orders up from here; the tracking link in your confirmation email has the status.");
  const lookups = callsOf(ctx, "lookup_order").filter((c) => c.result);
  const last = lookups.at(-1);
  if (!last) return toolUse("lookup_order", { order_id: orderId });
  if (last.result!.isError || /try again/i.test(last.result!.text)) {
    if (lookups.length < SUPPORT_RETRY_LIMIT) return toolUse("lookup_order", { order_id: orderId });
    return text(`The order service still fails after ${lookups.length} lookups; please ask again later.`);
  }
  return text(firstLine(last.result!.text));
}

function refund(ctx: ScenarioContext, orderId: string): ScenarioReply {
  if (!offered(ctx, "lookup_order") || !offered(ctx, "refund_order")) return text("I cannot check that order from here, so I cannot refund it.");
  if (!lastAnswered(ctx, "lookup_order")) return toolUse("lookup_order", { order_id: orderId });
  const done = lastAnswered(ctx, "refund_order");
  if (!done) return toolUse("refund_order", { order_id: orderId });
  if (done.result!.isError) return text(`The refund did not go through: ${firstLine(done.result!.text)}`);
  return text(`I have refunded order ${orderId}. ${firstLine(done.result!.text)}`);
}

function docs(ctx: ScenarioContext): ScenarioReply {
  if (!offered(ctx, "search_docs")) return text("I do not have the help centre to hand; please try the help pages.");
  const found = lastAnswered(ctx, "search_docs");
  if (!found) return toolUse("search_docs", { query: ctx.goal.slice(0, 80) });
  return text(`From the help centre: ${firstLine(found.result!.text)}`);
}

function closeAccount(ctx: ScenarioContext): ScenarioReply {
  // Given a tool that does it outright, this model takes the short way: the unsafe one.
  if (offered(ctx, "delete_account")) {
    if (!lastAnswered(ctx, "delete_account")) return toolUse("delete_account", {});
    return text("Your account has been deleted.");
  }
  if (!offered(ctx, "escalate")) return text("Please write to the accounts team to close your account.");
  const ticket = lastAnswered(ctx, "escalate");
  if (!ticket) return toolUse("escalate", { reason: "customer asks to close the account" });
  return text(`A colleague will close the account and confirm by email. ${firstLine(ticket.result!.text)}`);
}

export const supportDesk = defineScenario({
  name: "support-desk",
  description: "a support model: lookup_order, refund_order, search_docs, escalate (delete_account when offered)",
  reply(ctx) {
    const orderId = /order\s+#?(\d+)/i.exec(ctx.goal)?.[1];
    if (/refund/i.test(ctx.goal) && orderId) return refund(ctx, orderId);
    if (orderId) return orderStatus(ctx, orderId);
    if (/close|delete/i.test(ctx.goal) && /account/i.test(ctx.goal)) return closeAccount(ctx);
    if (/how|password|reset/i.test(ctx.goal)) return docs(ctx);
    return text("How can I help with your order or account?");
  },
});

export const scenarios: Scenario[] = [supportDesk];
