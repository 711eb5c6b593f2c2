/**
 * Reads an app's API from `src/index.ts` with the TypeScript compiler API: every exported function, its
 * parameter and return types, and the interfaces, object aliases and string enums they reach. Types are
 * read from the syntax the author wrote (resolving references with the checker), because the checker
 * erases aliases of primitives such as the SDK's `i32`. Every unsupported construct becomes a
 * `file:line:col: message` diagnostic; extraction never stops at the first one.
 */
import { join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import type { WitPrimitive } from "../wit/wit-types.ts";
import type {
  AppShapes,
  EnumShape,
  FunctionShape,
  RecordShape,
  TypeShape,
  ValueShape,
} from "./ts-value-shapes.ts";
import { HIDDEN_EXPORT_PREFIX, toKebabCase } from "./wit-names.ts";

export interface SignatureResult {
  shapes: AppShapes;
  /** Blocking problems, `file:line:col: message`. */
  errors: string[];
  /** TypeScript's type errors, `file:line:col: TS<code>: message`: they fail the build, as tsc would. */
  typeErrors: string[];
  /** Ignored exports; the build goes on. */
  warnings: string[];
}

/** The SDK's numeric aliases, recognised by the name they are referenced by. */
const NUMERIC_ALIASES: Record<string, WitPrimitive> = {
  i8: "s8",
  i16: "s16",
  i32: "s32",
  i64: "s64",
  u8: "u8",
  u16: "u16",
  u32: "u32",
  u64: "u64",
  f32: "f32",
  f64: "f64",
};

/** Export names the QuickJS component already uses. */
const RESERVED_EXPORTS = new Set(["init"]);

/** Globals QuickJS provides that the ES lib does not declare; keeps type errors meaningful. */
const AMBIENT_GLOBALS = `declare var console: {
  log(...args: unknown[]): void; info(...args: unknown[]): void; warn(...args: unknown[]): void;
  error(...args: unknown[]): void; debug(...args: unknown[]): void;
};
`;

export function extractSignatures(appDir: string, sdkEntry: string): SignatureResult {
  const entry = resolve(appDir, "src", "index.ts");
  const ambient = join(resolve(appDir), "__trellis_ambient.d.ts");
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    skipLibCheck: true,
    types: [],
    lib: ["lib.es2023.d.ts"],
    paths: { "@trellis/sdk": [sdkEntry] },
  };
  const host = ts.createCompilerHost(options);
  const readSource = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.getSourceFile = (file, language, ...rest) =>
    file === ambient
      ? ts.createSourceFile(file, AMBIENT_GLOBALS, language)
      : readSource(file, language, ...rest);
  host.fileExists = (file) => file === ambient || fileExists(file);
  const program = ts.createProgram({ rootNames: [entry, ambient], options, host });
  return new SignatureReader(program, resolve(appDir), entry).read();
}

class SignatureReader {
  private readonly checker: ts.TypeChecker;
  private readonly errors: string[] = [];
  private readonly warnings: string[] = [];
  private readonly typeErrors: string[] = [];
  private readonly types = new Map<string, TypeShape>();
  /** Named types by declaration: the WIT name, or null when the type failed (already reported). */
  private readonly byDeclaration = new Map<ts.Node, string | null>();
  private readonly inProgress = new Set<ts.Node>();

  constructor(
    private readonly program: ts.Program,
    private readonly appDir: string,
    private readonly entry: string,
  ) {
    this.checker = program.getTypeChecker();
  }

