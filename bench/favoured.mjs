// node bench/favoured.mjs node bench/screen.mjs … — a bench as on an idle machine, on one that others load.
//
// Linux shares the CPU between sessions (autogroups) first, and the runner's workers each
// start a session of their own, so on a loaded machine a bench measures the load. This runs
// the command in a new session and gives it, and every session its processes start, the
// autogroup nice FAVOURED_NICE (default -15): the bench's processes then get the CPU before
// others', and among themselves are weighed as before (each session equal, as on an idle
// machine). Linux only; a negative nice needs root (CAP_SYS_NICE). Leaves nothing behind: the
// autogroups go with their sessions.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const NICE = Number(process.env.FAVOURED_NICE ?? -15);
const POLL_MS = 5; // a spare worker is forked after each run; it is favoured well before the next save
const [command, ...args] = process.argv.slice(2);
if (!command) throw new Error("Usage: node bench/favoured.mjs <command> [args…]");

const child = spawn(command, args, { stdio: "inherit", detached: true });
const favoured = new Set();
let refused = false;

function favour(pid) {
  if (favoured.has(pid)) return;
  try {
    if (/ nice 0$/.test(readFileSync(`/proc/${pid}/autogroup`, "utf8").trim())) writeFileSync(`/proc/${pid}/autogroup`, String(NICE));
    favoured.add(pid);
  } catch (err) {
    const code = /** @type {NodeJS.ErrnoException} */ (err).code;
    if (code === "EACCES" || code === "EPERM") refused = true;
  }
}

const childrenOf = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};
const favourTree = (pid) => {
  favour(pid);
  for (const c of childrenOf(pid)) favourTree(c);
};

const poll = setInterval(() => favourTree(child.pid), POLL_MS);
child.on("exit", (code) => {
  clearInterval(poll);
  if (refused) console.error(`favoured.mjs: could not set nice ${NICE} on every session (not root?): the figures are not favoured.`);
  process.exitCode = code ?? 1;
});
