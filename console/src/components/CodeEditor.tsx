import { type KeyboardEvent, type Ref, type SyntheticEvent, useRef } from "react";

interface Props {
  id: string;
  value: string;
  onChange: (value: string) => void;
  rows?: number;
  /** 1-based lines to mark (an error there); shown in the gutter and named for screen readers. */
  markedLines?: ReadonlySet<number>;
  placeholder?: string;
  onKeyDown?: (event: KeyboardEvent<HTMLTextAreaElement>) => void;
  /** Caret moves and edits (autocomplete follows the caret). */
  onSelect?: (event: SyntheticEvent<HTMLTextAreaElement>) => void;
  onBlur?: () => void;
  textareaRef?: Ref<HTMLTextAreaElement>;
  describedBy?: string;
  /** The suggestion list that belongs to the editor (a multi-line textbox keeps its role). */
  suggestions?: { listId: string; expanded: boolean; activeId?: string };
}

/**
 * A plain textarea with a line-number gutter that scrolls with it; lines do not wrap, so each number
 * stays next to its line. Marked lines get a red number and marker.
 */
export function CodeEditor({
  id,
  value,
  onChange,
  rows = 10,
  markedLines,
  placeholder,
  onKeyDown,
  onSelect,
  onBlur,
  textareaRef,
  describedBy,
  suggestions,
}: Props) {
  const gutter = useRef<HTMLDivElement>(null);
  const lineCount = Math.max(value.split("\n").length, rows);
  const lines: number[] = [];
  for (let n = 1; n <= lineCount; n++) lines.push(n);

  return (
    <div className={`code-editor${markedLines?.size ? " has-marks" : ""}`}>
      <div className="gutter" ref={gutter} aria-hidden="true" data-testid={`${id}-gutter`}>
        {lines.map((n) => (
          <div key={n} className={markedLines?.has(n) ? "marked" : undefined} data-line={n}>
            {n}
          </div>
        ))}
      </div>
      <textarea
        id={id}
        ref={textareaRef}
        rows={rows}
        value={value}
        wrap="off"
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        onSelect={onSelect}
        onBlur={onBlur}
        onScroll={(e) => {
          if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
        }}
        aria-describedby={describedBy}
        aria-invalid={markedLines?.size ? true : undefined}
        aria-autocomplete={suggestions ? "list" : undefined}
        aria-controls={suggestions?.expanded ? suggestions.listId : undefined}
        aria-activedescendant={suggestions?.expanded ? suggestions.activeId : undefined}
      />
    </div>
  );
}
