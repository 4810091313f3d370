/**
 * Text fitted to a terminal's width, so nothing on a screen is ever cut off: prose is
 * word-wrapped (markdown paragraphs reflowed first), code is broken at the width with a
 * marker on every continuation. Widths count code points; the screens use no wide glyphs.
 */

/** Starts every continuation of a code line broken at the pane's width. */
export const CODE_CONTINUATION = "↪ ";

const widthOf = (text: string) => [...text].length;

/** Splits a word longer than `width` into pieces that fit. */
function chop(word: string, width: number): string[] {
  const chars = [...word];
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += width) pieces.push(chars.slice(i, i + width).join(""));
  return pieces;
}

/**
 * Word-wraps one line of prose: the first line starts with `first`, the rest with `rest`
 * (a hanging indent). A word longer than a whole line is broken where the line ends.
 */
export function wrapLine(text: string, width: number, first = "", rest = first): string[] {
  const words = text.split(" ").filter((w) => w !== "");
  const lines: string[] = [];
  let line = first;
  let empty = true;
  const room = () => Math.max(1, width - widthOf(lines.length === 0 ? first : rest));
  for (const word of words) {
    const gap = empty ? 0 : 1;
    if (widthOf(line) + gap + widthOf(word) <= width) {
      line += (empty ? "" : " ") + word;
      empty = false;
      continue;
    }
    if (!empty) {
      lines.push(line);
      line = rest;
      empty = true;
    }
    const pieces = widthOf(word) > room() ? chop(word, room()) : [word];
    for (const [i, piece] of pieces.entries()) {
      if (i > 0) {
        lines.push(line);
        line = rest;
      }
      line += piece;
    }
    empty = false;
  }
  lines.push(line);
  return lines;
}

/** Breaks a line of code at `width`; every piece after the first starts with the continuation marker. */
export function wrapCodeLine(line: string, width: number): string[] {
  const chars = [...line.replace(/\t/g, "  ")];
  if (chars.length <= width) return [chars.join("")];
  const pieces = [chars.slice(0, width).join("")];
  const room = Math.max(1, width - widthOf(CODE_CONTINUATION));
  for (let i = width; i < chars.length; i += room) pieces.push(CODE_CONTINUATION + chars.slice(i, i + room).join(""));
  return pieces;
}

/** Every line of a code file fitted to `width`. */
export const wrapCode = (text: string, width: number): string[] => text.split("\n").flatMap((line) => wrapCodeLine(line, width));

/** Prose that may hold several lines: each line wrapped on its own, its leading indent kept as a hanging indent. */
export function wrapText(text: string, width: number, indent = ""): string[] {
  return text.split("\n").flatMap((line) => {
    const lead = /^\s*/.exec(line)![0];
    return wrapLine(line.trimStart(), width, indent + lead, indent + lead);
  });
}

const LIST_ITEM = /^(\s*)([-*+]|\d+[.)])\s+/;
const BLOCK_START = /^\s*(#|>|\||```|~~~)/;

/**
 * A markdown file fitted to `width`: the lines of a paragraph or list item joined and
 * wrapped again (a list item's text hangs under its first word), fenced code broken as
 * code, headings and tables kept as lines.
 */
export function wrapMarkdown(text: string, width: number): string[] {
  const out: string[] = [];
  let paragraph: { first: string; rest: string; text: string } | null = null;
  let inFence = false;
  const flush = () => {
    if (paragraph) out.push(...wrapLine(paragraph.text, width, paragraph.first, paragraph.rest));
    paragraph = null;
  };
  for (const line of text.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) {
      flush();
      inFence = !inFence;
      out.push(...wrapCodeLine(line, width));
      continue;
    }
    if (inFence) {
      out.push(...wrapCodeLine(line, width));
      continue;
    }
    if (line.trim() === "") {
      flush();
      out.push("");
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item || BLOCK_START.test(line) || !paragraph) {
      flush();
      if (BLOCK_START.test(line)) {
        out.push(...wrapLine(line.trim(), width, /^\s*/.exec(line)![0]));
        continue;
      }
      const lead = item ? item[0] : /^\s*/.exec(line)![0];
      paragraph = { first: lead, rest: " ".repeat(widthOf(lead)), text: line.slice(lead.length) };
      continue;
    }
    paragraph.text += ` ${line.trim()}`;
  }
  flush();
  return out;
}
