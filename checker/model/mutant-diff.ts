/**
 * A mutant stored as its bug: a unified diff against the solution or another committed file of
 * its exercise. The text before `---` says what the mutant gets wrong; `--- a/<base>` names the
 * file it changes (relative to the lab's folder); each hunk is anchored by its own lines, not by
 * the line numbers in its `@@` header: it must match exactly one place in the base, so a base
 * that drifted away from a mutant, or a hunk that could land in two places, is an error naming
 * the diff's file and line instead of a mutant that quietly tests something else.
 */

export interface Hunk {
  /** The `@@` line's number in the diff file (1-based). */
  line: number;
  /** The body's lines with their diff line numbers: " " context, "-" removed, "+" added. */
  body: { kind: " " | "-" | "+"; text: string; line: number }[];
}

export interface MutantDiff {
  /** What the mutant gets wrong, in words (the text before `---`). */
  note: string;
  /** The base file, as the diff names it: "solutions/NN-slug.ts", "exercises/NN-slug/alternatives/x.ts". */
  base: string;
  /** The `---` line's number in the diff file. */
  baseLine: number;
  hunks: Hunk[];
}

export class MutantDiffError extends Error {
  override name = "MutantDiffError";
}

export const MUTANT_DIFF_MESSAGES = {
  noHeader: "has no '--- a/<base file>' and '+++ b/<mutant file>' lines, so it names no file to change",
  noHunks: "changes nothing: it has no @@ hunk",
  badHunkHeader: (text: string) => `"${text}" is not a hunk header (@@ -start,count +start,count @@)`,
  badLine: (text: string) => `"${text}" is not a diff line (it must start with a space, "-" or "+")`,
  counts: (oldCount: number, newCount: number, header: string) =>
    `the hunk has ${oldCount} old and ${newCount} new lines, but its header "${header}" says otherwise`,
  noChange: "the hunk changes no line",
  missing: (base: string, text: string) => `no longer applies to ${base}: this line is not there as written after the ones above it: ${JSON.stringify(text)}`,
  twice: (base: string, lines: number[]) => `applies in ${lines.length} places in ${base} (lines ${lines.join(" and ")}): add context lines until it fits one`,
  overlap: "overlaps the hunk before it",
} as const;

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const stripPrefix = (path: string, prefix: string) => (path.startsWith(prefix) ? path.slice(prefix.length) : path);

/** Reads a diff; `where` is how errors name it ("exercises/NN-slug/mutants/<bug>.diff"). */
export function parseMutantDiff(text: string, where: string): MutantDiff {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  if (lines.at(-1) === "") lines.pop();
  const fail = (index: number, why: string): never => {
    throw new MutantDiffError(`${where}:${index + 1}: ${why}`);
  };
  const from = lines.findIndex((l, i) => l.startsWith("--- ") && lines[i + 1]?.startsWith("+++ "));
  if (from < 0) fail(0, MUTANT_DIFF_MESSAGES.noHeader);
  const note = lines.slice(0, from).join("\n").trim();
  const base = stripPrefix(lines[from]!.slice(4).split("\t")[0]!.trim(), "a/");
  const hunks: Hunk[] = [];
  let i = from + 2;
  while (i < lines.length) {
    const header = HUNK_HEADER.exec(lines[i]!);
    if (!header) fail(i, MUTANT_DIFF_MESSAGES.badHunkHeader(lines[i]!));
    const hunk: Hunk = { line: i + 1, body: [] };
    const at = i;
    for (i++; i < lines.length && !lines[i]!.startsWith("@@"); i++) {
      const text = lines[i]!;
      if (text.startsWith("\\")) continue; // "\ No newline at end of file"
      const kind = text === "" ? " " : text[0];
      if (kind !== " " && kind !== "-" && kind !== "+") fail(i, MUTANT_DIFF_MESSAGES.badLine(text));
      hunk.body.push({ kind: kind as " " | "-" | "+", text: text.slice(1), line: i + 1 });
    }
    const oldCount = hunk.body.filter((b) => b.kind !== "+").length;
    const newCount = hunk.body.filter((b) => b.kind !== "-").length;
    if (oldCount !== Number(header![2] ?? 1) || newCount !== Number(header![4] ?? 1))
      fail(at, MUTANT_DIFF_MESSAGES.counts(oldCount, newCount, lines[at]!.replace(/ @@.*$/, " @@")));
    if (hunk.body.every((b) => b.kind === " ")) fail(at, MUTANT_DIFF_MESSAGES.noChange);
    hunks.push(hunk);
  }
  if (hunks.length === 0) fail(from, MUTANT_DIFF_MESSAGES.noHunks);
  return { note, base, baseLine: from + 1, hunks };
}

/** Every line index of `base` where `old` starts. */
function placesOf(base: string[], old: string[]): number[] {
  const places: number[] = [];
  for (let start = 0; start + old.length <= base.length; start++) {
    if (old.every((text, k) => base[start + k] === text)) places.push(start);
  }
  return places;
}

/** The first line of the hunk that no place in the base matches after the lines before it. */
function firstMismatch(base: string[], old: Hunk["body"]): Hunk["body"][number] {
  let longest = 0;
  for (let start = 0; start < base.length; start++) {
    let k = 0;
    while (k < old.length && base[start + k] === old[k]!.text) k++;
    longest = Math.max(longest, k);
  }
  return old[longest] ?? old[0]!;
}

/** The base with every hunk applied; `where` names the diff, `baseLabel` the base, in errors. */
export function applyMutantDiff(baseText: string, diff: MutantDiff, where: string, baseLabel = diff.base): string {
  const base = baseText.split("\n");
  const edits = diff.hunks.map((hunk) => {
    const old = hunk.body.filter((b) => b.kind !== "+");
    const places = placesOf(
      base,
      old.map((b) => b.text),
    );
    if (places.length === 0) {
      const missing = firstMismatch(base, old);
      throw new MutantDiffError(`${where}:${missing.line}: ${MUTANT_DIFF_MESSAGES.missing(baseLabel, missing.text)}`);
    }
    if (places.length > 1)
      throw new MutantDiffError(
        `${where}:${hunk.line}: ${MUTANT_DIFF_MESSAGES.twice(
          baseLabel,
          places.map((p) => p + 1),
        )}`,
      );
    return { hunk, start: places[0]!, length: old.length, added: hunk.body.filter((b) => b.kind !== "-").map((b) => b.text) };
  });
  const ordered = [...edits].sort((a, b) => a.start - b.start);
  ordered.forEach((edit, k) => {
    const before = ordered[k - 1];
    if (before && edit.start < before.start + before.length) throw new MutantDiffError(`${where}:${edit.hunk.line}: ${MUTANT_DIFF_MESSAGES.overlap}`);
  });
  const out = [...base];
  for (const edit of ordered.reverse()) out.splice(edit.start, edit.length, ...edit.added);
  return out.join("\n");
}
