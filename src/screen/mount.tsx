import { render, type Instance } from "#ink";
import type { ReactElement } from "react";
import type { Io } from "../terminal/io.js";

/**
 * Draws an interactive screen on the command's own streams. Ctrl-C is a key the screen
 * handles (it restores the terminal and stops runs), and console output from the process
 * must not move the frame. `maxFps` 60: a run's last rows land right after its first ones,
 * and a shorter throttle draws them sooner.
 */
const MAX_FPS = 60;

/** Ink draws at most one frame per this many milliseconds; a frame asked for sooner comes at its end. */
export const FRAME_MS = Math.ceil(1000 / MAX_FPS);

export function mountScreen(io: Io, node: ReactElement): Instance {
  return render(node, {
    stdout: io.stdout as NodeJS.WriteStream,
    stdin: io.stdin as NodeJS.ReadStream,
    stderr: io.stderr as NodeJS.WriteStream,
    exitOnCtrlC: false,
    patchConsole: false,
    maxFps: MAX_FPS,
  });
}
