import { DEFAULT_SIZE, type ScreenSize } from "./screen-state.js";

interface SizedStream {
  columns?: number;
  rows?: number;
  on?(event: "resize", listener: () => void): unknown;
  off?(event: "resize", listener: () => void): unknown;
}

/** The stream's size, or the smallest terminal a screen is made for when it does not say. */
export function terminalSize(stream: unknown): ScreenSize {
  const { columns, rows } = stream as SizedStream;
  return {
    columns: typeof columns === "number" && columns > 0 ? columns : DEFAULT_SIZE.columns,
    rows: typeof rows === "number" && rows > 0 ? rows : DEFAULT_SIZE.rows,
  };
}

/** Reports the terminal's size now and after every resize; returns the cleanup. */
export function followTerminalSize(stream: unknown, onSize: (size: ScreenSize) => void): () => void {
  const sized = stream as SizedStream;
  const report = () => onSize(terminalSize(stream));
  report();
  sized.on?.("resize", report);
  return () => void sized.off?.("resize", report);
}
