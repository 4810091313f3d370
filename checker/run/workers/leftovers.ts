/**
 * What a file left behind in the worker process that ran it. A process kept for its owner's
 * next file (SpareProcesses.serve) must meet that file as a fresh one would: vitest resets
 * the modules, but a timer still pending, a socket still open, a patched global or prototype,
 * a changed environment variable or an added process listener would carry over. The pool
 * marks a file's start and asks after its end, over IPC; the worker (leftover-watch.ts)
 * snapshots and compares, and a worker that reports anything is not kept.
 */
import type { ChildProcess } from "node:child_process";
import { sendTo } from "./channel.js";

export const LEFTOVER_KEY = "__lab_leftovers__";
const KEY = LEFTOVER_KEY;

export type LeftoverMessage = { [KEY]: "start" } | { [KEY]: "check" } | { [KEY]: "found"; found: string[] };

/** Set in the environment of a worker forked for runs whose process may be kept: it readies itself for the checks. */
export const KEEPABLE_ENV = "LAB_KEEPABLE";

export const isLeftoverMessage = (message: unknown): message is LeftoverMessage => typeof message === "object" && message !== null && KEY in message;

/** How long the pool waits for the answer; no answer counts as a leftover. */
const ANSWER_MS = 2_000;

export const LEFTOVER_MESSAGES = {
  noAnswer: "the worker did not say what its file left behind",
  resource: (type: string, count: number) => `${count} × ${type} still active`,
  changed: (where: string) => `${where} was changed`,
  added: (where: string) => `${where} was added`,
  removed: (where: string) => `${where} was removed`,
  listeners: (event: string) => `process listeners for "${event}" changed`,
} as const;

/** Tells the worker a file of a process that may be kept is about to run (sent just before vitest's "run"). */
export function markFileStart(child: ChildProcess): void {
  sendTo(child, { [KEY]: "start" } satisfies LeftoverMessage);
}

/** What the worker's last file left behind, in words; empty when nothing. */
export function askForLeftovers(child: ChildProcess): Promise<string[]> {
  return new Promise((resolve) => {
    const done = (found: string[]) => {
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
      resolve(found);
    };
    const onMessage = (message: unknown) => {
      if (isLeftoverMessage(message) && message[KEY] === "found") done(message.found);
    };
    const onExit = () => done([LEFTOVER_MESSAGES.noAnswer]);
    const timer = setTimeout(onExit, ANSWER_MS);
    child.on("message", onMessage);
    child.once("exit", onExit);
    if (!sendTo(child, { [KEY]: "check" } satisfies LeftoverMessage)) onExit();
  });
}
