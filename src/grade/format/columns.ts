/** Plain-text columns: padded to the widest cell, long cells cut with an ellipsis. */

export interface Column {
  header: string;
  align?: "left" | "right";
  /** Cells longer than this are cut. */
  max?: number;
}

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
/** One line per cell: newlines and tabs in learner-made text must not break the table. */
const flat = (text: string) => text.replace(/[\r\n\t]+/g, " ").trim();

export function columns(spec: Column[], rows: string[][]): string[] {
  const cells = [spec.map((c) => c.header), ...rows.map((row) => row.map((cell, i) => cut(flat(cell), spec[i]?.max ?? Infinity)))];
  const widths = spec.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  return cells.map((row) =>
    row
      .map((cell, i) => (spec[i]!.align === "right" ? cell.padStart(widths[i]!) : i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd(),
  );
}
