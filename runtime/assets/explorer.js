// The API explorer's script (src/dev/explorer-page.ts inlines it into explorer.html): browser code with no
// build step, written for the oldest browsers a developer might open it in.
// biome-ignore-all lint/complexity/useOptionalChain: `a && a.b` is kept as written (it yields `a` when falsy)
// biome-ignore-all lint/correctness/noInnerDeclarations: block-level helpers, as written
// biome-ignore-all lint/suspicious/noGlobalIsNan: the coercing isNaN is the intended check
var state = { functions: [], enums: {}, endpoints: [], selected: null };

function el(tag, attrs, children) {
  var node = document.createElement(tag);
  Object.keys(attrs || {}).forEach((k) => {
    if (k === "text") node.textContent = attrs[k];
    else if (k === "onclick") node.addEventListener("click", attrs[k]);
    else node.setAttribute(k, attrs[k]);
  });
  (children || []).forEach((c) => {
    if (c) node.appendChild(c);
  });
  return node;
}

function getJSON(path) {
  return fetch(path, { headers: { accept: "application/json" } }).then((r) => r.json());
}

function endpoint() {
  var sel = document.getElementById("endpoint");
  return state.endpoints[Number(sel.value) || 0] || { path: "/graphql", auth: "none" };
}

function renderEndpoints() {
  var sel = document.getElementById("endpoint");
  sel.textContent = "";
  state.endpoints.forEach((e, i) => {
    sel.appendChild(el("option", { value: String(i), text: e.name + "  " + location.origin + e.path }));
  });
  updateAuth();
}

function updateAuth() {
  // bearer-token endpoints take an API key, jwt ones a key or a user's JWT (checked once keys are set).
  document.getElementById("auth").hidden = endpoint().auth === "none";
}

function renderList() {
  var nav = document.getElementById("functions");
  nav.textContent = "";
  if (state.functions.length === 0) {
    nav.appendChild(el("p", { class: "muted", text: state.error || "No functions." }));
    return;
  }
  ["Query", "Mutation"].forEach((root) => {
    var fns = state.functions.filter((f) => f.rootType === root);
    if (fns.length === 0) return;
    var id = "group-" + root;
    nav.appendChild(el("h2", { id: id, text: root }));
    var ul = el("ul", { "aria-labelledby": id });
    fns.forEach((f) => {
      var b = el("button", {
        type: "button",
        "data-fn": f.name,
        onclick: () => {
          select(f);
        },
      });
      b.appendChild(el("span", { text: f.name }));
      if (state.selected === f) b.setAttribute("aria-current", "true");
      ul.appendChild(el("li", {}, [b]));
    });
    nav.appendChild(ul);
  });
}

function baseType(t) {
  return t.replace(/!$/, "");
}

