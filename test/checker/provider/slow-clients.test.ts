/** Clients that never finish their request are cut off, with timeouts short enough for a test. */
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { ask, clientFor, useProvider } from "./support.js";

const provider = useProvider({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
const head = (length: number) =>
  `POST /s/echo/v1/messages HTTP/1.1\r\nHost: x\r\nx-api-key: k\r\nanthropic-version: 2023-06-01\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n`;

/** Sends `bytes` and never more; resolves "closed" when the server ends the socket, "open" if it has not after `waitMs`. */
function sendAndStall(bytes: string, waitMs: number): Promise<"closed" | "open"> {
  return new Promise((resolve) => {
    const socket = connect(provider().port, "127.0.0.1");
    const timer = setTimeout(() => {
      resolve("open");
      socket.destroy();
    }, waitMs);
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve("closed");
    });
    if (bytes) socket.write(bytes);
  });
}

// The waits are 25× the timeouts under test: a busy machine is slow, not that slow.
const WAIT = 10_000;

describe("slow clients", () => {
  it("closes a connection that sends nothing, half a head, or half a body", async () => {
    const half = JSON.stringify(ask("hi")).slice(0, 10);
    const outcomes = await Promise.all([
      sendAndStall("", WAIT),
      sendAndStall("POST /s/echo/v1/messages HTTP/1.1\r\nHost: x\r\n", WAIT),
      sendAndStall(head(100) + half, WAIT),
    ]);
    expect(outcomes).toEqual(["closed", "closed", "closed"]);
  });

  it("200 half-sent requests are all closed, and a whole request is answered meanwhile", async () => {
    const stalled = Array.from({ length: 200 }, (_, i) => sendAndStall(i % 2 ? head(1000) + "{" : "POST / HTTP/1.1\r\n", WAIT));
    const reply = await clientFor(provider()).messages.create(ask("still here"));
    expect(reply.content[0]).toMatchObject({ text: "You said: still here" });
    const outcomes = await Promise.all(stalled);
    expect(outcomes.filter((o) => o === "open")).toHaveLength(0);
  }, 30_000);
});
