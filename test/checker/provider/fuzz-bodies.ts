/** Malformed request bodies for the fuzz test, drawn from a seeded PRNG so every run sends the same ones. */

export interface Malformed {
  kind: string;
  body: string | Uint8Array;
  /** The exact message, or how it may start when the rest depends on the generated value. */
  message?: string;
  startsWith?: string | string[];
}

/** mulberry32: small, fast, and the same sequence for the same seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const int = (r: Random, n: number) => Math.floor(r() * n);
const pick = <T>(r: Random, items: readonly T[]): T => items[int(r, items.length)]!;

/** A request the provider accepts; every mutation below breaks exactly one thing in it. */
export function validBody(): Record<string, any> {
  return {
    model: "claude-opus-5",
    max_tokens: 64,
    system: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral", ttl: "5m" } }],
    tools: [{ name: "lookup", description: "Looks things up.", input_schema: { type: "object" } }],
    messages: [
      { role: "user", content: "hi" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "ok" },
          { type: "tool_use", id: "toolu_1", name: "lookup", input: {} },
        ],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "found", is_error: false }] },
    ],
    stream: false,
    temperature: 0.5,
    stop_sequences: ["END"],
  };
}

/** Field path → values of the wrong type (or shape) for it; null only where null is not allowed. */
const WRONG: Record<string, unknown[]> = {
  model: [1, true, null, {}, ["m"]],
  max_tokens: ["64", 1.5, 0, -3, null, true, {}],
  messages: ["hi", 3, {}, null, []],
  "messages.0": ["hi", 4, null, []],
  "messages.0.role": ["system", 1, null, "User"],
  "messages.0.content": [5, false, null, {}],
  "messages.1.content.0": ["text", 1, null],
  "messages.1.content.0.type": [7, null, false],
  "messages.1.content.0.text": [1, null, {}, []],
  "messages.1.content.1.id": [1, null, {}],
  "messages.1.content.1.name": [2, null, []],
  "messages.1.content.1.input": ["{}", [], 3, null],
  "messages.2.content.0.tool_use_id": [1, null, {}],
  "messages.2.content.0.content": [3, true, {}],
  "messages.2.content.0.is_error": ["yes", 1, {}],
  system: [3, true, {}],
  "system.0": ["text", 1, null],
  "system.0.type": ["image", 1, null],
  "system.0.text": [1, null, []],
  "system.0.cache_control": ["ephemeral", 1, []],
  "system.0.cache_control.type": ["persistent", 2, null],
  "system.0.cache_control.ttl": ["2h", 5, null],
  tools: ["lookup", 1, {}],
  "tools.0": ["lookup", 1, null],
  "tools.0.name": [1, null, "has space", "", "x".repeat(129)],
  "tools.0.input_schema": ["object", 1, [], null],
  "tools.0.description": [1, [], {}],
  stream: ["true", 1, {}],
  temperature: ["0.5", [], {}, true],
  stop_sequences: ["END", [1], {}],
  cache_control: ["ephemeral", 1, { type: "always" }],
};

const REQUIRED = [
  "model",
  "max_tokens",
  "messages",
  "messages.0.role",
  "messages.0.content",
  "messages.1.content.1.input",
  "messages.2.content.0.tool_use_id",
  "tools.0.name",
];

function setAt(body: Record<string, any>, path: string, value: unknown, remove = false): void {
  const keys = path.split(".");
  const last = keys.pop()!;
  const parent = keys.reduce((node, key) => node[key], body);
  if (remove) delete parent[last];
  else parent[last] = value;
}

function randomJson(r: Random, depth: number): unknown {
  const roll = int(r, depth > 3 ? 5 : 7);
  if (roll === 0) return null;
  if (roll === 1) return r() < 0.5;
  if (roll === 2) return (r() - 0.5) * 10 ** int(r, 12);
  if (roll === 3 || roll === 4) return Array.from({ length: int(r, 12) }, () => String.fromCharCode(32 + int(r, 0x2fff))).join("");
  if (roll === 5) return Array.from({ length: int(r, 5) }, () => randomJson(r, depth + 1));
  return Object.fromEntries(Array.from({ length: int(r, 5) }, (_, i) => [`k${i}_${int(r, 1e6)}`, randomJson(r, depth + 1)]));
}

