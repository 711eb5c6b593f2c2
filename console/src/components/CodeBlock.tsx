import { CopyButton } from "./CopyButton.tsx";

interface Props {
  code: string;
  label: string;
}

/** A block of copyable text (endpoint, curl example, deploy command). */
export function CodeBlock({ code, label }: Props) {
  return (
    <div className="code-block">
      <pre>
        <code>{code}</code>
      </pre>
      <CopyButton text={code} label={`Copy ${label.toLowerCase()}`} />
    </div>
  );
}
