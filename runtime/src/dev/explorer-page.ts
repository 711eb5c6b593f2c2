/**
 * The API explorer served at /explorer: one dependency-free HTML page (inline CSS and JS, no build step)
 * that lists the app's functions, calls them over the app's GraphQL endpoint and tests connections. It
 * reads /explorer/api/{endpoints,functions,connections}. Data is only ever inserted with textContent.
 */
export const EXPLORER_TITLE = "Trellis API Explorer";

const STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --bg: #fff; --panel: #f6f8fa;
  --border: #d0d7de; --accent: #0969da; --ok: #1a7f37; --bad: #cf222e; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117;
  --panel: #161b22; --border: #30363d; --accent: #4493f8; --ok: #3fb950; --bad: #f85149; } }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; gap: 1rem; align-items: center; padding: .6rem 1rem; border-bottom: 1px solid var(--border); }
header h1 { font-size: 1.1rem; margin: 0; }
.badge { font-size: .75rem; padding: .1rem .4rem; border: 1px solid var(--accent); color: var(--accent); border-radius: 4px; }
main { display: grid; grid-template-columns: 16rem 1fr; min-height: calc(100vh - 3rem); }
nav { border-right: 1px solid var(--border); padding: .5rem; background: var(--panel); overflow: auto; }
nav h2 { font-size: .8rem; text-transform: uppercase; color: var(--muted); margin: .8rem .3rem .3rem; }
nav ul { list-style: none; margin: 0; padding: 0; }
nav button { width: 100%; text-align: left; background: none; border: 0; padding: .3rem .4rem; border-radius: 4px;
  color: inherit; font: inherit; cursor: pointer; }
