import { CodeBlock } from "./CodeBlock.tsx";

interface Props {
  title: string;
  secret: string;
  onDismiss: () => void;
}

/** A secret the server returns once (API key, deploy token): copy it now, it is not shown again. */
export function SecretBox({ title, secret, onDismiss }: Props) {
  return (
    <section className="secret-box" aria-label={title}>
      <h3>{title}</h3>
      <p className="warning">
        Copy it now and store it safely. It is shown only once; if you lose it, create a new one.
      </p>
      <CodeBlock code={secret} label={title} />
      <button type="button" className="secondary small" onClick={onDismiss}>
        I have copied it
      </button>
    </section>
  );
}
