/**
 * What `lab triage` answers a question with. The chapter's walk-through question (rotating an
 * API key) gets the scripted walk-through, acme-triage, with its figures. Any other question
 * gets a small support model that reads the question: it searches the tenant's docs with it,
 * looks at the account, and answers with what the docs say, each claim cited, or says that
 * the docs hold nothing on it. The docs it searches are the fixture's (SUPPORT_DOCS).
 */
import { SUPPORT_DOCS } from "../../exercises/11-integrated/support/index.js";
import { callsOf, defineScenario, asks, call, say, text } from "../../checker/provider/scenarios/helpers.js";
import type { Scenario, ScenarioContext } from "../../checker/provider/index.js";

export const TRIAGE_DESK = "triage-desk";
/** The scenario the chapter's figures come from. */
export const WALK_THROUGH = "acme-triage";

export const DESK_WORDS = {
  searching: "I will search the support docs for that and look at the account in the same turn, since neither depends on the other.",
  nothingFound: (question: string) => `Nothing in the support docs answers "${question}". A colleague from support will follow up by email with an answer.`,
  noMatch: "No document matches that search.",
} as const;

/** The walk-through is for the question the chapter asks: rotating a key. */
export const isWalkThrough = (question: string) => /\brotat/i.test(question) && /\bkeys?\b/i.test(question);

export const scenarioFor = (question: string) => (isWalkThrough(question) ? WALK_THROUGH : TRIAGE_DESK);

/** The words of a text that say something: four letters or more, lower case. */
const wordsOf = (text: string) => new Set(text.toLowerCase().match(/[a-z]{4,}/g) ?? []);

/** Runs of the same stem count: "invoice" finds "invoices", "refunds" finds "refund". */
const sameStem = (a: string, b: string) => a.slice(0, 5) === b.slice(0, 5);

/** The sentences of the docs that share a word with the query, as "path: sentence" lines; a sentence when none does. */
export function searchDocs(query: string): string {
  const asked = [...wordsOf(query)];
  const hits = Object.entries(SUPPORT_DOCS).flatMap(([path, body]) =>
    body
      .split(/(?<=\.)\s+/)
      .filter((sentence) => [...wordsOf(sentence)].some((w) => asked.some((a) => sameStem(a, w))))
      .map((sentence) => `${path}: ${sentence}`),
  );
  return hits.length === 0 ? DESK_WORDS.noMatch : hits.join("\n");
}

/** The answer from the search's result: one cited claim per sentence found. */
function answerFrom(ctx: ScenarioContext, found: string): string {
  const claims = found
    .split("\n")
    .map((line) => /^(\S+\.md): (.+)$/.exec(line))
    .filter((m) => m !== null)
    .map((m) => `${m[2]!.replace(/\.$/, "")} [src:${m[1]}]`);
  if (claims.length === 0) return DESK_WORDS.nothingFound(ctx.goal);
  return claims.map((claim, i) => `Claim ${i + 1}: ${claim}`).join("\n");
}

export const triageDesk: Scenario = defineScenario({
  name: TRIAGE_DESK,
  description: "lab triage's support model: searches the docs with the question, reads the account, answers with cited claims",
  reply(ctx) {
    const searched = callsOf(ctx, "search_docs").find((c) => c.result);
    if (!searched) return asks(say(DESK_WORDS.searching), call("search_docs", { query: ctx.goal }), call("get_account", {}));
    return text(answerFrom(ctx, searched.result!.text));
  },
});