const BAD_UTF8 = [[0xff], [0xc3, 0x28], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80], [0xc0, 0xaf]];

function nested(r: Random, depth: number): string {
  const open = pick(r, ['{"a":', "["]);
  return open.repeat(depth) + "1" + (open === "[" ? "]" : "}").repeat(depth);
}

/** `count` small malformed bodies of every kind, deterministic for a seed. */
export function malformedBodies(seed: number, count: number): Malformed[] {
  const r = prng(seed);
  const out: Malformed[] = [];
  while (out.length < count) {
    const kind = pick(r, ["json", "wrong-type", "wrong-type", "missing", "truncated", "utf8", "deep"]);
    const body = validBody();
    if (kind === "json") {
      const value = randomJson(r, 0);
      const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
      out.push({ kind, body: JSON.stringify(value), message: isObject ? "model: Field required" : "The request body must be a JSON object." });
    } else if (kind === "wrong-type") {
      const path = pick(r, Object.keys(WRONG));
      setAt(body, path, pick(r, WRONG[path]!));
      out.push({ kind, body: JSON.stringify(body), startsWith: [`${path}:`, `${path}.`] });
    } else if (kind === "missing") {
      const path = pick(r, REQUIRED);
      setAt(body, path, undefined, true);
      out.push({ kind, body: JSON.stringify(body), message: `${path}: Field required` });
    } else if (kind === "truncated") {
      const text = JSON.stringify(body);
      out.push({ kind, body: text.slice(0, int(r, text.length)), startsWith: "The request body is not valid JSON: " });
    } else if (kind === "utf8") {
      const bytes = Buffer.from(JSON.stringify(body));
      const at = int(r, bytes.length);
      out.push({
        kind,
        body: Buffer.concat([bytes.subarray(0, at), Buffer.from(pick(r, BAD_UTF8)), bytes.subarray(at)]),
        message: "The request body is not valid UTF-8.",
      });
    } else {
      // Mostly just past the limit; one in ten deep enough to overflow a recursive walk.
      const depth = 129 + int(r, r() < 0.1 ? 100_000 : 2_000);
      const where = pick(r, ["body", "content", "input", "schema", "metadata"]);
      const deep = nested(r, depth);
      const text =
        where === "body"
          ? deep
          : where === "content"
            ? JSON.stringify({ ...body, messages: [{ role: "user", content: [{ type: "image", source: "@" }] }] }).replace('"@"', deep)
            : where === "input"
              ? JSON.stringify(body).replace('"input":{}', `"input":{"q":${deep}}`)
              : where === "schema"
                ? JSON.stringify(body).replace('"input_schema":{"type":"object"}', `"input_schema":${deep}`)
                : JSON.stringify({ ...body, metadata: "@" }).replace('"@"', deep);
      out.push({ kind, body: text, message: "The request body nests deeper than 128 levels." });
    }
  }
  return out;
}

const MB20 = 20 * 1024 * 1024;

/** Five 20 MB bodies: two prompts far past the context limit, a huge model name, a huge string body, a huge broken body. */
export function hugeBodies(): Malformed[] {
  const body = validBody();
  return [
    {
      kind: "huge-prose",
      body: JSON.stringify({ ...body, messages: [{ role: "user", content: "lorem ipsum dolor ".repeat(MB20 / 18) }] }),
      startsWith: "prompt is too long: ",
    },
    { kind: "huge-run", body: JSON.stringify({ ...body, messages: [{ role: "user", content: "a".repeat(MB20) }] }), startsWith: "prompt is too long: " },
    { kind: "huge-model", body: JSON.stringify({ model: "m".repeat(MB20) }), message: "max_tokens: Field required" },
    { kind: "huge-string", body: JSON.stringify("s".repeat(MB20)), message: "The request body must be a JSON object." },
    { kind: "huge-broken", body: `{"model":"${"b".repeat(MB20)}`, startsWith: "The request body is not valid JSON: " },
  ];
}
