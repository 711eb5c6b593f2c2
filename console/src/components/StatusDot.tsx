export type DotTone = "ok" | "error" | "idle" | "off";

interface Props {
  tone: DotTone;
  label: string;
}

/** A coloured dot with its meaning as text for screen readers (colour is never the only signal). */
export function StatusDot({ tone, label }: Props) {
  return <span className={`dot dot-${tone}`} role="img" aria-label={label} title={label} />;
}
