// node bench/screen-rounds.mjs [rounds] [--favoured] — bench:screen with the type checker on, then
// off, back to back, several rounds (3 by default), each a fresh process; the load average is
// noted with each. On a machine others share, one run says little: compare rounds taken side
// by side, or pass --favoured to run each through favoured.mjs (as on an idle machine; root).
// Build first (npm run build).
import { spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";

const rounds = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 3);
const favoured = process.argv.includes("--favoured");
const screen = new URL("./screen.mjs", import.meta.url).pathname;
const wrapper = favoured ? [new URL("./favoured.mjs", import.meta.url).pathname, process.execPath] : [];
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const runs = [];
for (let round = 1; round <= rounds; round++) {
  for (const types of [true, false]) {
    const child = spawnSync(process.execPath, [...wrapper, screen, "--json", ...(types ? [] : ["--no-types"])], { encoding: "utf8" });
    const line = child.stdout.trim().split("\n").at(-1);
    if (child.status !== 0 || !line?.startsWith("{")) throw new Error(`bench/screen.mjs failed:\n${child.stdout}\n${child.stderr}`);
    const figures = JSON.parse(line);
    runs.push({ round, ...figures });
    const fmt = (x) => `${x.toFixed(1)} ms`.padStart(9);
    console.log(
      `round ${round}  type checker ${types ? "on " : "off"}  save → rows median ${fmt(figures.median)}  (run ${fmt(figures.run)}, rows ${fmt(figures.rows)})` +
        `  load ${figures.load[0].toFixed(1)} → ${figures.load[1].toFixed(1)}${types ? `  checker CPU on the path ${figures.checkerCpuOnPath} ms` : ""}`,
    );
  }
}
const of = (types) => runs.filter((r) => r.types === types).map((r) => r.median);
const on = median(of(true));
const off = median(of(false));
console.log(
  `median of the rounds' medians: on ${on.toFixed(1)} ms, off ${off.toFixed(1)} ms (on/off ${(on / off).toFixed(2)}), on ${availableParallelism()} cores${favoured ? ", favoured" : ""}`,
);
