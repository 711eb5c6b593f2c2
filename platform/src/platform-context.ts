import type { OutboundFetch } from "@trellis/graphdb";
import type { Logger } from "pino";
import type { AuthThrottle } from "./api/auth-throttle.ts";
import type { Deployer } from "./deploy/deployer.ts";
import type { DeploymentStore } from "./deploy/deployment-store.ts";
import type { AppInstances } from "./gateway/app-instances.ts";
import type { AppNamespaces } from "./graph/app-namespaces.ts";
import type { GraphOperations } from "./graph/graph-operations.ts";
import type { PlatformMetrics } from "./metrics.ts";
import type { AppSites } from "./site/app-sites.ts";
import type { MetadataStore } from "./store/metadata-store.ts";

/** What the HTTP routes work with; the routes themselves stay thin. */
export interface PlatformContext {
  store: MetadataStore;
  instances: AppInstances;
  deployer: Deployer;
  files: DeploymentStore;
  metrics: PlatformMetrics;
  logger: Logger;
  /** The platform's embedded graph database (console Graph tab, /admin/slash), in its worker thread. */
  graph: GraphOperations;
  /** Where the console's graph exports are written before they are streamed (inside the data directory). */
  exportDir: string;
  /** Each app's namespace of it. */
  namespaces: AppNamespaces;
  adminToken: string;
  /** Backoff per client address for failed token checks (control plane, /metrics, /admin/slash). */
  authThrottle: AuthThrottle;
  /**
   * The fetch for what a tenant names outside its functions, on this thread (its users' JWKS endpoints):
   * under the egress policy, so it reaches no loopback or private address the operator did not allow.
   */
  outboundFetch: OutboundFetch;
  /** The GraphQL endpoint of an app, as shown to users. */
  appUrl(app: string): string;
  /** Deployed apps' static sites and manifest settings, by deployment. */
  sites: AppSites;
  /** Where an app's pages (or a preview's: pages and functions) are served: `http://<app>.<appDomain>:<port>`. */
  siteUrl(app: string, preview?: string): string;
}
