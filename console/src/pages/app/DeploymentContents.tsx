import type { Deployment } from "../../api-client.ts";
import { byteSize } from "../../byte-size.ts";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * What a deployment holds: its pages (the static files, their size, whether there is a home page) and its
 * functions; a rejected one, why it was rejected.
 */
export function DeploymentContents({ deployment }: { deployment: Deployment }) {
  const { site, functions, message, status } = deployment;
  if (status === "failed") return <div className="error-text">{message}</div>;
  return (
    <dl className="contents">
      <dt>Pages</dt>
      <dd>
        {site ? (
          <>
            {plural(site.files, "file", "files")}, {byteSize(site.bytes)}
            {site.hasIndex ? null : <span className="tag warn">no index.html</span>}
          </>
        ) : (
          <span className="muted">none</span>
        )}
      </dd>
      <dt>Functions</dt>
      <dd>
        {functions.length ? (
          <>
            {functions.length}: {functions.join(", ")}
          </>
        ) : (
          <span className="muted">none</span>
        )}
      </dd>
    </dl>
  );
}
