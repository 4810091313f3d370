// node bench/screen-rounds.mjs [rounds] [--favoured] [--exercise N[,M]] [--saves N] — bench:screen with
// the type checker on, then off, back to back, several rounds (3 by default), each a fresh process;
// exercise 1 unless --exercise says otherwise. The load average is noted with each. On a machine
// others share, one run says little: compare rounds taken side by side, or pass --favoured to run
// each through favoured.mjs (as on an idle machine; root). Build first (npm run build).
import { spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";
import { median } from "./side-by-side.mjs";

const args = process.argv.slice(2);
const VALUED = ["--exercise", "--saves"];
const rounds = Number(args.find((a, i) => /^\d+$/.test(a) && !VALUED.includes(args[i - 1] ?? "")) ?? 3);
const favoured = args.includes("--favoured");
const passed = (flag, fallback) => {
  const at = args.indexOf(flag);
  return at >= 0 ? [flag, args[at + 1]] : fallback;
};
const forwarded = [...passed("--exercise", ["--exercise", "1"]), ...passed("--saves", [])];
const screen = new URL("./screen.mjs", import.meta.url).pathname;
const wrapper = favoured ? [new URL("./favoured.mjs", import.meta.url).pathname, process.execPath] : [];

const runs = [];
for (let round = 1; round <= rounds; round++) {
  for (const types of [true, false]) {
    const child = spawnSync(process.execPath, [...wrapper, screen, "--json", ...forwarded, ...(types ? [] : ["--no-types"])], { encoding: "utf8" });
    const line = child.stdout.trim().split("\n").at(-1);
    if (child.status !== 0 || !line?.startsWith("{")) throw new Error(`bench/screen.mjs failed:\n${child.stdout}\n${child.stderr}`);
    const { load, exercises } = JSON.parse(line);
    const fmt = (x) => `${x.toFixed(1)} ms`.padStart(9);
    for (const figures of exercises) {
      runs.push({ round, types, ...figures });
      console.log(
        `round ${round}  exercise ${String(figures.number).padStart(2)}  type checker ${types ? "on " : "off"}  save → rows median ${fmt(figures.median)}` +
          `  (run ${fmt(figures.run)}, rows ${fmt(figures.rows)})  load ${load[0].toFixed(1)} → ${load[1].toFixed(1)}` +
          `${types ? `  checker CPU on the path ${figures.checkerCpuOnPath} ms` : ""}`,
      );
    }
  }
}
for (const number of new Set(runs.map((r) => r.number))) {
  const of = (types) => median(runs.filter((r) => r.number === number && r.types === types).map((r) => r.median));
  const [on, off] = [of(true), of(false)];
  console.log(
    `exercise ${number}: median of the rounds' medians: on ${on.toFixed(1)} ms, off ${off.toFixed(1)} ms (on/off ${(on / off).toFixed(2)}), on ${availableParallelism()} cores${favoured ? ", favoured" : ""}`,
  );
}
