interface Props {
  /** The site's URL. */
  url: string;
  /** What the link says to screen readers, e.g. "Open shop's site". */
  label: string;
}

/**
 * A live, scaled-down view of a site that opens it in a new tab when clicked. The page runs in a frame
 * sandboxed without same-origin (its scripts run in an opaque origin: no cookies or storage of its own,
 * no way to the console), loaded lazily, and takes no clicks, focus or screen reader attention: the link
 * laid over it does.
 */
export function SiteThumbnail({ url, label }: Props) {
  return (
    <div className="site-thumbnail">
      <iframe
        src={url}
        title={`Live view of ${url}`}
        sandbox="allow-scripts"
        loading="lazy"
        referrerPolicy="no-referrer"
        tabIndex={-1}
        aria-hidden="true"
      />
      <a href={url} target="_blank" rel="noopener noreferrer">
        <span className="sr-only">{label}</span>
      </a>
    </div>
  );
}
