/**
 * A deterministic stand-in for an embedding model, for the semantic cache. No model runs here:
 * for the questions listed below the vectors are BUILT so that each labelled pair has
 * the similarity written next to it (the chapter's three dangerous pairs among them), and
 * any other text gets a vector from hashed words and character trigrams. The numbers show
 * how a cache behaves on such data; they measure no real model.
 *
 * Layout of a vector: FALLBACK_DIMS hashed buckets (zero for a staged question), then
 * one shared direction, then one direction per pair's first question and one per second
 * question. Every staged vector is c·shared + s·(its own part), with c² = SHARED, so two
 * questions of different pairs have similarity SHARED and a pair's two questions exactly
 * the similarity staged for it.
 */

export interface LabelledPair {
  a: string;
  b: string;
  /** The cosine similarity the vectors of a and b are built to have. */
  similarity: number;
}

const pair = (a: string, b: string, similarity: number): LabelledPair => ({ a, b, similarity });

/**
 * The chapter's dangerous pairs. Each is staged 0.0003 above its printed value, so that
 * float32 rounding cannot drop it under a sweep threshold equal to that value.
 */
export const DANGEROUS_PAIRS = {
  order: pair("cancel my order", "cancel my subscription", 0.9403),
  password: pair("reset my password", "reset my API key", 0.9303),
  month: pair("charge for March", "charge for May", 0.9703),
} as const;

/** One question and two stored rewordings of it, both above the default threshold, one closer. */
export const CLOSEST_OF_TWO = {
  question: "How do I change the billing address on invoices?",
  farther: pair("How do I change the billing address on invoices?", "How can I edit the billing details on my invoices?", 0.982),
  closer: pair("How do I change the billing address on invoices?", "How do I update the billing address on invoices?", 0.991),
} as const;

/** Rewordings that should be served the same answer. */
export const PARAPHRASES: readonly LabelledPair[] = [
  pair("How do I rotate an API key?", "What's the process for changing my API key?", 0.912),
  pair("How do I reset my password?", "I forgot my password, how can I reset it?", 0.986),
  pair("What is your refund policy?", "How do refunds work?", 0.964),
  pair("How do I cancel my subscription?", "How can I end my subscription?", 0.992),
  pair("Which payment methods do you accept?", "What ways can I pay?", 0.948),
  pair("How do I export my data?", "How can I download all my data?", 0.975),
  pair("Do you offer a free trial?", "Is there a free trial?", 0.997),
  pair("How do I add a team member?", "How can I invite a colleague to my team?", 0.957),
  pair("What does error 429 mean?", "Why am I getting a 429 error?", 0.861),
  pair("How do I change my email address?", "How can I update the email on my account?", 0.984),
  pair("Where can I find my invoices?", "Where are my invoices?", 0.994),
  pair("How do I enable two-factor authentication?", "How do I turn on 2FA?", 0.936),
  pair("What are the rate limits?", "How many requests can I make per minute?", 0.897),
  pair("How do I delete my account?", "How can I close my account permanently?", 0.978),
  pair("Can I change my plan later?", "Is it possible to switch plans later?", 0.972),
  pair("How do I contact support?", "How can I reach customer support?", 0.988),
  pair("What regions is the service hosted in?", "Where are your data centers located?", 0.874),
  pair("How do I set up a webhook?", "How can I configure webhooks?", 0.968),
  pair("Is my data encrypted at rest?", "Do you encrypt stored data?", 0.945),
  pair("How long do you keep logs?", "What is the log retention period?", 0.927),
  pair("Can I get a discount for nonprofits?", "Do nonprofits get a discount?", 0.961),
  pair("How do I upgrade to the Pro plan?", "How can I move up to Pro?", 0.953),
  pair("What file formats can I upload?", "Which file types are supported for upload?", 0.918),
  CLOSEST_OF_TWO.farther,
  CLOSEST_OF_TWO.closer,
];

