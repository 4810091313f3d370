/**
 * The o200k_base encoding every provider counts with: text split with gpt-tokenizer's own
 * o200k pattern, each piece byte-pair merged over the table in o200k-table.ts. Special tokens
 * do not exist here: a prompt is text, and "<|endoftext|>" in one is counted as the
 * characters it is. A test holds encode() equal to gpt-tokenizer's on varied text.
 */
import { O200K_TOKEN_SPLIT_REGEX } from "gpt-tokenizer/encodingParams/constants";
import { NOT_A_TOKEN, rankOf, tokenBytes } from "./bpe-table.js";
import { loadTable } from "./o200k-table.js";
import { TextMemo } from "./text-memo.js";

const { table } = loadTable();
const utf8 = new TextEncoder();

/** The current piece's UTF-8 bytes; grown as pieces need. */
let scratch = new Uint8Array(256);

function pieceToScratch(piece: string): number {
  if (scratch.length < piece.length * 3) scratch = new Uint8Array(piece.length * 3);
  // Most pieces are ASCII, and copying char codes beats a call into the encoder.
  for (let i = 0; i < piece.length; i++) {
    const code = piece.charCodeAt(i);
    if (code >= 0x80) return utf8.encodeInto(piece, scratch).written;
    scratch[i] = code;
  }
  return piece.length;
}

/**
 * The tokens of every piece seen so far (a rank, or the ranks it merges into): prompts repeat
 * their words turn after turn, and a Map hit is cheaper than hashing the bytes again in a
 * process too short-lived for that code to be optimized. Bounded by characters plus 40 for each
 * entry (about what a Map entry costs), so it stays a few MB whatever a long-running provider is
 * sent: some 40,000 pieces, more than the words of a long transcript.
 */
const seen = new TextMemo<number | number[]>(2_000_000, 40);

const rankOrInfinity = (from: number, to: number | undefined): number => {
  if (to === undefined) return Infinity;
  const rank = rankOf(table, scratch, from, to);
  return rank === NOT_A_TOKEN ? Infinity : rank;
};

/**
 * Byte-pair merging of `scratch[0..length)`: start from single bytes and, while any adjacent
 * pair is a token, merge the pair with the lowest rank (the leftmost one on a tie).
 */
function mergeScratch(length: number): number[] {
  const starts = Array.from({ length: length + 1 }, (_, i) => i);
  // pairRanks[i]: the rank of parts i and i + 1 joined.
  const pairRanks = starts.map((from, i) => rankOrInfinity(from, starts[i + 2]));
  while (starts.length > 1) {
    let lowest = Infinity;
    let at = -1;
    for (let i = 0; i < pairRanks.length - 1; i++) {
      if (pairRanks[i]! < lowest) {
        lowest = pairRanks[i]!;
        at = i;
      }
    }
    if (at === -1) break;
    starts.splice(at + 1, 1);
    pairRanks.splice(at, 1);
    pairRanks[at] = rankOrInfinity(starts[at]!, starts[at + 2]);
    if (at > 0) pairRanks[at - 1] = rankOrInfinity(starts[at - 1]!, starts[at + 1]);
  }
  const tokens: number[] = [];
  for (let i = 0; i < starts.length - 1; i++) {
    const rank = rankOf(table, scratch, starts[i]!, starts[i + 1]!);
    // Each part is one byte or a pair merged because it was a token; every byte is one too.
    if (rank === NOT_A_TOKEN) throw new Error("o200k_base is missing a token its own merge produced.");
    tokens.push(rank);
  }
  return tokens;
}

function tokensOf(piece: string): number | number[] {
  const length = pieceToScratch(piece);
  const whole = rankOf(table, scratch, 0, length);
  return whole === NOT_A_TOKEN ? mergeScratch(length) : whole;
}

/** The tokens of one piece of text (as split by the o200k pattern), remembered. */
function tokensOfPiece(piece: string): number | number[] {
  let tokens = seen.get(piece);
  if (tokens === undefined) {
    tokens = tokensOf(piece);
    seen.set(piece, tokens);
  }
  return tokens;
}

/**
 * One regex object for every call: matchAll() would clone the pattern each time, and a clone
 * made after a garbage collection (which clears V8's regex cache) compiles the large Unicode
 * pattern again, ~5 ms in a rerun that counts a few KB.
 */
const SPLIT = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, O200K_TOKEN_SPLIT_REGEX.flags);

/** The o200k pieces of `text`, in order (each call restarts the shared regex). */
function* piecesOf(text: string): Generator<string> {
  SPLIT.lastIndex = 0;
  for (let match = SPLIT.exec(text); match !== null; match = SPLIT.exec(text)) yield match[0];
}

export function encode(text: string): number[] {
  const out: number[] = [];
  for (const piece of piecesOf(text)) {
    const tokens = tokensOfPiece(piece);
    if (typeof tokens === "number") out.push(tokens);
    else for (const token of tokens) out.push(token);
  }
  return out;
}

export function countTokens(text: string): number {
  let count = 0;
  for (const piece of piecesOf(text)) {
    const tokens = tokensOfPiece(piece);
    count += typeof tokens === "number" ? 1 : tokens.length;
  }
  return count;
}

/** The text of `tokens`; a character cut in half at the end (by truncation) is left out. */
export function decode(tokens: readonly number[]): string {
  const parts = tokens.map((rank) => {
    const bytes = tokenBytes(table, rank);
    if (!bytes) throw new Error(`${rank} is not an o200k_base token.`);
    return bytes;
  });
  // In streaming mode an incomplete last character waits for bytes that never come.
  return new TextDecoder().decode(Buffer.concat(parts), { stream: true });
}
