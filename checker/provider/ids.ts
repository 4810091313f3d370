import { createHash, randomBytes } from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

function encode(bytes: Uint8Array, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHABET[bytes[i % bytes.length]! % ALPHABET.length];
  return out;
}

/** `msg_01…` with 22 random characters, the shape the real API uses. */
export const messageId = (): string => `msg_01${encode(randomBytes(22), 22)}`;

/** `req_01…`: sent back in the `request-id` header and in error bodies. */
export const requestId = (): string => `req_01${encode(randomBytes(22), 22)}`;

/** `toolu_01…`, derived from the conversation so the same request always gets the same ids. */
export const toolUseId = (seed: string): string => `toolu_01${encode(createHash("sha256").update(seed).digest(), 22)}`;
