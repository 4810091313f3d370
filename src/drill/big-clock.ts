/**
 * A clock three terminal rows tall: each glyph is 3×5 pixels, two pixel rows per text row
 * drawn with half blocks, so it reads from across the room and still fits a small terminal.
 */
const GLYPHS: Record<string, string[]> = {
  "0": ["###", "#.#", "#.#", "#.#", "###"],
  "1": [".#.", "##.", ".#.", ".#.", "###"],
  "2": ["###", "..#", "###", "#..", "###"],
  "3": ["###", "..#", "###", "..#", "###"],
  "4": ["#.#", "#.#", "###", "..#", "..#"],
  "5": ["###", "#..", "###", "..#", "###"],
  "6": ["###", "#..", "###", "#.#", "###"],
  "7": ["###", "..#", "..#", "..#", "..#"],
  "8": ["###", "#.#", "###", "#.#", "###"],
  "9": ["###", "#.#", "###", "..#", "###"],
  ":": [".", "#", ".", "#", "."],
};

const cell = (top: boolean, bottom: boolean) => (top && bottom ? "█" : top ? "▀" : bottom ? "▄" : " ");

/** `text` (digits and colons) as three rows of half blocks, glyphs one column apart. */
export function bigText(text: string): string[] {
  const glyphs = [...text].map((c) => GLYPHS[c] ?? GLYPHS["0"]!.map((row) => row.replace(/./g, ".")));
  return [0, 2, 4].map((row) =>
    glyphs
      .map((g) => [...g[row]!].map((px, x) => cell(px === "#", g[row + 1]?.[x] === "#")).join(""))
      .join(" ")
      .trimEnd(),
  );
}
