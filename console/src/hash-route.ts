import { useEffect, useState } from "react";

/** The console's views; hash routing keeps the static build working under any path. */
export type AppTab = "overview" | "env" | "keys" | "deployments" | "activity" | "graph";

export type Route = { view: "apps" } | { view: "app"; app: string; tab: AppTab };

export const APP_TABS: readonly AppTab[] = ["overview", "env", "keys", "deployments", "activity", "graph"];

/** Parses `#/apps/:name/:tab`; anything unknown falls back to the apps list. */
export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "apps" && parts[1]) {
    const tab = (APP_TABS as readonly string[]).includes(parts[2] ?? "") ? (parts[2] as AppTab) : "overview";
    return { view: "app", app: parts[1], tab };
  }
  return { view: "apps" };
}

export function routeHref(route: Route): string {
  if (route.view === "apps") return "#/apps";
  return `#/apps/${encodeURIComponent(route.app)}/${route.tab}`;
}

export function navigate(route: Route): void {
  window.location.hash = routeHref(route);
}

/** The current route, updated on `hashchange`. */
export function useHashRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener("hashchange", onChange);
    return () => window.removeEventListener("hashchange", onChange);
  }, []);
  return route;
}