  read(): SignatureResult {
    const source = this.program.getSourceFile(this.entry);
    if (!source) {
      this.errors.push(`${this.rel(this.entry)}: not found (a TypeScript app's entry is src/index.ts)`);
      return this.result([]);
    }
    this.collectTypeErrors();
    const moduleSymbol = this.checker.getSymbolAtLocation(source);
    const functions: FunctionShape[] = [];
    const exports = moduleSymbol ? this.checker.getExportsOfModule(moduleSymbol) : [];
    for (const exported of exports) {
      const fn = this.readExport(exported);
      if (fn) functions.push(fn);
    }
    const byWit = new Map<string, FunctionShape>();
    for (const fn of functions) {
      const other = byWit.get(fn.wit);
      if (other)
        this.errors.push(
          `${this.rel(this.entry)}:1:1: exports ${other.jsName} and ${fn.jsName} both map to ${fn.wit}`,
        );
      byWit.set(fn.wit, fn);
    }
    if (exports.length > 0 && functions.length === 0 && this.errors.length === 0) {
      this.errors.push(`${this.rel(this.entry)}:1:1: src/index.ts exports no functions`);
    }
    if (!moduleSymbol) this.errors.push(`${this.rel(this.entry)}:1:1: src/index.ts exports no functions`);
    return this.result(functions);
  }

  private result(functions: FunctionShape[]): SignatureResult {
    const errors = [...this.errors].sort(byPosition);
    return {
      shapes: { functions, types: this.types },
      errors,
      typeErrors: this.typeErrors,
      warnings: this.warnings,
    };
  }

  private collectTypeErrors(): void {
    for (const d of ts.getPreEmitDiagnostics(this.program)) {
      const file = d.file?.fileName;
      if (file?.includes(`${sep}node_modules${sep}`)) continue;
      const text = ts.flattenDiagnosticMessageText(d.messageText, " ");
      if (d.file && d.start !== undefined) {
        const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
        this.typeErrors.push(
          `${this.rel(d.file.fileName)}:${line + 1}:${character + 1}: TS${d.code}: ${text}`,
        );
      } else this.typeErrors.push(`TS${d.code}: ${text}`);
    }
  }

