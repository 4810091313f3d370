/** Requests that used to kill the provider: each one now gets an answer in the API's error shape, and the server lives on. */
import { describe, expect, it } from "vitest";
import { startProvider } from "../../../checker/provider/index.js";
import { defineScenario, fault, text } from "../../../checker/provider/scenarios/helpers.js";
import { HTTP_MESSAGES } from "../../../checker/provider/http-io.js";
import { ROUTE_MESSAGES } from "../../../checker/provider/route.js";
import { SERVER_MESSAGES } from "../../../checker/provider/server.js";
import { ask, clientFor, expectErrorResponse, MODEL, notErrorShape, post, rawHttp, useProvider } from "./support.js";

const provider = useProvider({
  scenarios: [
    defineScenario({ name: "status-99", description: "a fault with a status HTTP cannot carry", reply: () => fault(99, "odd") }),
    defineScenario({
      name: "evil-header",
      description: "a header value with a line break",
      reply: () => fault(429, "x", { headers: { "retry-after": "1\r\nX-Evil: 1" } }),
    }),
    defineScenario({
      name: "throws-null",
      description: "throws something that is not an Error",
      reply: () => {
        throw null;
      },
    }),
    defineScenario({ name: "verbose", description: "writes 3 MB", reply: () => text("word ".repeat(600_000)) }),
  ],
});
const body = JSON.stringify(ask("hi"));

async function stillServing(): Promise<void> {
  expect((await clientFor(provider(), "echo").messages.create(ask("still there?"))).content[0]).toMatchObject({ text: "You said: still there?" });
}

describe("paths that used to throw before any try", () => {
  it.each([
    ["/s/%ZZ/v1/messages", "%ZZ"],
    ["/s/%/v1/messages", "%"],
    ["/s/weather/a=%ZZ/v1/messages", "a=%ZZ"],
    ["/s/rate-limited/%E0%A4%A=1/v1/messages", "%E0%A4%A=1"],
  ])("POST %s is a 400 naming the broken segment", async (path, segment) => {
    expectErrorResponse(await post(provider(), path, body), 400, ROUTE_MESSAGES.badEncoding(segment));
    await stillServing();
  });
});

describe("options that used to reach the error path unchecked", () => {
  it("status=99 on server-errors is a 400 naming the option and its range", async () => {
    expectErrorResponse(
      await post(provider(), "/s/server-errors/status=99/v1/messages", body),
      400,
      'Option "status" of scenario "server-errors" must be an integer from 500 to 599; got "99".',
    );
    await stillServing();
  });

  it("a header injection in retryAfterMs is a 400, and no header of its own reaches the wire", async () => {
    const got = await post(provider(), "/s/rate-limited/retryAfterMs=%0D%0AX-Evil:%201/v1/messages", body);
    expectErrorResponse(got, 400, 'Option "retryAfterMs" of scenario "rate-limited" must be a number from 0 to 3600000; got "\\r\\nX-Evil: 1".');
    expect(got.headers.get("x-evil")).toBeNull();
    await stillServing();
  });
});

describe("a scenario that misbehaves is a 500 api_error, never an exit", () => {
  it("a fault with status 99", async () => {
    expectErrorResponse(await post(provider(), "/s/status-99/v1/messages", body), 500, SERVER_MESSAGES.badFaultStatus("status-99", 99));
    await stillServing();
  });

  it("a fault header with a line break in it", async () => {
    const got = await post(provider(), "/s/evil-header/v1/messages", body);
    expectErrorResponse(got, 500, SERVER_MESSAGES.badFaultHeader("evil-header", "retry-after"));
    expect(got.headers.get("x-evil")).toBeNull();
    await stillServing();
  });

  it("a reply past the cap on what a scenario may write", async () => {
    expectErrorResponse(await post(provider(), "/s/verbose/v1/messages", body), 500, SERVER_MESSAGES.replyTooLarge("verbose", 3_000_000));
    await stillServing();
  });

  it("a reply function that throws null", async () => {
    expectErrorResponse(await post(provider(), "/s/throws-null/v1/messages", body), 500, SERVER_MESSAGES.scenarioFailed("throws-null", "null"));
    await stillServing();
  });
});

describe("the last resort", () => {
  it("turns a throw outside every expected path (a clock that breaks) into a 500, tells onInternalError, and keeps serving", async () => {
    let broken = true;
    const logged: string[] = [];
    const own = await startProvider({
      now: () => {
        if (broken) throw new Error("the clock broke");
        return 0;
      },
      onInternalError: (err) => logged.push((err as Error).message),
    });
    try {
      expectErrorResponse(await post(own, "/s/echo/v1/messages", body), 500, SERVER_MESSAGES.internal("the clock broke"));
      expect(logged).toEqual(["the clock broke"]);
      broken = false;
      expect((await clientFor(own).messages.create(ask("after"))).content[0]).toMatchObject({ text: "You said: after" });
    } finally {
      await own.close();
    }
  });

  it("reports a throw in the middle of a request (the clock breaks after the first reading) and answers 500", async () => {
    let readings = 0;
    const logged: string[] = [];
    const own = await startProvider({
      now: () => {
        if (++readings > 1) throw new Error("the clock broke later");
        return 0;
      },
      onInternalError: (err) => logged.push((err as Error).message),
    });
    try {
      expectErrorResponse(await post(own, "/s/echo/v1/messages", body), 500, SERVER_MESSAGES.internal("the clock broke later"));
      expect(logged).toEqual(["the clock broke later"]);
    } finally {
      await own.close();
    }
  });

  it.each([
    ["GARBAGE\r\n\r\n", "HPE_INVALID_METHOD"],
    ["POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: zz\r\n\r\n", "HPE_INVALID_CONTENT_LENGTH"],
    ["P\u0000ST / HTTP/1.1\r\n\r\n", "HPE_INVALID_METHOD"],
    ["POST /s/echo/v1/messages HTTP/1.1\r\nX: a\u0001b\r\n\r\n", "HPE_INVALID_HEADER_TOKEN"],
  ])("answers bytes that are not HTTP (%j) with a 400 in the API's shape", async (bytes, code) => {
    const got = await rawHttp(provider(), bytes);
    expect(notErrorShape(got)).toBeNull();
    expect(got.json).toMatchObject({ error: { message: HTTP_MESSAGES.notHttp(code) } });
    await stillServing();
  });
});

it("keeps MODEL a model the provider knows", () => {
  expect(MODEL).toBe("claude-opus-5");
});
