/**
 * The channel between the lab and a worker process, in place of Node's IPC. Learner code runs
 * in a thread of the worker (checker/realm/), and a thread can write into any file descriptor
 * of its process: into Node's IPC channel it could write a result the tests never reported,
 * and bytes that are no message at all made Node throw inside the lab's own process, killing
 * `lab grade`. Here every frame the worker sends carries an HMAC under a key only the worker's
 * main thread ever holds (the lab's first frame, read before any learner code exists), and the
 * lab reads frames defensively: a frame that is malformed or not signed ends that worker, with
 * a sentence, and never the lab.
 *
 * A frame: 4 bytes of length (big-endian, of what follows), 32 bytes of HMAC-SHA256 (zeros
 * from the lab), then the message as v8.serialize writes it (what Node's "advanced" IPC sends).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import { Socket } from "node:net";
import { deserialize, serialize } from "node:v8";

/** The worker's descriptor for the channel: the fourth of its stdio. */
export const CHANNEL_FD = 3;
const MAC_BYTES = 32;
/** Larger than any message vitest sends (a transformed module, when code goes over the channel). */
const MAX_FRAME = 256 * 2 ** 20;

export const CHANNEL_MESSAGES = {
  forged: (why: string) =>
    `The run was stopped: something in the test process wrote into the runner's channel what the tests never sent (${why}), as code writing to a file descriptor it does not own would. Nothing it reported counts.`,
  badLength: "a frame of impossible length",
  badMac: "a message without the worker's signature",
  unreadable: "bytes that are no message",
} as const;

const mac = (key: Buffer, payload: Buffer) => createHmac("sha256", key).update(payload).digest();

function frame(payload: Buffer, signature: Buffer = Buffer.alloc(MAC_BYTES)): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(MAC_BYTES + payload.length);
  return Buffer.concat([head, signature, payload]);
}

/** Splits a byte stream into frames; `onFrame` throws to refuse one, which stops the reader for good. */
function frameReader(onFrame: (signature: Buffer, payload: Buffer) => void, onRefused: (why: string) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  let refused = false;
  return (chunk) => {
    if (refused) return;
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 4) {
      const length = pending.readUInt32BE(0);
      if (length < MAC_BYTES || length > MAX_FRAME) {
        refused = true;
        return onRefused(CHANNEL_MESSAGES.badLength);
      }
      if (pending.length < 4 + length) return;
      const body = pending.subarray(4, 4 + length);
      pending = pending.subarray(4 + length);
      try {
        onFrame(body.subarray(0, MAC_BYTES), body.subarray(MAC_BYTES));
      } catch (error) {
        refused = true;
        return onRefused((error as Error).message);
      }
    }
  };
}

/**
 * The lab's end, on a process spawned with a pipe as its descriptor CHANNEL_FD. Frames the
 * worker signed arrive as the child's "message" events, as with Node's IPC; `send` writes to
 * it, and says false once the channel is gone. Anything else ends in one "forged" event with
 * its reason, after which nothing more is read. The first frame out hands the worker its key.
 */
export function openChannel(child: ChildProcess): void {
  const socket = child.stdio[CHANNEL_FD] as Socket;
  const key = randomBytes(MAC_BYTES);
  /** False once the channel is gone; a full buffer only waits. */
  const write = (payload: Buffer) => {
    if (socket.destroyed) return false;
    socket.write(frame(payload));
    return true;
  };
  write(key);
  const read = frameReader(
    (signature, payload) => {
      if (!timingSafeEqual(signature, mac(key, payload))) throw new Error(CHANNEL_MESSAGES.badMac);
      let message: unknown;
      try {
        message = deserialize(payload);
      } catch {
        throw new Error(CHANNEL_MESSAGES.unreadable);
      }
      child.emit("message", message);
    },
    (why) => {
      socket.destroy();
      child.emit("forged", why);
    },
  );
  socket.on("data", read);
  // A worker that is killed may leave a write half done; its exit reports it.
  socket.on("error", () => {});
  senders.set(child, (message) => write(serialize(message)));
}

const senders = new WeakMap<ChildProcess, (message: unknown) => boolean>();

/** Sends `message` to a worker over its channel; false once the channel is gone. */
export function sendTo(child: ChildProcess, message: unknown): boolean {
  return senders.get(child)?.(message) ?? false;
}

/**
 * The worker's end, installed by its preload before anything else runs: `process.send`,
 * `process.on("message")`, `process.connected` and "disconnect" behave as Node's IPC does, over
 * descriptor CHANNEL_FD. Resolves once the key has arrived; what is sent before that waits.
 */
export function joinChannel(): Promise<void> {
  const socket = new Socket({ fd: CHANNEL_FD, readable: true, writable: true });
  let key: Buffer | null = null;
  const waiting: Buffer[] = [];
  let connected = true;
  let keyed: () => void;
  const ready = new Promise<void>((resolve) => (keyed = resolve));
  const send = (message: unknown, ...rest: unknown[]): boolean => {
    const done = rest.find((arg): arg is (error: Error | null) => void => typeof arg === "function");
    const payload = serialize(message);
    if (!key) waiting.push(payload);
    else socket.write(frame(payload, mac(key, payload)));
    if (done) setImmediate(() => done(null));
    return connected;
  };
  // As Node's IPC does, what arrives before anyone listens waits for the first listener.
  const inbox: unknown[] = [];
  const emit = (message: unknown) => (process.emit as (event: string, message: unknown) => boolean)("message", message);
  const deliver = (message: unknown) => (process.listenerCount("message") === 0 ? inbox.push(message) : emit(message));
  process.on("newListener", (event) => {
    if (event === "message" && inbox.length > 0) setImmediate(() => inbox.splice(0).forEach(emit));
  });
  const read = frameReader(
    (_signature, payload) => {
      if (!key) {
        key = Buffer.from(payload);
        for (const held of waiting.splice(0)) socket.write(frame(held, mac(key, held)));
        return keyed();
      }
      deliver(deserialize(payload));
    },
    () => socket.destroy(),
  );
  socket.on("data", read);
  socket.on("error", () => {});
  socket.on("close", () => {
    connected = false;
    process.emit("disconnect");
  });
  Object.assign(process, { send, disconnect: () => socket.end() });
  Object.defineProperty(process, "connected", { get: () => connected, configurable: true });
  return ready;
}