/** Questions that read almost the same but need another answer: a month, an amount, a name or an object swapped. */
export const NEAR_MISSES: readonly LabelledPair[] = [
  DANGEROUS_PAIRS.month,
  pair("Refund the $20 charge", "Refund the $200 charge", 0.966),
  pair("Send the invoice to Alice", "Send the invoice to Alicia", 0.963),
  pair("What's the price of the Pro plan?", "What's the price of the Team plan?", 0.958),
  pair("Ship it to the London office", "Ship it to the Lisbon office", 0.954),
  pair("Delete the staging database", "Delete the production database", 0.951),
  pair("Upgrade to the annual plan", "Downgrade to the annual plan", 0.946),
  pair("Transfer $500 to savings", "Transfer $5,000 to savings", 0.943),
  DANGEROUS_PAIRS.order,
  pair("Add Bob as an admin", "Remove Bob as an admin", 0.935),
  DANGEROUS_PAIRS.password,
  pair("Book a meeting for Tuesday", "Book a meeting for Thursday", 0.926),
  pair("What were the sales in Q1?", "What were the sales in Q3?", 0.921),
  pair("Grant read access to the billing folder", "Grant write access to the billing folder", 0.914),
  pair("How much is shipping to Canada?", "How much is shipping to Chile?", 0.909),
  pair("Renew the certificate for api.example.com", "Renew the certificate for app.example.com", 0.903),
  pair("Export the report as CSV", "Export the report as PDF", 0.896),
  pair("Invoice for 10 seats", "Invoice for 100 seats", 0.889),
  pair("Pause my subscription", "Resume my subscription", 0.884),
  pair("What's the limit for the free tier?", "What's the limit for the paid tier?", 0.872),
  pair("Open a ticket with the billing team", "Open a ticket with the security team", 0.865),
  pair("Set the timeout to 30 seconds", "Set the timeout to 30 minutes", 0.853),
  pair("Email the receipt to Carol", "Email the receipt to Carl", 0.842),
  pair("Schedule the backup for 2 am", "Schedule the backup for 2 pm", 0.828),
  pair("Move the meeting to June", "Move the meeting to July", 0.811),
];

const FALLBACK_DIMS = 256;
/** Similarity between questions of different pairs. */
const SHARED = 0.25;

const key = (text: string) => text.trim().toLowerCase().replace(/\s+/g, " ");

/** Text → [its pair's direction, its own direction or -1, similarity to the pair's first question]. */
const staged = new Map<string, { anchor: number; own: number; similarity: number }>();
let dims = FALLBACK_DIMS + 1;
for (const p of [...PARAPHRASES, ...NEAR_MISSES]) {
  let first = staged.get(key(p.a));
  if (!first) staged.set(key(p.a), (first = { anchor: dims++, own: -1, similarity: 1 }));
  if (staged.has(key(p.b))) throw new Error(`staged-embeddings: "${p.b}" is staged twice`);
  staged.set(key(p.b), { anchor: first.anchor, own: dims++, similarity: p.similarity });
}
/** Length of every vector this module returns. */
export const DIMENSIONS = dims;

/** FNV-1a, 32 bits. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

function normalise(v: Float64Array): Float64Array {
  const length = Math.hypot(...v);
  return length === 0 ? v : v.map((x) => x / length);
}

/** Hashed words (weight 1) and character trigrams (weight 0.5), signed, in the fallback buckets. */
function fallbackVector(text: string): Float64Array {
  const v = new Float64Array(DIMENSIONS);
  const add = (feature: string, weight: number) => {
    const h = hash(feature);
    const bucket = h % FALLBACK_DIMS;
    v[bucket] = v[bucket]! + (h & 0x80000000 ? -weight : weight);
  };
  const k = key(text);
  for (const word of k.split(/[^\p{L}\p{N}]+/u).filter(Boolean)) add(`w:${word}`, 1);
  const padded = ` ${k} `;
  for (let i = 0; i + 3 <= padded.length; i++) add(`c:${padded.slice(i, i + 3)}`, 0.5);
  return normalise(v);
}

/** The unit vector staged for `text`, or its fallback vector. */
export function stagedVector(text: string): Float64Array {
  const s = staged.get(key(text));
  if (!s) return fallbackVector(text);
  const v = new Float64Array(DIMENSIONS);
  const c = Math.sqrt(SHARED);
  const rest = Math.sqrt(1 - SHARED);
  // Within a pair the own parts must have cosine t' with SHARED + (1 - SHARED)·t' = similarity.
  const t = (s.similarity - SHARED) / (1 - SHARED);
  v[FALLBACK_DIMS] = c;
  v[s.anchor] = rest * t;
  if (s.own >= 0) v[s.own] = rest * Math.sqrt(1 - t * t);
  return v;
}

export interface StagedEmbedder {
  embed: (text: string) => Promise<number[] | Float32Array>;
  /** Every text embed was called with, in order. */
  calls: string[];
}

/**
 * An embed function over the staged vectors that records its calls. By default it
 * returns unit-length Float32Arrays; `scale` multiplies every vector (and returns plain
 * arrays), for testing that a cache does not trust the provider's lengths.
 */
export function stagedEmbedder(opts: { scale?: number } = {}): StagedEmbedder {
  const calls: string[] = [];
  const scale = opts.scale ?? 1;
  return {
    calls,
    // Async, as a model call is: the learner's realm calls it without waiting for the test's side.
    embed: async (text: string) => {
      calls.push(text);
      const v = stagedVector(text);
      return scale === 1 ? Float32Array.from(v) : Array.from(v, (x) => x * scale);
    },
  };
}
