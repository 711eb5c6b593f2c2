import { stat } from "node:fs/promises";
import { join } from "node:path";
import { loadManifest, STATIC_DIR } from "@trellis/runtime";
import type { DeploymentStore } from "../deploy/deployment-store.ts";
import type { AppRecord } from "../store/apps-table.ts";
import { LookupCache } from "../store/lookup-cache.ts";
import type { MetadataStore } from "../store/metadata-store.ts";
import { DEFAULT_SITE_LIMITS, maxSiteEntries, type SiteLimits } from "./site-check.ts";
import { loadSiteIndex, type SiteIndex } from "./site-index.ts";
import { type SiteRequest, SiteResponder, type SiteResponse } from "./site-response.ts";
import { WeightedLru } from "./weighted-lru.ts";

/** What the gateway needs from a deployment's manifest, read once per deployment. */
export interface DeploymentConfig {
  spaFallback: boolean;
  /** Paths of the endpoints declared with `auth: "none"`: served without an API key. */
  publicEndpoints: ReadonlySet<string>;
  /** Paths of the endpoints declared with `auth: "jwt"`: an API key or a JWT of the app's users. */
  jwtEndpoints: ReadonlySet<string>;
  /** Paths of all declared endpoints (`/graphql` by default). */
  endpoints: ReadonlySet<string>;
}

/** The deployment a request is for: the app's live one, or the live deployment of one of its previews. */
export interface SiteTarget {
  app: AppRecord;
  preview: string | undefined;
  deploymentId: string;
}

export interface AppSitesOptions {
  store: MetadataStore;
  files: DeploymentStore;
  limits?: SiteLimits;
  /** Files whose metadata is kept in memory, across all sites (default 200,000). */
  maxIndexedFiles?: number;
  /** Bytes of small files kept in memory, across all sites (default 64 MiB). */
  maxCachedBytes?: number;
  /** Files up to this size are kept in memory (default 256 KiB); larger ones are streamed from disk. */
  maxCachedFileBytes?: number;
}

const DEFAULT_CONFIG: DeploymentConfig = {
  spaFallback: false,
  publicEndpoints: new Set(),
  jwtEndpoints: new Set(),
  endpoints: new Set(["/graphql"]),
};
/** How stale a preview lookup may be on a node that did not deploy it itself. */
const PREVIEW_TTL_MS = 1_000;
const MAX_CONFIGS = 10_000;

/**
 * The static sites of deployed apps, served from each deployment's own `static/` folder: which deployment
 * a host names (production or a preview), its manifest's settings, and the metadata of its files, each
 * cached in memory per deployment within bounds. A deployment's files never change, so nothing is
 * invalidated on deploy: a new deployment has a new id.
 */
export class AppSites {
  private readonly sites: WeightedLru<string, SiteIndex | null>;
  private readonly loading = new Map<string, Promise<SiteIndex | null>>();
  private readonly configs = new WeightedLru<string, Promise<DeploymentConfig>>(MAX_CONFIGS);
  private readonly previews = new LookupCache<string | undefined>(PREVIEW_TTL_MS);
  private readonly responder: SiteResponder;

  constructor(private readonly options: AppSitesOptions) {
    this.sites = new WeightedLru(options.maxIndexedFiles ?? 200_000);
    this.responder = new SiteResponder(
      options.maxCachedBytes ?? 64 * 1024 * 1024,
      options.maxCachedFileBytes ?? 256 * 1024,
    );
  }

  /** The deployment serving `app` (or its preview `preview`); undefined when there is none. */
  async target(name: string, preview: string | undefined): Promise<SiteTarget | undefined> {
    const app = await this.options.store.cachedApp(name);
    if (!app) return undefined;
    const deploymentId =
      preview === undefined
        ? (app.activeDeploymentId ?? undefined)
        : await this.previews.get(
            name,
            `${name}--${preview}`,
            async () => (await this.options.store.previewDeployment(name, preview))?.id,
          );
    return deploymentId ? { app, preview, deploymentId } : undefined;
  }

  /** Forgets cached preview lookups of `app` (this node deployed or removed one). */
  previewsChanged(app: string): void {
    this.previews.invalidate(app);
  }

  /** The deployment's manifest settings the gateway needs. */
  config(app: string, deploymentId: string): Promise<DeploymentConfig> {
    let config = this.configs.get(deploymentId);
    if (!config) {
      config = this.readConfig(app, deploymentId);
      this.configs.set(deploymentId, config, 1);
    }
    return config;
  }

  /** The deployment's static site, or null when it has none. */
  async site(app: string, deploymentId: string): Promise<SiteIndex | null> {
    const cached = this.sites.get(deploymentId);
    if (cached !== undefined) return cached;
    let loading = this.loading.get(deploymentId);
    if (!loading) {
      loading = this.loadSite(app, deploymentId).finally(() => this.loading.delete(deploymentId));
      this.loading.set(deploymentId, loading);
    }
    return loading;
  }

  respond(site: SiteIndex, request: SiteRequest): Promise<SiteResponse> {
    return this.responder.respond(site, request);
  }

  private async loadSite(app: string, deploymentId: string): Promise<SiteIndex | null> {
    const buildDir = await this.options.files.buildDir(app, deploymentId);
    const info = await stat(join(buildDir, STATIC_DIR)).catch(() => undefined);
    let site: SiteIndex | null = null;
    if (info?.isDirectory()) {
      const { spaFallback } = await this.config(app, deploymentId);
      site = await loadSiteIndex(
        buildDir,
        spaFallback,
        maxSiteEntries(this.options.limits ?? DEFAULT_SITE_LIMITS),
      );
    }
    this.sites.set(deploymentId, site, 1 + (site?.files.size ?? 0));
    return site;
  }

  private async readConfig(app: string, deploymentId: string): Promise<DeploymentConfig> {
    try {
      const { manifest } = await loadManifest(await this.options.files.buildDir(app, deploymentId));
      const endpoints = Object.values(manifest.endpoints);
      return {
        spaFallback: manifest.web?.spaFallback ?? false,
        publicEndpoints: new Set(endpoints.filter((e) => e.auth === "none").map((e) => e.path)),
        jwtEndpoints: new Set(endpoints.filter((e) => e.auth === "jwt").map((e) => e.path)),
        endpoints: new Set(endpoints.map((e) => e.path)),
      };
    } catch {
      // Accepted deployments have a valid manifest; a build without one (the tests' stand-in) gets defaults.
      return DEFAULT_CONFIG;
    }
  }
}