nav button[aria-current="true"] { background: var(--accent); color: #fff; }
nav button:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible {
  outline: 2px solid var(--accent); outline-offset: 1px; }
section { padding: 1rem; overflow: auto; }
.panel { border: 1px solid var(--border); border-radius: 6px; padding: .8rem; margin-bottom: 1rem; }
.panel h2, .panel h3 { margin: 0 0 .5rem; font-size: 1rem; }
code, pre, textarea { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
pre { background: var(--panel); padding: .6rem; border-radius: 4px; overflow: auto; max-height: 24rem; white-space: pre-wrap; word-break: break-word; }
label { display: block; margin: .4rem 0 .15rem; }
input, select, textarea { width: 100%; padding: .35rem; border: 1px solid var(--border); border-radius: 4px;
  background: var(--bg); color: inherit; }
textarea { min-height: 5rem; }
button.primary { background: var(--accent); color: #fff; border: 0; padding: .45rem .9rem; border-radius: 4px; font: inherit; cursor: pointer; }
.row { display: flex; gap: 1rem; flex-wrap: wrap; align-items: center; }
.muted { color: var(--muted); }
.ok { color: var(--ok); } .bad { color: var(--bad); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--border); vertical-align: top; }
.log-error { color: var(--bad); } .log-warning { color: #9a6700; }
`;

const SCRIPT = String.raw`
"use strict";
var state = { functions: [], enums: {}, endpoints: [], selected: null };

function el(tag, attrs, children) {
  var node = document.createElement(tag);
  Object.keys(attrs || {}).forEach(function (k) {
    if (k === "text") node.textContent = attrs[k];
    else if (k === "onclick") node.addEventListener("click", attrs[k]);
    else node.setAttribute(k, attrs[k]);
  });
  (children || []).forEach(function (c) { if (c) node.appendChild(c); });
  return node;
}

function getJSON(path) {
  return fetch(path, { headers: { accept: "application/json" } }).then(function (r) { return r.json(); });
}

function endpoint() {
  var sel = document.getElementById("endpoint");
  return state.endpoints[Number(sel.value) || 0] || { path: "/graphql", auth: "none" };
}

function renderEndpoints() {
  var sel = document.getElementById("endpoint");
  sel.textContent = "";
  state.endpoints.forEach(function (e, i) {
    sel.appendChild(el("option", { value: String(i), text: e.name + "  " + location.origin + e.path }));
  });
  updateAuth();
}

function updateAuth() {
  document.getElementById("auth").hidden = endpoint().auth !== "bearer-token";
}

function renderList() {
  var nav = document.getElementById("functions");
  nav.textContent = "";
  if (state.functions.length === 0) {
    nav.appendChild(el("p", { class: "muted", text: state.error || "No functions." }));
    return;
  }
  ["Query", "Mutation"].forEach(function (root) {
    var fns = state.functions.filter(function (f) { return f.rootType === root; });
    if (fns.length === 0) return;
    var id = "group-" + root;
    nav.appendChild(el("h2", { id: id, text: root }));
    var ul = el("ul", { "aria-labelledby": id });
    fns.forEach(function (f) {
      var b = el("button", { type: "button", "data-fn": f.name, onclick: function () { select(f); } });
      b.appendChild(el("span", { text: f.name }));
      if (state.selected === f) b.setAttribute("aria-current", "true");
      ul.appendChild(el("li", {}, [b]));
    });
    nav.appendChild(ul);
  });
}

function baseType(t) { return t.replace(/!$/, ""); }

function inputFor(arg, id) {
  var t = baseType(arg.type);
  if (t === "Boolean") {
    var s = el("select", { id: id });
    [["", "(null)"], ["true", "true"], ["false", "false"]].forEach(function (o) {
      s.appendChild(el("option", { value: o[0], text: o[1] }));
    });
    if (arg.type.slice(-1) === "!") s.value = "false";
    return s;
  }
  if (state.enums[t]) {
    var e = el("select", { id: id });
    if (arg.type.slice(-1) !== "!") e.appendChild(el("option", { value: "", text: "(null)" }));
    state.enums[t].forEach(function (v) { e.appendChild(el("option", { value: v, text: v })); });
    return e;
  }
  var scalar = ["String", "Int", "Float", "UInt", "Int64", "UInt64"].indexOf(t) >= 0;
  if (scalar) {
    var numeric = t !== "String";
    return el("input", { id: id, type: "text", inputmode: numeric ? "numeric" : "text", autocomplete: "off" });
  }
  return el("textarea", { id: id, placeholder: "JSON, e.g. " + (t.charAt(0) === "[" ? "[]" : "{}") });
}

function readArg(arg, id) {
  var raw = document.getElementById(id).value;
  var t = baseType(arg.type);
  var nonNull = arg.type.slice(-1) === "!";
  if (raw === "") return nonNull && t === "String" ? "" : null;
  if (t === "Boolean") return raw === "true";
  if (t === "Int" || t === "Float" || t === "UInt") {
    var n = Number(raw);
    if (isNaN(n)) throw new Error(arg.name + ": not a number");
    return n;
  }
  if (t === "String" || t === "Int64" || t === "UInt64" || state.enums[t]) return raw;
  try { return JSON.parse(raw); } catch (err) { throw new Error(arg.name + ": invalid JSON (" + err.message + ")"); }
}

function buildQuery(f) {
  var op = f.rootType === "Mutation" ? "mutation" : "query";
  var vars = f.args.map(function (a) { return "$" + a.name + ": " + a.type; }).join(", ");
  var call = f.args.map(function (a) { return a.name + ": $" + a.name; }).join(", ");
  return op + " Run" + (vars ? "(" + vars + ")" : "") + " {\n  " + f.name + (call ? "(" + call + ")" : "") +
    (f.selection ? " " + f.selection : "") + "\n}";
}

function select(f) {
  state.selected = f;
  renderList();
  var pane = document.getElementById("detail");
  pane.textContent = "";
  var form = el("form", { "aria-labelledby": "fn-title" });
  form.appendChild(el("h2", { id: "fn-title", text: f.name }));
  if (f.description) form.appendChild(el("p", { class: "muted", text: f.description }));
  var meta = el("p", {});
  meta.appendChild(el("span", { class: "muted", text: f.rootType + " · returns " }));
  meta.appendChild(el("code", { text: f.returnType }));
  form.appendChild(meta);
  var args = el("fieldset", {});
  args.appendChild(el("legend", { text: f.args.length ? "Arguments" : "No arguments" }));
  f.args.forEach(function (a, i) {
    var id = "arg-" + i;
    var label = el("label", { for: id });
    label.appendChild(el("span", { text: a.name + " " }));
    label.appendChild(el("code", { text: a.type }));
    args.appendChild(label);
    args.appendChild(inputFor(a, id));
  });
  form.appendChild(args);
  form.appendChild(el("label", { for: "query", text: "Operation (Ctrl+Enter runs)" }));
  var q = el("textarea", { id: "query", rows: "6", spellcheck: "false" });
  q.value = buildQuery(f);
  q.addEventListener("keydown", function (ev) {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); run(f); }
  });
  form.appendChild(q);
  form.appendChild(el("p", {}, [el("button", { type: "submit", class: "primary", id: "run", text: "Run" })]));
  form.addEventListener("submit", function (ev) { ev.preventDefault(); run(f); });
  pane.appendChild(el("div", { class: "panel" }, [form]));
  var out = el("div", { class: "panel", "aria-live": "polite", id: "output" });
  out.appendChild(el("h3", { text: "Response" }));
  out.appendChild(el("p", { id: "run-meta", class: "muted", text: "Not run yet." }));
  out.appendChild(el("pre", { id: "result", tabindex: "0", "aria-label": "Response JSON" }));
  out.appendChild(el("h3", { text: "Logs" }));
  out.appendChild(el("ul", { id: "logs" }));
  pane.appendChild(out);
}

function run(f) {
  var meta = document.getElementById("run-meta");
  var variables = {};
  try {
    f.args.forEach(function (a, i) { variables[a.name] = readArg(a, "arg-" + i); });
  } catch (err) {
    meta.textContent = err.message;
    meta.className = "bad";
    return;
  }
  var headers = { "content-type": "application/json", accept: "application/json" };
  try { headers["x-time-zone"] = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (e) {}
  var token = document.getElementById("token").value.trim();
  if (token && endpoint().auth === "bearer-token") headers.authorization = "Bearer " + token;
  meta.textContent = "Running…";
  meta.className = "muted";
  var t0 = performance.now();
  fetch(endpoint().path, { method: "POST", headers: headers,
    body: JSON.stringify({ query: document.getElementById("query").value, variables: variables }) })
    .then(function (r) { return r.text().then(function (text) { return { status: r.status, text: text }; }); })
    .then(function (res) {
      var ms = Math.round(performance.now() - t0);
      var body;
      try { body = JSON.parse(res.text); } catch (e) { body = null; }
      document.getElementById("result").textContent = body ? JSON.stringify(body, null, 2) : res.text;
      var inv = body && body.extensions && body.extensions.invocations && body.extensions.invocations[f.name];
      var failed = res.status >= 400 || !!(body && body.errors && body.errors.length);
      meta.textContent = "HTTP " + res.status + " · " + ms + " ms round trip" +
        (inv ? " · function " + inv.durationMs + " ms · executionId " + inv.executionId : "") +
        (failed ? " · errors" : "");
      meta.className = failed ? "bad" : "ok";
      var logs = document.getElementById("logs");
      logs.textContent = "";
      var entries = (inv && inv.logs) || [];
      if (entries.length === 0) logs.appendChild(el("li", { class: "muted", text: "No logs." }));
      entries.forEach(function (l) {
        logs.appendChild(el("li", { class: "log-" + l.level, text: "[" + l.level + "] " + l.message }));
      });
    })
    .catch(function (err) { meta.textContent = "Request failed: " + err.message; meta.className = "bad"; });
}

function testConnections() {
  var btn = document.getElementById("test-connections");
  var status = document.getElementById("connections-status");
  var body = document.getElementById("connections-body");
  btn.disabled = true;
  status.textContent = "Testing…";
  getJSON("/explorer/api/connections").then(function (res) {
    body.textContent = "";
    var list = res.connections || [];
    status.textContent = res.error ? res.error : list.length + " connection(s) tested.";
    list.forEach(function (c) {
      var auth = c.authenticated === null ? "n/a" : c.authenticated ? "yes" : "no";
      body.appendChild(el("tr", {}, [
        el("td", { text: c.name }), el("td", { text: c.type }),
        el("td", { class: c.reachable ? "ok" : "bad", text: c.reachable ? "yes" : "no" }),
        el("td", { class: c.authenticated === false ? "bad" : c.authenticated ? "ok" : "muted", text: auth }),
        el("td", { text: c.detail }), el("td", { text: c.ms + " ms" })
      ]));
    });
  }).catch(function (err) { status.textContent = "Failed: " + err.message; })
    .then(function () { btn.disabled = false; });
}

function load() {
  Promise.all([getJSON("/explorer/api/endpoints"), getJSON("/explorer/api/functions")]).then(function (r) {
    state.endpoints = r[0].endpoints && r[0].endpoints.length ? r[0].endpoints : [{ name: "default", path: "/graphql", auth: "none" }];
    state.functions = r[1].functions || [];
    state.enums = r[1].enums || {};
    state.error = r[1].error;
    renderEndpoints();
    renderList();
    if (state.functions.length && !state.selected) select(state.functions[0]);
  }).catch(function (err) {
    state.error = "Could not load the app: " + err.message;
    renderList();
  });
}

document.getElementById("endpoint").addEventListener("change", updateAuth);
document.getElementById("test-connections").addEventListener("click", testConnections);
document.getElementById("reload").addEventListener("click", load);
load();
`;

const BODY = `
<header>
  <h1>Trellis API Explorer</h1>
  <span class="badge">GraphQL</span>
  <label for="endpoint" class="muted" style="margin:0">Endpoint</label>
  <select id="endpoint" style="width:auto"></select>
  <form id="auth" hidden onsubmit="return false"><label for="token" class="muted" style="display:inline">Bearer token</label>
    <input id="token" type="password" autocomplete="off" style="width:14rem"></form>
  <button type="button" id="reload">Reload functions</button>
</header>
<main>
  <nav aria-label="Functions"><div id="functions"><p class="muted">Loading…</p></div></nav>
  <section>
    <div id="detail"></div>
    <div class="panel" role="region" aria-labelledby="connections-title">
      <div class="row">
        <h2 id="connections-title">Connections</h2>
        <button type="button" class="primary" id="test-connections">Test connections</button>
        <span id="connections-status" class="muted" aria-live="polite"></span>
      </div>
      <table>
        <thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Reachable</th>
          <th scope="col">Authenticated</th><th scope="col">Detail</th><th scope="col">Time</th></tr></thead>
        <tbody id="connections-body"></tbody>
      </table>
    </div>
  </section>
</main>
`;

/** The explorer's script, exported so tests can check it parses. */
export const EXPLORER_SCRIPT = SCRIPT;

/** The complete explorer page. */
export function explorerPageHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${EXPLORER_TITLE}</title>
<style>${STYLE}</style>
</head>
<body>${BODY}<script>${SCRIPT}</script>
</body>
</html>
`;
}
