/** Plain-text table layout for the console report. */

export function renderTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? "").length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join(" | ")} |`;
  const rule = `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`;
  return [line(header), rule, ...rows.map((r) => line(header.map((_, c) => r[c] ?? "")))].join("\n");
}

export const fmtInt = (n: number) => Math.round(n).toLocaleString("en-US");

export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return "–";
  if (ms < 1) return `${ms.toFixed(3)} ms`;
  if (ms < 100) return `${ms.toFixed(2)} ms`;
  return `${fmtInt(ms)} ms`;
}

export function fmtRatio(r: number | undefined): string {
  if (r === undefined || !Number.isFinite(r)) return "–";
  return r >= 10 ? `${r.toFixed(0)}×` : r >= 1 ? `${r.toFixed(2)}×` : `${r.toFixed(3)}×`;
}
