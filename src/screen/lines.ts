/**
 * A screen as terminal lines that already fit its width, so its height is known before it is
 * drawn: the live part of a screen must stay shorter than the terminal, or its top (the
 * title and the clock) scrolls away.
 */

/** A run of text in one style. */
export interface Segment {
  text: string;
  color?: string;
  dim?: boolean;
  bold?: boolean;
}

/** One terminal line, never wider than the width it was built for. */
export type Line = Segment[];

export type Style = Omit<Segment, "text">;

export const line = (text: string, style: Style = {}): Line => [{ text, ...style }];

/** The empty line between two parts of a screen. */
export const GAP: Line = [];

/** Plain lines, all in one style. */
export const styled = (texts: string[], style: Style = {}): Line[] => texts.map((t) => line(t, style));

/** A part of the screen with a gap above it, or nothing when it has no lines. */
export const section = (lines: Line[]): Line[] => (lines.length === 0 ? [] : [GAP, ...lines]);
