import type { AppStatus } from "./api-client.ts";
import type { DotTone } from "./components/StatusDot.tsx";

/** How an app's status reads in the console (idle means scaled to zero, not broken). */
export function describeAppStatus(status: AppStatus): { tone: DotTone; label: string } {
  switch (status) {
    case "running":
      return { tone: "ok", label: "Running" };
    case "idle":
      return { tone: "idle", label: "Idle (scaled to zero)" };
    case "not-deployed":
      return { tone: "off", label: "Not deployed" };
  }
}
