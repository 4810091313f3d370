/**
 * Lines of code in TypeScript source: a small scanner that knows where comments are and
 * where they only seem to be (inside strings, template literals and regular expressions).
 * It never throws, so it also counts a file that does not parse.
 */

/** Words after which a `/` starts a regular expression rather than a division. */
const BEFORE_REGEX = new Set(["return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await"]);

const isWordChar = (c: string) => /[\w$]/.test(c);

/** Given the last token before a `/`: true when that slash opens a regular expression. */
function regexMayStart(prev: string): boolean {
  if (prev === "") return true;
  if (prev === "value") return false; // a string, template or regex literal just ended
  if (isWordChar(prev[0]!)) return BEFORE_REGEX.has(prev);
  return prev !== ")" && prev !== "]";
}

/** Index just past a quoted string starting at `start` (its quote); an unterminated one ends at the line's end. */
function skipString(source: string, start: number): number {
  const quote = source[start];
  let i = start + 1;
  while (i < source.length && source[i] !== quote && source[i] !== "\n") i += source[i] === "\\" ? 2 : 1;
  return Math.min(i + 1, source.length);
}

/** Index just past a regular expression literal starting at `start` (its slash), flags included. */
function skipRegex(source: string, start: number): number {
  let i = start + 1;
  let inClass = false;
  while (i < source.length && source[i] !== "\n") {
    const c = source[i]!;
    if (c === "\\") i += 2;
    else if (c === "[") (inClass = true), i++;
    else if (c === "]") (inClass = false), i++;
    else if (c === "/" && !inClass) break;
    else i++;
  }
  i++;
  while (i < source.length && /[a-z]/i.test(source[i]!)) i++;
  return Math.min(i, source.length);
}

/**
 * The source with every comment replaced by spaces, newlines kept: offsets and line numbers
 * stay as they were, and what is left is code only.
 */
export function blankComments(source: string): string {
  const out: string[] = [];
  const blank = (from: number, to: number) => out.push(source.slice(from, to).replace(/[^\r\n]/g, " "));
  // For each template literal whose `${` we are inside: how many `{` are open within it.
  const templates: number[] = [];
  let prev = "";
  let i = 0;
  /** Copies a template literal's text from `i` until its end or its next `${`. */
  const templateText = () => {
    const start = i;
    while (i < source.length) {
      const c = source[i];
      if (c === "\\") i += 2;
      else if (c === "`") {
        i++;
        prev = "value";
        break;
      } else if (c === "$" && source[i + 1] === "{") {
        i += 2;
        templates.push(0);
        prev = "{";
        break;
      } else i++;
    }
    i = Math.min(i, source.length);
    out.push(source.slice(start, i));
  };
  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      const end = source.indexOf("\n", i);
      const to = end === -1 ? source.length : end;
      blank(i, to);
      i = to;
    } else if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const to = end === -1 ? source.length : end + 2;
      blank(i, to);
      i = to;
    } else if (c === "'" || c === '"') {
      const to = skipString(source, i);
      out.push(source.slice(i, to));
      i = to;
      prev = "value";
    } else if (c === "`") {
      out.push(c);
      i++;
      templateText();
    } else if (c === "}" && templates.length > 0 && templates.at(-1) === 0) {
      templates.pop();
      out.push(c);
      i++;
      templateText();
    } else if (c === "/" && regexMayStart(prev)) {
      const to = skipRegex(source, i);
      out.push(source.slice(i, to));
      i = to;
      prev = "value";
    } else if (isWordChar(c)) {
      let to = i + 1;
      while (to < source.length && isWordChar(source[to]!)) to++;
      prev = source.slice(i, to);
      out.push(prev);
      i = to;
    } else {
      if (templates.length > 0 && c === "{") templates[templates.length - 1]!++;
      if (templates.length > 0 && c === "}") templates[templates.length - 1]!--;
      if (!/\s/.test(c)) prev = c;
      out.push(c);
      i++;
    }
  }
  return out.join("");
}

const hasCode = (line: string) => line.trim() !== "";

/** Non-blank, non-comment lines: a line counts when anything but a comment is on it. */
export function countCodeLines(source: string): number {
  return blankComments(source).split("\n").filter(hasCode).length;
}

/** Like countCodeLines, but the characters in `skip` (half-open offset ranges) do not count either. */
export function countCodeLinesOutside(source: string, skip: { start: number; end: number }[]): number {
  const chars = blankComments(source).split("");
  for (const { start, end } of skip) {
    for (let i = start; i < end && i < chars.length; i++) if (chars[i] !== "\n") chars[i] = " ";
  }
  return chars.join("").split("\n").filter(hasCode).length;
}