  private readExport(exported: ts.Symbol): FunctionShape | undefined {
    const name = exported.getName();
    const symbol = exported.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(exported) : exported;
    const declarations = symbol.getDeclarations() ?? [];
    const fnDecls = declarations.filter(ts.isFunctionDeclaration);
    let fn: ts.SignatureDeclaration | undefined = fnDecls.find((d) => d.body) ?? fnDecls[0];
    if (!fn) {
      const variable = declarations.find(ts.isVariableDeclaration);
      const init = variable?.initializer;
      if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) fn = init;
      else if (symbol.flags & ts.SymbolFlags.Value && !(symbol.flags & ts.SymbolFlags.Enum)) {
        const at = declarations[0] ?? this.program.getSourceFile(this.entry)!;
        this.warnings.push(`${this.loc(at)}: export ${name} is not a function; it is not part of the API`);
        return undefined;
      } else return undefined; // types and interfaces: part of the API only when a function uses them
    }
    if (fnDecls.filter((d) => d.body).length > 1 || fnDecls.length > 2) {
      this.errors.push(`${this.loc(fn)}: overloaded function ${name} is not supported`);
      return undefined;
    }
    if (name === "default") {
      this.warnings.push(`${this.loc(fn)}: the default export is not part of the API; export it by name`);
      return undefined;
    }
    const wit = this.exportWitName(name, fn);
    const before = this.errors.length;
    if (!fn.type && fn.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword)) {
      this.errors.push(
        `${this.loc(fn)}: async function ${name} is not supported: host calls are synchronous`,
      );
    }
    if (fn.typeParameters?.length)
      this.errors.push(`${this.loc(fn)}: generic function ${name} is not supported`);
    const params: FunctionShape["params"] = [];
    for (const p of fn.parameters) {
      const pname = p.name.getText();
      if (!ts.isIdentifier(p.name) || p.dotDotDotToken) {
        this.errors.push(`${this.loc(p)}: parameter ${pname} of ${name} must be a plain named parameter`);
        continue;
      }
      if (!p.type) {
        this.errors.push(`${this.loc(p)}: parameter ${pname} of ${name} needs a type annotation`);
        continue;
      }
      const where = `${name} parameter ${pname}`;
      let shape = this.mapType(p.type, where);
      if (shape && (p.questionToken || p.initializer) && shape.k !== "option") {
        shape = { k: "option", of: shape, none: "undefined" };
      }
      const pwit = toKebabCase(pname);
      if (!pwit) this.errors.push(`${this.loc(p)}: parameter name ${pname} of ${name} cannot be a WIT name`);
      if (shape && pwit) params.push({ name: pname, wit: pwit, shape });
    }
    const result = this.readReturn(fn, name);
    if (this.errors.length > before || !wit || result === null) return undefined;
    const docs = this.docs(symbol);
    return { jsName: name, wit, params, ...(result ? { result } : {}), ...(docs ? { docs } : {}) };
  }

  private exportWitName(name: string, at: ts.Node): string | undefined {
    const hidden = name.startsWith("_");
    const kebab = toKebabCase(name);
    if (!kebab) {
      this.errors.push(
        `${this.loc(at)}: function name ${name} cannot be a WIT name (letters, digits and _ only)`,
      );
      return undefined;
    }
    if (!hidden && kebab.startsWith(HIDDEN_EXPORT_PREFIX)) {
      this.errors.push(
        `${this.loc(at)}: function name ${name} maps to ${kebab}, which marks hidden functions; rename it or start it with _`,
      );
      return undefined;
    }
    if (RESERVED_EXPORTS.has(kebab)) {
      this.errors.push(`${this.loc(at)}: function name ${name} is reserved by the QuickJS component`);
      return undefined;
    }
    return hidden ? HIDDEN_EXPORT_PREFIX + kebab : kebab;
  }

  /** undefined = void; null = failed (reported). */
  private readReturn(fn: ts.SignatureDeclaration, name: string): ValueShape | undefined | null {
    const where = `${name} return type`;
    if (fn.type) {
      const k = fn.type.kind;
      if (k === ts.SyntaxKind.VoidKeyword || k === ts.SyntaxKind.UndefinedKeyword) return undefined;
      return this.mapType(fn.type, where) ?? null;
    }
    const signature = this.checker.getSignatureFromDeclaration(fn);
    const type = signature && this.checker.getReturnTypeOfSignature(signature);
    const flags = type?.flags ?? ts.TypeFlags.Any;
    if (flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined)) return undefined;
    if (flags & ts.TypeFlags.StringLike) return { k: "string" };
    if (flags & ts.TypeFlags.NumberLike) return { k: "num", wit: "f64" };
    if (flags & ts.TypeFlags.BooleanLike) return { k: "bool" };
    if (flags & ts.TypeFlags.BigIntLike) return { k: "bigint" };
    const shown = type ? this.checker.typeToString(type) : "unknown";
    this.errors.push(`${this.loc(fn.name ?? fn)}: ${name} needs an explicit return type (inferred ${shown})`);
    return null;
  }

  /** Maps a type node; undefined when unsupported (and reported). */
  private mapType(node: ts.TypeNode, where: string): ValueShape | undefined {
    switch (node.kind) {
      case ts.SyntaxKind.StringKeyword:
        return { k: "string" };
      case ts.SyntaxKind.BooleanKeyword:
        return { k: "bool" };
      case ts.SyntaxKind.NumberKeyword:
        return { k: "num", wit: "f64" };
      case ts.SyntaxKind.BigIntKeyword:
        return { k: "bigint" };
    }
    if (ts.isParenthesizedTypeNode(node)) return this.mapType(node.type, where);
    if (ts.isArrayTypeNode(node)) return this.list(node.elementType, where);
    if (ts.isTypeOperatorNode(node) && node.operator === ts.SyntaxKind.ReadonlyKeyword) {
      return this.mapType(node.type, where);
    }
    if (ts.isTupleTypeNode(node)) return this.tuple(node, where);
    if (ts.isUnionTypeNode(node)) return this.union(node, where);
    if (ts.isTypeReferenceNode(node)) return this.reference(node, where);
    if (ts.isTypeLiteralNode(node)) {
      return this.unsupported(node, where, "declare an interface or a type alias for object types");
    }
    if (ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal)) {
      return this.unsupported(node, where, "declare a type alias for string-literal unions");
    }
    return this.unsupported(node, where);
  }

  private list(element: ts.TypeNode, where: string): ValueShape | undefined {
    const of = this.mapType(element, where);
    return of && { k: "list", of };
  }

  private tuple(node: ts.TupleTypeNode, where: string): ValueShape | undefined {
    if (node.elements.length === 0) return this.unsupported(node, where);
    const of: ValueShape[] = [];
    for (const element of node.elements) {
      if (ts.isRestTypeNode(element) || ts.isOptionalTypeNode(element)) return this.unsupported(node, where);
      if (ts.isNamedTupleMember(element) && (element.dotDotDotToken || element.questionToken)) {
        return this.unsupported(node, where);
      }
      const shape = this.mapType(ts.isNamedTupleMember(element) ? element.type : element, where);
      if (!shape) return undefined;
      of.push(shape);
    }
    return { k: "tuple", of };
  }

  private union(node: ts.UnionTypeNode, where: string): ValueShape | undefined {
    const members = flattenUnion(node);
    const isNull = (m: ts.TypeNode) =>
      ts.isLiteralTypeNode(m) && m.literal.kind === ts.SyntaxKind.NullKeyword;
    const isUndefined = (m: ts.TypeNode) => m.kind === ts.SyntaxKind.UndefinedKeyword;
    const present = members.filter((m) => !isNull(m) && !isUndefined(m));
    if (present.length !== 1) {
      const literals = present.every((m) => ts.isLiteralTypeNode(m) && ts.isStringLiteral(m.literal));
      return this.unsupported(
        node,
        where,
        literals ? "declare a type alias for string-literal unions" : undefined,
      );
    }
    const of = this.mapType(present[0]!, where);
    if (!of) return undefined;
    if (of.k === "option") return of;
    return { k: "option", of, none: members.some(isNull) ? "null" : "undefined" };
  }

  private reference(node: ts.TypeReferenceNode, where: string): ValueShape | undefined {
    let symbol = this.checker.getSymbolAtLocation(node.typeName);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    const declarations = symbol?.getDeclarations() ?? [];
    const first = declarations[0];
    if (!symbol || !first) return this.unsupported(node, where, "unknown type");
    const args = node.typeArguments ?? [];
    const fromLib = this.program.isSourceFileDefaultLibrary(first.getSourceFile());
    const simpleName = symbol.getName();
    if (fromLib && (simpleName === "Array" || simpleName === "ReadonlyArray") && args.length === 1) {
      return this.list(args[0]!, where);
    }
    if (fromLib && simpleName === "Promise") {
      return this.unsupported(node, where, "async functions are not supported: host calls are synchronous");
    }
    if (fromLib && simpleName === "Date") {
      return this.unsupported(node, where, "pass dates as ISO-8601 strings");
    }
    const numeric = NUMERIC_ALIASES[simpleName];
    if (numeric && ts.isTypeAliasDeclaration(first)) return { k: "num", wit: numeric };
    if (args.length > 0 || fromLib || first.getSourceFile().fileName.includes(`${sep}node_modules${sep}`)) {
      return this.unsupported(node, where);
    }
    if (ts.isInterfaceDeclaration(first)) {
      if (first.typeParameters?.length)
        return this.unsupported(node, where, "generic types are not supported");
      return this.named(first, () => this.record(first, declarations.filter(ts.isInterfaceDeclaration)));
    }
    if (ts.isTypeAliasDeclaration(first)) {
      if (first.typeParameters?.length)
        return this.unsupported(node, where, "generic types are not supported");
      const aliased = first.type;
      if (ts.isTypeLiteralNode(aliased)) return this.named(first, () => this.record(first, [first]));
      if (ts.isUnionTypeNode(aliased) && isStringLiteralUnion(aliased)) {
        return this.named(first, () => this.literalEnum(first, aliased));
      }
      if (this.inProgress.has(first))
        return this.unsupported(node, where, "recursive types are not supported");
      this.inProgress.add(first);
      try {
        return this.mapType(aliased, where);
      } finally {
        this.inProgress.delete(first);
      }
    }
    if (ts.isEnumDeclaration(first)) return this.named(first, () => this.tsEnum(first));
    if (ts.isClassDeclaration(first)) {
      return this.unsupported(node, where, "classes are not supported; use an interface");
    }
    return this.unsupported(node, where);
  }

  /** Reads a named declaration once; repeats and failures resolve from the memo. */
  private named(
    decl: ts.InterfaceDeclaration | ts.TypeAliasDeclaration | ts.EnumDeclaration,
    build: () => TypeShape | undefined,
  ): ValueShape | undefined {
    const memo = this.byDeclaration.get(decl);
    const kind = (name: string) => (this.types.get(name)?.kind === "enum" ? "enum" : "record");
    if (memo === null) return undefined;
    if (memo !== undefined) return { k: kind(memo), name: memo };
    if (this.inProgress.has(decl)) {
      this.errors.push(`${this.loc(decl.name)}: recursive type ${decl.name.text} is not supported`);
      this.byDeclaration.set(decl, null);
      return undefined;
    }
    const name = toKebabCase(decl.name.text);
    if (!name) {
      this.errors.push(`${this.loc(decl.name)}: type name ${decl.name.text} cannot be a WIT name`);
      this.byDeclaration.set(decl, null);
      return undefined;
    }
    if (this.types.has(name) || [...this.byDeclaration.values()].includes(name)) {
      this.errors.push(`${this.loc(decl.name)}: another type also maps to the WIT name ${name}`);
      this.byDeclaration.set(decl, null);
      return undefined;
    }
    this.inProgress.add(decl);
    const shape = build();
    this.inProgress.delete(decl);
    this.byDeclaration.set(decl, shape ? name : null);
    if (!shape) return undefined;
    this.types.set(name, shape);
    return { k: shape.kind, name };
  }

  private record(
    decl: ts.InterfaceDeclaration | ts.TypeAliasDeclaration,
    parts: (ts.InterfaceDeclaration | ts.TypeAliasDeclaration)[],
  ): RecordShape | undefined {
    const typeName = decl.name.text;
    const members: ts.TypeElement[] = [];
    for (const part of parts) {
      if (ts.isInterfaceDeclaration(part)) {
        members.push(...this.inheritedMembers(part));
        members.push(...part.members);
      } else if (ts.isTypeLiteralNode(part.type)) members.push(...part.type.members);
    }
    const before = this.errors.length;
    const fields: RecordShape["fields"] = [];
    const seen = new Set<string>();
    for (const member of members) {
      if (!ts.isPropertySignature(member) || !member.type) {
        this.errors.push(`${this.loc(member)}: unsupported member ${member.getText()} in ${typeName}`);
        continue;
      }
      const key =
        ts.isIdentifier(member.name) || ts.isStringLiteral(member.name) ? member.name.text : undefined;
      const wit = key === undefined ? undefined : toKebabCase(key);
      if (key === undefined || !wit) {
        this.errors.push(
          `${this.loc(member.name)}: field name ${member.name.getText()} cannot be a WIT name`,
        );
        continue;
      }
      if (seen.has(wit)) {
        this.errors.push(
          `${this.loc(member.name)}: field ${key} of ${typeName} clashes with another field as ${wit}`,
        );
        continue;
      }
      seen.add(wit);
      let shape = this.mapType(member.type, `${typeName} field ${key}`);
      if (!shape) continue;
      if (member.questionToken && shape.k !== "option") shape = { k: "option", of: shape, none: "undefined" };
      const symbol = this.checker.getSymbolAtLocation(member.name);
      const docs = symbol ? this.docs(symbol) : undefined;
      fields.push({ key, wit, shape, ...(docs ? { docs } : {}) });
    }
    if (fields.length === 0 && this.errors.length === before) {
      this.errors.push(`${this.loc(decl.name)}: record ${typeName} has no fields`);
    }
    if (this.errors.length > before) return undefined;
    return { kind: "record", name: toKebabCase(typeName)!, fields, ...this.docsOf(decl.name) };
  }

  private inheritedMembers(decl: ts.InterfaceDeclaration): ts.TypeElement[] {
    const members: ts.TypeElement[] = [];
    for (const clause of decl.heritageClauses ?? []) {
      for (const base of clause.types) {
        let symbol = this.checker.getSymbolAtLocation(base.expression);
        if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
        for (const d of symbol?.getDeclarations() ?? []) {
          if (ts.isInterfaceDeclaration(d) && !this.program.isSourceFileDefaultLibrary(d.getSourceFile())) {
            members.push(...this.inheritedMembers(d), ...d.members);
          } else if (ts.isTypeAliasDeclaration(d) && ts.isTypeLiteralNode(d.type))
            members.push(...d.type.members);
          else
            this.errors.push(
              `${this.loc(base)}: ${decl.name.text} extends unsupported type ${base.getText()}`,
            );
        }
      }
    }
    return members;
  }

  private literalEnum(decl: ts.TypeAliasDeclaration, union: ts.UnionTypeNode): EnumShape | undefined {
    const values = flattenUnion(union).map(
      (m) => ((m as ts.LiteralTypeNode).literal as ts.StringLiteral).text,
    );
    return this.enumShape(decl, values);
  }

  private tsEnum(decl: ts.EnumDeclaration): EnumShape | undefined {
    const values: string[] = [];
    for (const member of decl.members) {
      if (!member.initializer || !ts.isStringLiteralLike(member.initializer)) {
        this.errors.push(
          `${this.loc(member)}: enum ${decl.name.text} must have string values to become a WIT enum`,
        );
        return undefined;
      }
      values.push(member.initializer.text);
    }
    return this.enumShape(decl, values);
  }

  private enumShape(
    decl: ts.TypeAliasDeclaration | ts.EnumDeclaration,
    values: string[],
  ): EnumShape | undefined {
    const cases: EnumShape["cases"] = [];
    for (const value of values) {
      const wit = toKebabCase(value);
      if (!wit || cases.some((c) => c.wit === wit)) {
        this.errors.push(
          `${this.loc(decl.name)}: enum ${decl.name.text} value "${value}" cannot be a distinct WIT case name`,
        );
        return undefined;
      }
      cases.push({ value, wit });
    }
    return { kind: "enum", name: toKebabCase(decl.name.text)!, cases, ...this.docsOf(decl.name) };
  }

  private unsupported(node: ts.Node, where: string, hint?: string): undefined {
    const text = node.getText().replace(/\s+/g, " ");
    const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
    this.errors.push(`${this.loc(node)}: unsupported type ${shown} in ${where}${hint ? ` (${hint})` : ""}`);
    return undefined;
  }

  private docsOf(name: ts.Node): { docs?: string } {
    const symbol = this.checker.getSymbolAtLocation(name);
    const docs = symbol ? this.docs(symbol) : undefined;
    return docs ? { docs } : {};
  }

  private docs(symbol: ts.Symbol): string | undefined {
    const text = ts.displayPartsToString(symbol.getDocumentationComment(this.checker)).trim();
    return text === "" ? undefined : text;
  }

  private loc(node: ts.Node): string {
    const source = node.getSourceFile();
    const { line, character } = source.getLineAndCharacterOfPosition(node.getStart());
    return `${this.rel(source.fileName)}:${line + 1}:${character + 1}`;
  }

  private rel(file: string): string {
    const r = relative(this.appDir, file);
    return r.startsWith("..") ? file : r.split(sep).join("/");
  }
}

function flattenUnion(node: ts.UnionTypeNode): ts.TypeNode[] {
  return node.types.flatMap((t) => {
    const inner = ts.isParenthesizedTypeNode(t) ? t.type : t;
    return ts.isUnionTypeNode(inner) ? flattenUnion(inner) : [inner];
  });
}

function isStringLiteralUnion(node: ts.UnionTypeNode): boolean {
  return flattenUnion(node).every((m) => ts.isLiteralTypeNode(m) && ts.isStringLiteral(m.literal));
}

/** Orders `file:line:col: …` diagnostics as they appear in the source. */
function byPosition(a: string, b: string): number {
  const pa = /^(.*?):(\d+):(\d+):/.exec(a);
  const pb = /^(.*?):(\d+):(\d+):/.exec(b);
  if (!pa || !pb) return 0;
  return pa[1]!.localeCompare(pb[1]!) || Number(pa[2]) - Number(pb[2]) || Number(pa[3]) - Number(pb[3]);
}
