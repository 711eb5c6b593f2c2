import { createHash } from "node:crypto";
import { PlatformError } from "../platform-error.ts";

/** The branch that deploys to production; any other named branch deploys a preview. */
export const PRODUCTION_BRANCH = "main";
/** Separates an app from its preview in a host label (`shop--feature-login`); app names never contain it. */
export const PREVIEW_SEPARATOR = "--";
const MAX_BRANCH_LENGTH = 255;
const MAX_LABEL_LENGTH = 63;

/**
 * The preview a deploy from `branch` goes to, or undefined for production (`main`, or no branch). The
 * preview's name is the branch as a DNS label: lower case, every run of other characters one `-`
 * (`feature/Login_form` → `feature-login-form`), short enough that `<app>--<preview>` fits in 63
 * characters (a long one is cut and keeps 6 hex digits of the branch's hash, so it stays its own).
 */
export function previewOf(app: string, branch: string | undefined): string | undefined {
  if (branch === undefined || branch === "" || branch === PRODUCTION_BRANCH) return undefined;
  if (branch.length > MAX_BRANCH_LENGTH || /[\u0000-\u001f\u007f]/.test(branch)) {
    throw new PlatformError(
      "BAD_REQUEST",
      `the branch name is not a git branch name: at most ${MAX_BRANCH_LENGTH} printable characters`,
    );
  }
  const slug = branch
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (slug === "") {
    throw new PlatformError(
      "BAD_REQUEST",
      `the branch "${branch}" has no letter or digit to name its preview by`,
    );
  }
  const room = MAX_LABEL_LENGTH - app.length - PREVIEW_SEPARATOR.length;
  if (slug.length <= room) return slug;
  if (room < 8) {
    throw new PlatformError(
      "BAD_REQUEST",
      `app "${app}" has too long a name for preview hosts (<app>--<branch> must fit in ${MAX_LABEL_LENGTH} characters): deploy previews of an app with a shorter name`,
    );
  }
  const hash = createHash("sha256").update(branch).digest("hex").slice(0, 6);
  return `${slug.slice(0, room - 7).replace(/-+$/, "")}-${hash}`;
}

/** `{ app: "shop", preview: "feature-login" }` from the host label `shop--feature-login`. */
export function splitSiteLabel(label: string): { app: string; preview: string | undefined } {
  const at = label.indexOf(PREVIEW_SEPARATOR);
  if (at === -1) return { app: label, preview: undefined };
  return { app: label.slice(0, at), preview: label.slice(at + PREVIEW_SEPARATOR.length) };
}
