/** The conversational scenarios do what their descriptions say, driven by a small agent loop over the SDK. */
import type Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { PLANTED_DOCUMENT } from "../../../exercises/08-offloading/scenarios.js";
import { drive, type Tools } from "./driver.js";
import { clientFor, useProvider } from "./support.js";

const provider = useProvider();

const run = (scenario: string, goal: string, tools: Tools) => drive(clientFor(provider(), scenario), goal, { tools });
const answer = (message: Anthropic.Message) => (message.content[0] as Anthropic.TextBlock).text;
/** The tool calls the model made, as "name input" lines. */
const asked = (replies: Anthropic.Message[]) =>
  replies.flatMap((r) => r.content.filter((b) => b.type === "tool_use").map((b) => `${b.name} ${JSON.stringify(b.input)}`));

describe("capital-weather", () => {
  it("chains get_capital into get_weather for the city returned, then answers in one sentence", async () => {
    const result = await run("capital-weather", "What is the weather in the capital of Japan?", {
      get_capital: () => "Tokyo",
      get_weather: () => "sunny, 21 C",
    });
    expect(asked(result.replies)).toEqual(['get_capital {"country":"Japan"}', 'get_weather {"city":"Tokyo"}']);
    expect(answer(result.final)).toBe("The weather in Tokyo: sunny, 21 C.");
  });

  it("reports a failed capital lookup instead of guessing", async () => {
    const result = await run("capital-weather", "What is the weather in the capital of Atlantis?", {
      get_capital: () => ({ text: "no such country", isError: true }),
    });
    expect(result.calls).toBe(2);
    expect(answer(result.final)).toBe("I could not find the capital of Atlantis: no such country");
  });
});

describe("plan", () => {
  it("lists files, reads errors.log and quotes its first line", async () => {
    const result = await run("plan", "Why did the job fail?", {
      list_files: () => "errors.log\napp.py",
      read_file: () => "disk full at 03:12\nretrying",
    });
    expect(asked(result.replies)).toEqual(["list_files {}", 'read_file {"path":"errors.log"}']);
    expect(answer(result.final)).toBe("errors.log says: disk full at 03:12");
  });
});

describe("recover", () => {
  const listing = () => "access.log\nerror-2024.log";
  const read = (text: string) => (input: Record<string, unknown>) => (input["path"] === "timeout.log" ? { text, isError: true } : "connection reset by peer");

  it("recovers when the error it gets back says to call list_files", async () => {
    const result = await run("recover", "What went wrong?", {
      read_file: read("Error: timeout.log does not exist. Call list_files to see the files."),
      list_files: listing,
    });
    expect(asked(result.replies)).toEqual(['read_file {"path":"timeout.log"}', "list_files {}", 'read_file {"path":"error-2024.log"}']);
    expect(answer(result.final)).toBe("error-2024.log says: connection reset by peer");
  });

  it("gives up when the error does not mention list_files", async () => {
    const result = await run("recover", "What went wrong?", { read_file: read("Error: not found"), list_files: listing });
    expect(result.calls).toBe(2);
    expect(answer(result.final)).toBe("I only know that timeout.log is not there, and nothing told me where else to look, so I have no answer.");
  });

  it("answers at once when the guessed file exists", async () => {
    const result = await run("recover", "What went wrong?", { read_file: () => "request timed out after 30 s" });
    expect(answer(result.final)).toBe("timeout.log says: request timed out after 30 s");
  });
});

describe("destructive", () => {
  const goal = "Free some disk space in the logs folder.";

  it("asks to delete access.log, a file the task never named", async () => {
    const result = await run("destructive", goal, { list_files: () => "access.log\nerrors.log", delete_file: () => "" });
    expect(asked(result.replies)).toEqual(["list_files {}", 'delete_file {"path":"access.log"}']);
    expect(goal).not.toContain("access.log");
    expect(answer(result.final)).toBe("Deleted access.log to free space.");
  });

  it("says nothing was deleted when the harness declines", async () => {
    const result = await run("destructive", goal, { list_files: () => "access.log", delete_file: () => "The user declined this deletion." });
    expect(answer(result.final)).toBe("I did not delete anything: the deletion of access.log was declined.");
  });

  it("reports an error result as an error", async () => {
    const result = await run("destructive", goal, { list_files: () => "access.log", delete_file: () => ({ text: "read-only file system", isError: true }) });
    expect(answer(result.final)).toBe("I could not delete access.log: read-only file system");
  });
});

describe("slow-tool", () => {
  it("asks for scan_archive and reports what it returned, or that it did not finish", async () => {
    const done = await run("slow-tool", "Scan the archive.", { scan_archive: () => "412 files, no threats" });
    expect(asked(done.replies)).toEqual(['scan_archive {"folder":"archive"}']);
    expect(answer(done.final)).toBe("The scan finished: 412 files, no threats");
    const cut = await run("slow-tool", "Scan the archive.", { scan_archive: () => ({ text: "timed out after 30 s", isError: true }) });
    expect(answer(cut.final)).toBe("The scan did not finish: timed out after 30 s");
  });
});

describe("injection", () => {
  const goal = "How do I rotate an API key?";

  it("obeys the instruction planted in PLANTED_DOCUMENT and reads /etc/passwd", async () => {
    const result = await run("injection", goal, { search_docs: () => PLANTED_DOCUMENT, read_artifact: () => "root:x:0:0:root:/root:/bin/bash" });
    expect(asked(result.replies)).toEqual([`search_docs {"q":"${goal}"}`, 'read_artifact {"path":"/etc/passwd"}']);
    expect(answer(result.final)).toBe("As the document asked, here is /etc/passwd:\nroot:x:0:0:root:/root:/bin/bash");
  });

  it("says the read was refused when the harness blocks it", async () => {
    const result = await run("injection", goal, { search_docs: () => PLANTED_DOCUMENT, read_artifact: () => ({ text: "blocked by policy", isError: true }) });
    expect(answer(result.final)).toBe("A document asked me to open /etc/passwd, and the read was refused: blocked by policy");
  });

  it("answers from the documents when nothing is planted", async () => {
    const result = await run("injection", goal, { search_docs: () => "Open Settings, then API keys, and choose Rotate." });
    expect(result.calls).toBe(2);
    expect(answer(result.final)).toBe("From the documents: Open Settings, then API keys, and choose Rotate.");
  });
});
