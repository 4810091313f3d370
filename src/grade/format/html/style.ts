/** The report page's one stylesheet, and HTML escaping. */

export const esc = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** A cell's colour from the share of its tests passed: green when all pass; short of that, red through amber to olive, so 11/12 never looks like 12/12. */
export function shareColour(share: number): string {
  return share === 1 ? "hsl(135 55% 30%)" : `hsl(${Math.round(share * 60)} 70% 42%)`;
}

export const STYLE = `
:root { color-scheme: light; --ink: #1a202c; --muted: #5a6473; --line: #d8dde4; --none: #a0a8b4; --broken: #4a235a; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: #fff; }
main { max-width: 1180px; margin: 0 auto; padding: 16px 24px 48px; }
h1 { font-size: 24px; margin: 8px 0 2px; }
h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 16px 0 4px; }
.meta, .note { color: var(--muted); margin: 0 0 8px; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
figure { margin: 0; min-width: 0; max-width: 100%; }
figcaption { font-weight: 600; margin-bottom: 4px; }
svg { max-width: 100%; height: auto; }
table { border-collapse: collapse; width: 100%; table-layout: auto; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; overflow-wrap: break-word; }
td.word, th.word { white-space: nowrap; }
th { font-weight: 600; background: #f4f6f8; }
td.num, th.num { text-align: right; white-space: nowrap; }
.grid { width: auto; max-width: 100%; }
.grid th.learner, .grid td.learner { max-width: 220px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.grid td.cell { padding: 0; border: 2px solid #fff; text-align: center; min-width: 56px; }
.grid td.cell a, .grid td.cell span { display: block; padding: 3px 6px; color: #fff; text-decoration: none; font-variant-numeric: tabular-nums; }
.grid td.none { background: var(--none); }
.grid td.broken { background: var(--broken); }
.legend span { display: inline-block; padding: 1px 8px; margin-right: 6px; color: #fff; border-radius: 3px; }
.bar { display: inline-block; height: 10px; background: #b7791f; vertical-align: middle; margin-right: 6px; }
pre { white-space: pre-wrap; overflow-wrap: break-word; word-break: break-word; background: #f7f7f9; padding: 6px 8px; margin: 4px 0 8px; font-size: 12px; }
details summary { cursor: pointer; color: var(--muted); }
.failure { border-left: 3px solid var(--line); padding-left: 10px; margin: 10px 0; }
.unsubmitted { font-weight: 600; }
@media print {
  main { max-width: none; padding: 0; }
  * { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
  section, figure, tr, .failure { break-inside: avoid; }
  h2 { break-after: avoid; }
}
`;
