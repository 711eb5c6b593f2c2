#!/usr/bin/env node
// The one preparation step of `npm test` (developers and CI run the same command). The tests talk to real
// services: PostgreSQL on 127.0.0.1:5432 (trust, role postgres, database test), MariaDB on 127.0.0.1:3306
// (root with an empty password, database test), Debian's /usr/bin/chromium, and Go >= 1.24 on PATH.
//
// As root on Debian it installs what is missing (apt-get) and starts the servers without systemd. Anywhere
// else it installs nothing: it names each missing piece with the command that fixes it and exits 1, so a
// test never fails (or skips) later for want of a service. When everything already answers, it only
// probes (a login over TCP per server, no client programs) and finishes in well under a second.
//
// Plain Node ESM (it runs before any TypeScript is built); the login probes use the repository's own
// PostgreSQL and MariaDB clients (pg, mysql2), installed by `npm install`.
// TRELLIS_TEST_SERVICES_CHECK_ONLY=1 forces the check-only branch (what a non-root developer sees).

import { spawn, spawnSync } from "node:child_process";
import {
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const HOST = "127.0.0.1";
const PG = { port: 5432, user: "postgres", database: "test" };
const MARIADB = { port: 3306, user: "root", database: "test", log: "/var/log/mysql/error.log" };
const CHROMIUM = "/usr/bin/chromium";
const GO_MIN = { major: 1, minor: 24 };
const PACKAGES = { postgres: "postgresql", mariadb: "mariadb-server", chromium: "chromium" };
const LOG_DIR = join(tmpdir(), "trellis-test-services");
const START_TIMEOUT_MS = 30_000;
const HBA_MARKER = "# trellis tests: trust this machine's own connections (scripts/test-services.mjs)";
const HBA_TRUST = [
  HBA_MARKER,
  "local all all trust",
  "host all all 127.0.0.1/32 trust",
  "host all all ::1/128 trust",
];
const MARIADB_SETUP_SQL = [
  // Debian's root@localhost uses unix_socket, which refuses TCP logins; the tests log in as root over TCP.
  "ALTER USER 'root'@'localhost' IDENTIFIED VIA mysql_native_password USING PASSWORD('')",
  // Without name resolution a connection from 127.0.0.1 is not 'localhost': give that host its own root.
  "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED VIA mysql_native_password USING PASSWORD('')",
  "ALTER USER 'root'@'127.0.0.1' IDENTIFIED VIA mysql_native_password USING PASSWORD('')",
  "GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION",
  "CREATE DATABASE IF NOT EXISTS test",
].join("; ");

// ---------------------------------------------------------------------------------------------------------
// Progress on stderr: one line per step, with its duration.

const started = performance.now();
const seconds = (since) => {
  const ms = performance.now() - since;
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
};
const say = (line) => process.stderr.write(`[test-services] ${line}\n`);

async function step(label, action) {
  process.stderr.write(`[test-services] ${label} ... `);
  const t = performance.now();
  try {
    const result = await action();
    process.stderr.write(`ok (${seconds(t)})\n`);
    return result;
  } catch (err) {
    process.stderr.write(`FAILED (${seconds(t)})\n`);
    throw err;
  }
}

/** Runs a command to completion; its output goes to a log file (long, like apt) or into the error. */
function run(cmd, args, { log, env } = {}) {
  const out = log ? openSync(log, "a") : "pipe";
  const res = spawnSync(cmd, args, {
    stdio: ["ignore", out, out],
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  if (log) closeSync(out);
  if (res.status === 0) return res.stdout ?? "";
  const output = log ? tail(log) : `${res.stdout ?? ""}${res.stderr ?? ""}`.trim();
  const why = res.error ? res.error.message : `exit code ${res.status}`;
  throw new Error(`\`${cmd} ${args.join(" ")}\` failed (${why})${log ? `; log: ${log}` : ""}\n${output}`);
}

function tail(file, lines = 8) {
  return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------------------
// Login probes: a real login as the tests do it, with the clients the tests use (pg, mysql2), so the check
// needs no client programs (a developer's servers may live in containers) and costs milliseconds.
// A probe answers { ok } or { ok: false, kind: "down" | "auth" | "nodb" | "other", reason }.

const down = (port) => ({ ok: false, kind: "down", reason: `nothing answers on ${HOST}:${port}` });
const CONNECT_TIMEOUT_MS = 3000;
const REFUSED = new Set(["ECONNREFUSED", "ECONNRESET", "EHOSTUNREACH", "ETIMEDOUT"]);

/** Logs in to PostgreSQL as the tests do (role postgres, no password, database test). */
async function probePostgres() {
  const { default: pg } = await import("pg");
  const client = new pg.Client({
    host: HOST,
    port: PG.port,
    user: PG.user,
    database: PG.database,
    // A server that asks for one gets an empty string, which it refuses: the tests expect trust.
    password: "",
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  client.on("error", () => {});
  try {
    await client.connect();
    return { ok: true };
  } catch (err) {
    if (REFUSED.has(err.code)) return down(PG.port);
    if (err.code === "3D000") return { ok: false, kind: "nodb", reason: err.message };
    if (err.code?.startsWith("28") || /password/i.test(err.message)) {
      return {
        ok: false,
        kind: "auth",
        reason: `asks ${PG.user} for a password (the tests expect trust): ${err.message}`,
      };
    }
    return { ok: false, kind: "other", reason: err.message };
  } finally {
    await client.end().catch(() => {});
  }
}

/** Logs in to MariaDB as root with an empty password to database test, as the tests do. */
async function probeMariadb() {
  const mysql = await import("mysql2/promise");
  let connection;
  try {
    connection = await mysql.createConnection({
      host: HOST,
      port: MARIADB.port,
      user: MARIADB.user,
      password: "",
      database: MARIADB.database,
      connectTimeout: CONNECT_TIMEOUT_MS,
    });
    return { ok: true };
  } catch (err) {
    if (REFUSED.has(err.code)) return down(MARIADB.port);
    if (err.code === "ER_BAD_DB_ERROR") return { ok: false, kind: "nodb", reason: err.message };
    if (
      ["ER_ACCESS_DENIED_ERROR", "ER_HOST_NOT_PRIVILEGED", "ER_ACCESS_DENIED_NO_PASSWORD_ERROR"].includes(
        err.code,
      )
    ) {
      return { ok: false, kind: "auth", reason: err.message };
    }
    return { ok: false, kind: "other", reason: err.message };
  } finally {
    await connection?.end().catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------------------
// Checks of the two tools that are files, not servers.

function probeChromium() {
  return existsSync(CHROMIUM) ? { ok: true } : { ok: false, kind: "down", reason: `${CHROMIUM} is missing` };
}

function probeGo() {
  const res = spawnSync("go", ["version"], { encoding: "utf8" });
  if (res.error) return { ok: false, kind: "down", reason: "`go` is not on PATH" };
  const m = /go(\d+)\.(\d+)\S*/.exec(res.stdout);
  const tooOld = !m || +m[1] < GO_MIN.major || (+m[1] === GO_MIN.major && +m[2] < GO_MIN.minor);
  const found = res.stdout.trim() || res.stderr.trim();
  return tooOld ? { ok: false, kind: "old", reason: `found ${found}` } : { ok: true, version: m[0] };
}

// ---------------------------------------------------------------------------------------------------------
// PostgreSQL (root on Debian): the cluster of the installed version, started with pg_ctlcluster.

function postgresVersion() {
  const dirs = existsSync("/etc/postgresql")
    ? readdirSync("/etc/postgresql").filter((d) => /^\d+$/.test(d))
    : [];
  return dirs.sort((a, b) => b - a)[0];
}

/** Puts trust lines first in pg_hba.conf (the first matching line wins); true when the file changed. */
function trustLocalConnections(version) {
  const file = `/etc/postgresql/${version}/main/pg_hba.conf`;
  const text = readFileSync(file, "utf8");
  if (text.includes(HBA_MARKER)) return false;
  writeFileSync(file, `${HBA_TRUST.join("\n")}\n\n${text}`);
  return true;
}

async function preparePostgres() {
  const version = postgresVersion();
  if (!version) throw new Error("no cluster under /etc/postgresql (is the postgresql package installed?)");
  const log = `/var/log/postgresql/postgresql-${version}-main.log`;
  const ctl = (action) => {
    try {
      return run("pg_ctlcluster", ["--skip-systemctl-redirect", version, "main", action]);
    } catch (err) {
      throw new Error(`${err.message}\nserver log: ${log}`);
    }
  };
  const changed = trustLocalConnections(version);
  let status = await probePostgres();
  if (status.kind === "down") {
    await step(`PostgreSQL ${version}: start cluster`, () => ctl("start"));
  } else if (changed) {
    await step(`PostgreSQL ${version}: trust auth in pg_hba.conf, reload`, () => ctl("reload"));
  }
  // A reload is only a signal: wait until the server answers without asking for a password.
  const trusted = (s) => s.kind !== "down" && s.kind !== "auth";
  status = await waitFor("PostgreSQL", probePostgres, { log, until: trusted });
  if (status.kind === "nodb") {
    await step(`PostgreSQL: create database ${PG.database}`, () =>
      run("createdb", ["-h", HOST, "-p", String(PG.port), "-U", PG.user, PG.database]),
    );
    status = await probePostgres();
  }
  if (!status.ok) throw new Error(`${status.reason} (log: ${log})`);
}

// ---------------------------------------------------------------------------------------------------------
// MariaDB (root on Debian): mariadbd in the background as user mysql, then root over TCP without password.

function startMariadb() {
  // mariadbd drops to user mysql and puts its socket and pid file in /run/mysqld, which must be mysql's.
  const [uid, gid] = [userId("-u"), userId("-g")];
  mkdirSync("/run/mysqld", { recursive: true });
  chownSync("/run/mysqld", uid, gid);
  mkdirSync("/var/log/mysql", { recursive: true });
  chownSync("/var/log/mysql", uid, gid);
  const args = [
    "--user=mysql",
    `--bind-address=${HOST}`,
    `--port=${MARIADB.port}`,
    `--log-error=${MARIADB.log}`,
  ];
  // Detached and unreferenced: the server outlives this script (and `npm test`), as a service does.
  const child = spawn("/usr/sbin/mariadbd", args, { detached: true, stdio: "ignore" });
  const state = { exited: false };
  child.on("exit", () => (state.exited = true));
  child.on("error", () => (state.exited = true));
  child.unref();
  return state;
}

const userId = (flag) => Number(run("id", [flag, "mysql"]).trim());

async function prepareMariadb() {
  let status = await probeMariadb();
  if (status.kind === "down") {
    status = await step("MariaDB: start mariadbd", () => {
      const server = startMariadb();
      return waitFor("MariaDB", probeMariadb, { log: MARIADB.log, exited: () => server.exited });
    });
  }
  if (status.kind === "auth" || status.kind === "nodb") {
    // As OS root the socket login works whatever root's TCP authentication is.
    await step("MariaDB: root over TCP without password, database test", () =>
      run("mariadb", ["--protocol=socket", "-uroot", "-e", MARIADB_SETUP_SQL]),
    );
    status = await probeMariadb();
  }
  if (!status.ok) throw new Error(`${status.reason} (log: ${MARIADB.log})`);
}

/** Polls a probe until `until` (by default: the server answers at all); bounded by START_TIMEOUT_MS. */
async function waitFor(name, probe, { log, exited = () => false, until = (s) => s.kind !== "down" }) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const status = await probe();
    if (status.ok || until(status)) return status;
    if (exited()) throw new Error(`${name} exited while starting; see ${log}:\n${tailIfExists(log)}`);
    if (Date.now() > deadline) {
      throw new Error(`${name} not ready after ${START_TIMEOUT_MS / 1000} s (${status.reason}); see ${log}`);
    }
    await sleep(200);
  }
}

const tailIfExists = (file) => (existsSync(file) ? tail(file) : "(no log written)");

// ---------------------------------------------------------------------------------------------------------
// The pieces, what each needs, and how a person fixes each by hand (shown when this script may not).

const PIECES = [
  {
    name: `PostgreSQL on ${HOST}:${PG.port} (trust, role ${PG.user}, database ${PG.database})`,
    package: PACKAGES.postgres,
    probe: probePostgres,
    prepare: preparePostgres,
    fix: postgresFix,
  },
  {
    name: `MariaDB on ${HOST}:${MARIADB.port} (root without password, database ${MARIADB.database})`,
    package: PACKAGES.mariadb,
    probe: probeMariadb,
    prepare: prepareMariadb,
    fix: mariadbFix,
  },
  { name: `chromium (${CHROMIUM})`, package: PACKAGES.chromium, probe: probeChromium, fix: chromiumFix },
  { name: `Go >= ${GO_MIN.major}.${GO_MIN.minor} on PATH`, probe: probeGo, fix: goFix },
];

// Each fix is [when, command]: "run" for what is certainly needed, "then, if …" for what a stopped server
// cannot tell yet (its authentication, its databases).

function postgresFix(status) {
  const v = postgresVersion() ?? '"$(ls /etc/postgresql)"';
  const ctl = (action) => `sudo pg_ctlcluster --skip-systemctl-redirect ${v} main ${action}`;
  const lines = HBA_TRUST.slice(1).join("\\n");
  const trust = `sudo sed -i '1i ${lines}' /etc/postgresql/${v}/main/pg_hba.conf && ${ctl("reload")}`;
  const createdb = `createdb -h ${HOST} -U ${PG.user} ${PG.database}`;
  const later = [
    ["then, if it asks for a password", trust],
    [`then, if database ${PG.database} is missing`, createdb],
  ];
  if (status.kind === "down" && !postgresVersion()) {
    return [["run", "sudo apt-get install -y postgresql"], ["run", ctl("start")], ...later];
  }
  if (status.kind === "down") return [["run", ctl("start")], ...later];
  if (status.kind === "auth") return [["run", trust], later[1]];
  if (status.kind === "nodb") return [["run", createdb]];
  return [["see", `/var/log/postgresql/postgresql-${v}-main.log`]];
}

function mariadbFix(status) {
  const start =
    "sudo install -d -o mysql -g mysql /run/mysqld && sudo start-stop-daemon --start --oknodo --background " +
    `--exec /usr/sbin/mariadbd -- --user=mysql --bind-address=${HOST} --port=${MARIADB.port} ` +
    `--log-error=${MARIADB.log}`;
  const setup = `sudo mariadb -e "${MARIADB_SETUP_SQL}"`;
  const later = ["then, if root cannot log in over TCP or database test is missing", setup];
  if (status.kind === "down" && !existsSync("/usr/sbin/mariadbd")) {
    return [["run", "sudo apt-get install -y mariadb-server"], ["run", start], later];
  }
  if (status.kind === "down") return [["run", start], later];
  if (status.kind === "auth" || status.kind === "nodb") return [["run", setup]];
  return [["see", MARIADB.log]];
}

function chromiumFix() {
  return [["run", "sudo apt-get install -y chromium"]];
}

function goFix() {
  return [["install", "Go 1.24 or newer from https://go.dev/dl/ and put its bin directory on PATH"]];
}

// ---------------------------------------------------------------------------------------------------------

async function probeAll() {
  return Promise.all(PIECES.map(async (piece) => ({ piece, status: await piece.probe() })));
}

const canInstall = () => whyNoInstall() === "";

function whyNoInstall() {
  if (process.env.TRELLIS_TEST_SERVICES_CHECK_ONLY === "1") return "TRELLIS_TEST_SERVICES_CHECK_ONLY=1";
  if (!existsSync("/etc/debian_version")) return "this is not Debian";
  if (process.getuid?.() !== 0) return "not running as root";
  return "";
}

/** Installed Debian packages among the given names (dpkg-query prints nothing for unknown ones). */
function installedPackages(names) {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: ${...} is dpkg-query's own field syntax
  const format = "-f=${Package} ${db:Status-Status}\\n";
  const res = spawnSync("dpkg-query", ["-W", format, ...names], { encoding: "utf8" });
  return new Set(
    (res.stdout ?? "")
      .split("\n")
      .filter((l) => l.endsWith(" installed"))
      .map((l) => l.split(" ")[0]),
  );
}

async function installPackages(names) {
  mkdirSync(LOG_DIR, { recursive: true });
  const log = join(LOG_DIR, "apt-get.log");
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  await step("apt-get update", () => run("apt-get", ["update"], { log, env }));
  // Recommends (fonts, desktop helpers, compression plugins) are not needed by the tests.
  const args = ["install", "-y", "--no-install-recommends", ...names];
  await step(`apt-get install ${names.join(" ")}`, () => run("apt-get", args, { log, env }));
}

/** Root on Debian: installs missing packages, then starts and configures each server that fails its probe. */
async function prepare(failing) {
  const wanted = failing.map(({ piece }) => piece.package).filter(Boolean);
  const installed = installedPackages(wanted);
  const missing = wanted.filter((p) => !installed.has(p));
  const errors = new Map();
  if (missing.length > 0) {
    try {
      await installPackages(missing);
    } catch (err) {
      for (const { piece } of failing) if (missing.includes(piece.package)) errors.set(piece, err.message);
    }
  }
  for (const { piece } of failing) {
    if (!piece.prepare || errors.has(piece)) continue;
    await piece.prepare().catch((err) => errors.set(piece, err.message));
  }
  return errors;
}

function reportReady(results) {
  const go = results.find((r) => r.piece.probe === probeGo)?.status.version;
  say(
    `ready: PostgreSQL ${HOST}:${PG.port}, MariaDB ${HOST}:${MARIADB.port}, ${CHROMIUM}, ${go} (${seconds(started)})`,
  );
}

function reportMissing(failing, errors, installing) {
  say(`cannot run the tests: ${failing.length} of ${PIECES.length} pieces are missing or not answering.`);
  if (!installing) say(`Nothing was installed or started: ${whyNoInstall()}.`);
  for (const { piece, status } of failing) {
    const why = errors.get(piece) ?? status.reason;
    say(`  - ${piece.name}: ${why.replaceAll("\n", "\n        ")}`);
    if (installing && piece.probe !== probeGo) continue; // the error above already names its log
    for (const [when, cmd] of piece.fix(status)) say(`      ${when}: ${cmd}`);
  }
  if (!installing && failing.some(({ piece }) => piece.package)) {
    say("On Debian, `sudo node scripts/test-services.mjs` does all of this except Go.");
  }
}

async function main() {
  let results = await probeAll();
  if (results.every((r) => r.status.ok)) return reportReady(results);
  const installing = canInstall();
  let errors = new Map();
  if (installing) {
    errors = await prepare(results.filter((r) => !r.status.ok));
    results = await probeAll();
  }
  const failing = results.filter((r) => !r.status.ok);
  if (failing.length === 0) return reportReady(results);
  reportMissing(failing, errors, installing);
  process.exitCode = 1;
}

await main();