function inputFor(arg, id) {
  var t = baseType(arg.type);
  if (t === "Boolean") {
    var s = el("select", { id: id });
    [
      ["", "(null)"],
      ["true", "true"],
      ["false", "false"],
    ].forEach((o) => {
      s.appendChild(el("option", { value: o[0], text: o[1] }));
    });
    if (arg.type.slice(-1) === "!") s.value = "false";
    return s;
  }
  if (state.enums[t]) {
    var e = el("select", { id: id });
    if (arg.type.slice(-1) !== "!") e.appendChild(el("option", { value: "", text: "(null)" }));
    state.enums[t].forEach((v) => {
      e.appendChild(el("option", { value: v, text: v }));
    });
    return e;
  }
  var scalar = ["String", "Int", "Float", "UInt", "Int64", "UInt64"].indexOf(t) >= 0;
  if (scalar) {
    var numeric = t !== "String";
    return el("input", {
      id: id,
      type: "text",
      inputmode: numeric ? "numeric" : "text",
      autocomplete: "off",
    });
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
  try {
    return JSON.parse(raw);
  } catch (err) {
    throw new Error(arg.name + ": invalid JSON (" + err.message + ")");
  }
}

function buildQuery(f) {
  var op = f.rootType === "Mutation" ? "mutation" : "query";
  var vars = f.args.map((a) => "$" + a.name + ": " + a.type).join(", ");
  var call = f.args.map((a) => a.name + ": $" + a.name).join(", ");
  return (
    op +
    " Run" +
    (vars ? "(" + vars + ")" : "") +
    " {\n  " +
    f.name +
    (call ? "(" + call + ")" : "") +
    (f.selection ? " " + f.selection : "") +
    "\n}"
  );
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
  f.args.forEach((a, i) => {
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
  q.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
      ev.preventDefault();
      run(f);
    }
  });
  form.appendChild(q);
  form.appendChild(el("p", {}, [el("button", { type: "submit", class: "primary", id: "run", text: "Run" })]));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    run(f);
  });
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
    f.args.forEach((a, i) => {
      variables[a.name] = readArg(a, "arg-" + i);
    });
  } catch (err) {
    meta.textContent = err.message;
    meta.className = "bad";
    return;
  }
  var headers = { "content-type": "application/json", accept: "application/json" };
  try {
    headers["x-time-zone"] = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {}
  var token = document.getElementById("token").value.trim();
  if (token && endpoint().auth !== "none") headers.authorization = "Bearer " + token;
  meta.textContent = "Running…";
  meta.className = "muted";
  var t0 = performance.now();
  fetch(endpoint().path, {
    method: "POST",
    headers: headers,
    body: JSON.stringify({ query: document.getElementById("query").value, variables: variables }),
  })
    .then((r) => r.text().then((text) => ({ status: r.status, text: text })))
    .then((res) => {
      var ms = Math.round(performance.now() - t0);
      var body;
      try {
        body = JSON.parse(res.text);
      } catch {
        body = null;
      }
      document.getElementById("result").textContent = body ? JSON.stringify(body, null, 2) : res.text;
      var inv = body && body.extensions && body.extensions.invocations && body.extensions.invocations[f.name];
      var failed = res.status >= 400 || !!(body && body.errors && body.errors.length);
      meta.textContent =
        "HTTP " +
        res.status +
        " · " +
        ms +
        " ms round trip" +
        (inv ? " · function " + inv.durationMs + " ms · executionId " + inv.executionId : "") +
        (failed ? " · errors" : "");
      meta.className = failed ? "bad" : "ok";
      var logs = document.getElementById("logs");
      logs.textContent = "";
      var entries = (inv && inv.logs) || [];
      if (entries.length === 0) logs.appendChild(el("li", { class: "muted", text: "No logs." }));
      entries.forEach((l) => {
        logs.appendChild(el("li", { class: "log-" + l.level, text: "[" + l.level + "] " + l.message }));
      });
    })
    .catch((err) => {
      meta.textContent = "Request failed: " + err.message;
      meta.className = "bad";
    });
}

function testConnections() {
  var btn = document.getElementById("test-connections");
  var status = document.getElementById("connections-status");
  var body = document.getElementById("connections-body");
  btn.disabled = true;
  status.textContent = "Testing…";
  getJSON("/explorer/api/connections")
    .then((res) => {
      body.textContent = "";
      var list = res.connections || [];
      status.textContent = res.error ? res.error : list.length + " connection(s) tested.";
      list.forEach((c) => {
        var auth = c.authenticated === null ? "n/a" : c.authenticated ? "yes" : "no";
        body.appendChild(
          el("tr", {}, [
            el("td", { text: c.name }),
            el("td", { text: c.type }),
            el("td", { class: c.reachable ? "ok" : "bad", text: c.reachable ? "yes" : "no" }),
            el("td", {
              class: c.authenticated === false ? "bad" : c.authenticated ? "ok" : "muted",
              text: auth,
            }),
            el("td", { text: c.detail }),
            el("td", { text: c.ms + " ms" }),
          ]),
        );
      });
    })
    .catch((err) => {
      status.textContent = "Failed: " + err.message;
    })
    .then(() => {
      btn.disabled = false;
    });
}

function load() {
  Promise.all([getJSON("/explorer/api/endpoints"), getJSON("/explorer/api/functions")])
    .then((r) => {
      state.endpoints =
        r[0].endpoints && r[0].endpoints.length
          ? r[0].endpoints
          : [{ name: "default", path: "/graphql", auth: "none" }];
      state.functions = r[1].functions || [];
      state.enums = r[1].enums || {};
      state.error = r[1].error;
      renderEndpoints();
      renderList();
      if (state.functions.length && !state.selected) select(state.functions[0]);
    })
    .catch((err) => {
      state.error = "Could not load the app: " + err.message;
      renderList();
    });
}

document.getElementById("endpoint").addEventListener("change", updateAuth);
document.getElementById("test-connections").addEventListener("click", testConnections);
document.getElementById("reload").addEventListener("click", load);
load();
