import { expect, test } from "vitest";
import { EDITOR_MESSAGES, openInEditor, splitCommand } from "../../../src/screen/open-editor.js";
import { fileLink } from "../../../src/screen/terminal-link.js";
import { until } from "../../support/until.js";

test("an editor command splits into a program and arguments, quotes kept together", () => {
  expect(splitCommand("code -g")).toEqual(["code", "-g"]);
  expect(splitCommand(`"/Applications/My Editor.app/bin/edit" --wait 'a b'`)).toEqual(["/Applications/My Editor.app/bin/edit", "--wait", "a b"]);
});

test("an editor that cannot be started is one sentence, not a crash", async () => {
  const said: string[] = [];
  openInEditor("no-such-editor-for-lab --wait", "/ws/01-adder.ts", (s) => said.push(s));
  await until(() => said.length > 0, "the failure being reported", 10_000);
  expect(said).toEqual([EDITOR_MESSAGES.failed("no-such-editor-for-lab --wait", "spawn no-such-editor-for-lab ENOENT")]);
  expect(said[0]).toBe('Could not open your editor with "no-such-editor-for-lab --wait" (spawn no-such-editor-for-lab ENOENT); open the file yourself.');
});

test("the file's path is an OSC 8 link to its file URL, showing the plain path", () => {
  expect(fileLink("/ws/a b.ts")).toBe("\u001B]8;;file:///ws/a%20b.ts\u0007/ws/a b.ts\u001B]8;;\u0007");
});
