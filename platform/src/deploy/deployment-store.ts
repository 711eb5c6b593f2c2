import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";

/** Where deployments live on disk: `<dataDir>/apps/<app>/deployments/<id>/`. */
export class DeploymentStore {
  constructor(private readonly dataDir: string) {}

  appDir(app: string): string {
    return join(this.dataDir, "apps", app);
  }

  deploymentDir(app: string, id: string): string {
    return join(this.appDir(app), "deployments", id);
  }

  /** The build folder of a deployment (the archive may have wrapped it in `build/`). */
  async buildDir(app: string, id: string): Promise<string> {
    const dir = this.deploymentDir(app, id);
    const top = await readdir(dir).catch(() => {
      throw new Error(`the files of deployment ${id} of app ${app} are missing from ${dir}`);
    });
    if (top.length === 1 && top[0] === "build" && (await stat(join(dir, "build"))).isDirectory()) {
      return join(dir, "build");
    }
    return dir;
  }

  async removeDeployment(app: string, id: string): Promise<void> {
    await rm(this.deploymentDir(app, id), { recursive: true, force: true });
  }

  async removeApp(app: string): Promise<void> {
    await rm(this.appDir(app), { recursive: true, force: true });
  }
}
