/**
 * The GraphQL explorer's history: the last operations run for each app, newest first, in localStorage
 * (this browser only; queries can hold data, so it never leaves the machine).
 */
export interface HistoryEntry {
  query: string;
  variables: string;
  /** ISO time of the last run. */
  at: string;
}

const MAX_ENTRIES = 20;

const keyOf = (app: string) => `trellis.graphql.history.${app}`;

export function loadHistory(app: string): HistoryEntry[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(keyOf(app)) ?? "[]");
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (e): e is HistoryEntry =>
        typeof e?.query === "string" && typeof e?.variables === "string" && typeof e?.at === "string",
    );
  } catch {
    return [];
  }
}

/** Puts an operation first (once: running it again moves it up) and returns the new history. */
export function recordHistory(app: string, query: string, variables: string): HistoryEntry[] {
  const rest = loadHistory(app).filter((e) => e.query !== query || e.variables !== variables);
  const next = [{ query, variables, at: new Date().toISOString() }, ...rest].slice(0, MAX_ENTRIES);
  try {
    localStorage.setItem(keyOf(app), JSON.stringify(next));
  } catch {
    // Storage full or disabled: the history just is not kept.
  }
  return next;
}

export function clearHistory(app: string): void {
  localStorage.removeItem(keyOf(app));
}

/** One line for the list: the operation with its whitespace collapsed, cut at `max` characters. */
export function historyLabel(query: string, max = 90): string {
  const line = query.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
