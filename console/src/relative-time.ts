const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
  ["second", 1_000],
];

const format = new Intl.RelativeTimeFormat("en", { numeric: "auto", style: "narrow" });

/** "5 min. ago"-style text for an ISO timestamp (the Activity and key lists show ages, not dates). */
export function relativeTime(iso: string, now = Date.now()): string {
  const diff = new Date(iso).getTime() - now;
  if (Number.isNaN(diff)) return iso;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms || unit === "second") return format.format(Math.round(diff / ms), unit);
  }
  return iso;
}

/** Full local date and time, used as the `title` of relative times. */
export function absoluteTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}
