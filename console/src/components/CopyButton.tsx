import { useState } from "react";

interface Props {
  text: string;
  label?: string;
}

/** Copies `text` to the clipboard and says so; falls back to selecting-friendly text when denied. */
export function CopyButton({ text, label = "Copy" }: Props) {
  const [done, setDone] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setDone("copied");
    } catch {
      setDone("failed");
    }
    window.setTimeout(() => setDone("idle"), 2000);
  };
  return (
    <button type="button" className="secondary small" onClick={copy} aria-live="polite">
      {done === "copied" ? "Copied" : done === "failed" ? "Copy failed — select and copy" : label}
    </button>
  );
}
