import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/**
 * The Go names wit-bindgen-go chose for the app world, read back from the code it generated. Its naming
 * (initialisms such as `ID`, `URL`, `HTTP`) is an implementation detail of the generator, so the glue
 * uses what the generated files say instead of predicting it: the `Exports` fields are documented with
 * their WIT function name, and record fields carry `json:"<wit-name>"` tags.
 */
export interface GoBindingNames {
  /** WIT export name → field of `Exports`. */
  exports: Map<string, string>;
  /** WIT record name → Go type name and WIT field name → Go field name. */
  records: Map<string, { goName: string; fields: Map<string, string> }>;
}

export function parseGoBindingNames(exportsGo: string, witGo: string): GoBindingNames {
  const exports = new Map<string, string>();
  for (const m of exportsGo.matchAll(/exported function "([^"]+)"\.[\s\S]*?\n\t([A-Za-z_]\w*) func\(/g)) {
    exports.set(m[1]!, m[2]!);
  }
  const records: GoBindingNames["records"] = new Map();
  for (const m of witGo.matchAll(
    /represents the record "[^"#]*#([^"]+)"\.[\s\S]*?\ntype (\w+) struct \{([\s\S]*?)\n\}/g,
  )) {
    const fields = new Map<string, string>();
    for (const f of m[3]!.matchAll(/^\t(\w+)\s+[^\n`]*`json:"([^",]+)[^"]*"`/gm)) {
      if (f[1] !== "_" && f[2] !== "-") fields.set(f[2]!, f[1]!);
    }
    records.set(m[1]!, { goName: m[2]!, fields });
  }
  return { exports, records };
}

/** Where the world's package landed under the bindings dir: the directory holding `<world>.exports.go`. */
export async function findWorldPackageDir(bindingsDir: string, world: string): Promise<string | undefined> {
  for (const entry of await readdir(bindingsDir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name === `${world}.exports.go`) {
      return path.join(entry.parentPath ?? (entry as unknown as { path: string }).path, "");
    }
  }
  return undefined;
}

export async function readGoBindingNames(worldDir: string, world: string): Promise<GoBindingNames> {
  const exportsGo = await readFile(path.join(worldDir, `${world}.exports.go`), "utf8");
  const witGo = await readFile(path.join(worldDir, `${world}.wit.go`), "utf8").catch(() => "");
  return parseGoBindingNames(exportsGo, witGo);
}
