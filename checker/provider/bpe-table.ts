/**
 * A byte-pair vocabulary as three flat arrays: every token's bytes back to back, where each
 * token starts, and an open-addressing hash from a token's bytes to its rank. Loading it is
 * three buffer copies; the Map of 200,000 strings a tokenizer usually builds has to be filled
 * entry by entry in every process, and then weighs on every garbage collection.
 */
export interface BpeTable {
  /** Every token's bytes, in rank order. */
  bytes: Uint8Array;
  /** Token `r` is `bytes[starts[r]]` up to `bytes[starts[r + 1]]`; an unused rank is empty. */
  starts: Uint32Array;
  /** `rank + 1` in the slot its bytes hash to (or the next free one after it); 0 is empty. */
  slots: Int32Array;
}

export const NOT_A_TOKEN = -1;

/** 32-bit FNV-1a over `bytes[start..end)`. */
function hash(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

function sameBytes(table: BpeTable, rank: number, bytes: Uint8Array, start: number, end: number): boolean {
  const from = table.starts[rank]!;
  if (table.starts[rank + 1]! - from !== end - start) return false;
  for (let i = 0; i < end - start; i++) if (table.bytes[from + i] !== bytes[start + i]) return false;
  return true;
}

/** The rank of the token whose bytes are `bytes[start..end)`, or NOT_A_TOKEN. */
export function rankOf(table: BpeTable, bytes: Uint8Array, start: number, end: number): number {
  const mask = table.slots.length - 1;
  for (let slot = hash(bytes, start, end) & mask; ; slot = (slot + 1) & mask) {
    const entry = table.slots[slot]!;
    if (entry === 0) return NOT_A_TOKEN;
    if (sameBytes(table, entry - 1, bytes, start, end)) return entry - 1;
  }
}

/** The bytes of token `rank`, or undefined for a rank the vocabulary does not have. */
export function tokenBytes(table: BpeTable, rank: number): Uint8Array | undefined {
  if (!Number.isInteger(rank) || rank < 0 || rank >= table.starts.length - 1) return undefined;
  const from = table.starts[rank]!;
  const to = table.starts[rank + 1]!;
  return to > from ? table.bytes.subarray(from, to) : undefined;
}

/** Builds the table from each rank's bytes (`tokens[rank]`; empty for an unused rank). */
export function buildTable(tokens: readonly Uint8Array[]): BpeTable {
  const starts = new Uint32Array(tokens.length + 1);
  for (let rank = 0; rank < tokens.length; rank++) starts[rank + 1] = starts[rank]! + tokens[rank]!.length;
  const bytes = new Uint8Array(starts[tokens.length]!);
  tokens.forEach((token, rank) => bytes.set(token, starts[rank]));
  // A load of at most 40 % keeps probe runs short.
  let size = 1;
  while (size < tokens.length * 2.5) size *= 2;
  const table: BpeTable = { bytes, starts, slots: new Int32Array(size) };
  for (let rank = 0; rank < tokens.length; rank++) {
    const from = starts[rank]!;
    const to = starts[rank + 1]!;
    if (to === from || rankOf(table, bytes, from, to) !== NOT_A_TOKEN) continue;
    let slot = hash(bytes, from, to) & (size - 1);
    while (table.slots[slot] !== 0) slot = (slot + 1) & (size - 1);
    table.slots[slot] = rank + 1;
  }
  return table;
}

/** Whether `value` has the shape of a table (what a deserialized copy must pass before use). */
export function isBpeTable(value: unknown): value is BpeTable {
  const table = value as Partial<BpeTable> | null;
  return (
    table?.bytes instanceof Uint8Array &&
    table.starts instanceof Uint32Array &&
    table.slots instanceof Int32Array &&
    table.starts.length > 1 &&
    table.starts[table.starts.length - 1] === table.bytes.length &&
    table.slots.length > 0 &&
    (table.slots.length & (table.slots.length - 1)) === 0
  );
}
