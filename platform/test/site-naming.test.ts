import { describe, expect, it } from "vitest";
import { previewOf, splitSiteLabel } from "../src/deploy/preview-branch.ts";
import { PlatformError } from "../src/platform-error.ts";
import { looksLikeFile, sitePath } from "../src/site/site-path.ts";
import { APP_NAME } from "../src/store/apps-table.ts";

describe("preview names", () => {
  it("sends main and no branch to production, other branches to a DNS-label preview", () => {
    expect(previewOf("shop", undefined)).toBeUndefined();
    expect(previewOf("shop", "main")).toBeUndefined();
    expect(previewOf("shop", "feature/Login_form")).toBe("feature-login-form");
    expect(previewOf("shop", "--fix--it--")).toBe("fix-it");
    expect(previewOf("shop", "dependabot/npm_and_yarn/vite-5.4.1")).toBe(
      "dependabot-npm-and-yarn-vite-5-4-1",
    );
  });

  it("cuts a long branch to fit the host label and keeps it apart from its neighbours by a hash", () => {
    const a = previewOf("shop", `feature/${"x".repeat(80)}-a`) as string;
    const b = previewOf("shop", `feature/${"x".repeat(80)}-b`) as string;
    expect(`shop--${a}`.length).toBeLessThanOrEqual(63);
    expect(a).toMatch(/^feature-x+-[0-9a-f]{6}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("--");
  });

  it("refuses branches it cannot name and apps too long for preview hosts", () => {
    expect(() => previewOf("shop", "///")).toThrow(PlatformError);
    expect(() => previewOf("shop", "a\u0000b")).toThrow(/printable/);
    expect(() => previewOf("a".repeat(60), "feature")).toThrow(/too long a name/);
  });

  it("splits a host label at the first --, which no app name contains", () => {
    expect(splitSiteLabel("shop")).toEqual({ app: "shop", preview: undefined });
    expect(splitSiteLabel("shop--feature-x")).toEqual({ app: "shop", preview: "feature-x" });
    expect(APP_NAME.test("my-shop")).toBe(true);
    expect(APP_NAME.test("shop--feature")).toBe(false);
  });
});

describe("site paths", () => {
  it("decodes once and names the file under the site", () => {
    expect(sitePath("/")).toBe("index.html");
    expect(sitePath("/assets/app-1.js?v=2")).toBe("assets/app-1.js");
    expect(sitePath("/docs/")).toBe("docs/index.html");
    expect(sitePath("/caf%C3%A9.txt")).toBe("café.txt");
    expect(sitePath("/%252e%252e/x")).toBe("%2e%2e/x");
    expect(sitePath("//a//b")).toBe("a/b");
  });

  it("refuses dot segments, backslashes, control characters and bad escapes", () => {
    for (const url of ["/../x", "/a/%2e%2e/x", "/%2E%2E%2Fx", "/a\\b", "/a%5cb", "/a%00b", "/%ZZ", "x"]) {
      expect(sitePath(url), url).toBeUndefined();
    }
  });

  it("tells file-like paths (with an extension) from client-side routes", () => {
    expect(looksLikeFile("assets/app.js")).toBe(true);
    expect(looksLikeFile("orders/42")).toBe(false);
    expect(looksLikeFile("v1.2/users")).toBe(false);
  });
});
