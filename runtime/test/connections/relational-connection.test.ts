import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHostDispatcher, type HostDispatcher } from "../../src/capabilities/host-dispatcher.ts";
import { parseManifest } from "../../src/manifest/parse-manifest.ts";

const ctx = { executionId: "exec-3", functionName: "listPeople" };
const suffix = `${process.pid}_${Date.now().toString(36)}`;

/** PostgreSQL at 127.0.0.1:5432 (trust) and MariaDB at 127.0.0.1:3306 (root, no password), db `test`. */
const manifest = parseManifest(
  JSON.stringify({
    connections: {
      pg: { type: "relationaldb", connStr: "postgres://postgres:{{PASSWORD}}@127.0.0.1:5432/test" },
      maria: { type: "mysql", connString: "mariadb://root@127.0.0.1:3306/test" },
      "pg-nobody": { type: "relationaldb", connStr: "postgresql://no_such_role_xyz@127.0.0.1:5432/test" },
      "maria-nobody": { type: "relationaldb", connStr: "mysql://no_such_user_xyz:pw@127.0.0.1:3306/test" },
      "pg-down": { type: "relationaldb", connStr: "postgres://postgres@127.0.0.1:1/test" },
      http: { type: "http", baseUrl: "http://127.0.0.1:1/" },
    },
    limits: { timeoutMs: 5000 },
  }),
);

describe("relational connections", () => {
  let dispatcher: HostDispatcher;
  const pgTable = `trellis_people_${suffix}`;
  const myTable = `trellis_people_${suffix}`;

  beforeAll(() => {
    dispatcher = createHostDispatcher({
      manifest,
      env: { TRELLIS_PG_PASSWORD: "" },
      // The test databases are on loopback: open exactly their ports (and the closed one).
      egress: { allow: ["127.0.0.1:5432", "127.0.0.1:3306", "127.0.0.1:1"] },
    });
  });

  afterAll(async () => {
    await dispatcher.sqlExecute(ctx, "pg", `DROP TABLE IF EXISTS ${pgTable}`, "[]").catch(() => {});
    await dispatcher.sqlExecute(ctx, "maria", `DROP TABLE IF EXISTS ${myTable}`, "[]").catch(() => {});
    await dispatcher.close();
  });

  it("runs PostgreSQL statements with $n params; rows come back as JSON with ISO dates and exact bigints", async () => {
    await dispatcher.sqlExecute(
      ctx,
      "pg",
      `CREATE TABLE ${pgTable} (id serial PRIMARY KEY, name text NOT NULL, born timestamptz, big bigint, data bytea)`,
      "",
    );
    const inserted = await dispatcher.sqlExecute(
      ctx,
      "pg",
      `INSERT INTO ${pgTable} (name, born, big, data) VALUES ($1, $2, $3, decode('cafe', 'hex')), ($4, NULL, 7, NULL)`,
      JSON.stringify(["Ann", "2001-02-03T04:05:06.789Z", "9007199254740993", "Bob"]),
    );
    expect(JSON.parse(inserted)).toEqual({ rowsAffected: 2, lastInsertId: null });
    const rows = JSON.parse(
      await dispatcher.sqlQuery(
        ctx,
        "pg",
        `SELECT name, born, big, data FROM ${pgTable} WHERE id >= $1 ORDER BY id`,
        "[1]",
      ),
    );
    expect(rows).toEqual([
      { name: "Ann", born: "2001-02-03T04:05:06.789Z", big: "9007199254740993", data: "yv4=" },
      { name: "Bob", born: null, big: "7", data: null },
    ]);
    const updated = await dispatcher.sqlExecute(ctx, "pg", `UPDATE ${pgTable} SET big = big + 1`, "[]");
    expect(JSON.parse(updated).rowsAffected).toBe(2);
  });

  it("runs MariaDB statements with ? params, reporting rowsAffected and lastInsertId", async () => {
    await dispatcher.sqlExecute(
      ctx,
      "maria",
      `CREATE TABLE ${myTable} (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(50) NOT NULL, born DATETIME(3), big BIGINT, ok BOOLEAN)`,
      "[]",
    );
    const first = JSON.parse(
      await dispatcher.sqlExecute(
        ctx,
        "maria",
        `INSERT INTO ${myTable} (name, born, big, ok) VALUES (?, ?, ?, ?)`,
        JSON.stringify(["Ann", "2001-02-03 04:05:06.789", "9007199254740993", true]),
      ),
    );
    expect(first).toEqual({ rowsAffected: 1, lastInsertId: expect.any(Number) });
    const second = JSON.parse(
      await dispatcher.sqlExecute(
        ctx,
        "maria",
        `INSERT INTO ${myTable} (name, big) VALUES (?, ?)`,
        '["Bob", 7]',
      ),
    );
    expect(second.lastInsertId).toBe(first.lastInsertId + 1);
    const rows = JSON.parse(
      await dispatcher.sqlQuery(ctx, "maria", `SELECT name, born, big, ok FROM ${myTable} ORDER BY id`, "[]"),
    );
    expect(rows).toEqual([
      { name: "Ann", born: "2001-02-03T04:05:06.789Z", big: "9007199254740993", ok: 1 },
      { name: "Bob", born: null, big: 7, ok: null },
    ]);
  });

  it("fails with the database's message, the connection named", async () => {
    await expect(dispatcher.sqlQuery(ctx, "pg", "SELECT * FROM no_such_table_xyz", "[]")).rejects.toThrow(
      'sql query on connection "pg" failed: relation "no_such_table_xyz" does not exist',
    );
    await expect(dispatcher.sqlQuery(ctx, "maria", "SELEC 1", "[]")).rejects.toThrow(
      /^sql query on connection "maria" failed: You have an error in your SQL syntax/,
    );
    await expect(dispatcher.sqlQuery(ctx, "pg", "SELECT 1", '{"a":1}')).rejects.toThrow(
      "params must be a JSON array",
    );
    await expect(dispatcher.sqlQuery(ctx, "nope", "SELECT 1", "[]")).rejects.toThrow(
      'no connection "nope" in trellis.json',
    );
    await expect(dispatcher.sqlQuery(ctx, "http", "SELECT 1", "[]")).rejects.toThrow(
      'connection "http" is a http connection, not relationaldb',
    );
  });

  it("tests connections with SELECT 1, telling refused credentials from unreachable servers", async () => {
    const statuses = await dispatcher.testConnections();
    const by = (name: string) => statuses.find((s) => s.name === name)!;
    expect(by("pg")).toMatchObject({
      type: "relationaldb",
      reachable: true,
      authenticated: true,
      detail: "SELECT 1 succeeded",
    });
    expect(by("maria")).toMatchObject({ reachable: true, authenticated: true });
    expect(by("pg-nobody")).toMatchObject({ reachable: true, authenticated: false });
    expect(by("pg-nobody").detail).toContain("no_such_role_xyz");
    expect(by("maria-nobody")).toMatchObject({ reachable: true, authenticated: false });
    expect(by("maria-nobody").detail).toContain("Access denied");
    expect(by("pg-down")).toMatchObject({ reachable: false, authenticated: false });
  });

  it("refuses the host's own databases under the default (deployed) egress policy, by address, name or socket", async () => {
    const local = parseManifest(
      JSON.stringify({
        connections: {
          pg: { type: "relationaldb", connStr: "postgres://postgres@127.0.0.1:5432/test" },
          "pg-name": { type: "relationaldb", connStr: "postgres://postgres@localhost:5432/test" },
          "pg-socket": {
            type: "relationaldb",
            connStr: "postgres://postgres@%2Fvar%2Frun%2Fpostgresql/test",
          },
          maria: { type: "relationaldb", connStr: "mysql://root@127.0.0.1:3306/test" },
          "maria-v6": { type: "relationaldb", connStr: "mysql://root@[::ffff:127.0.0.1]:3306/test" },
          "maria-socket": {
            type: "relationaldb",
            connStr: "mysql://root@localhost/test?socketPath=%2Frun%2Fmysqld%2Fmysqld.sock",
          },
        },
        limits: { timeoutMs: 5000 },
      }),
    );
    const deployed = createHostDispatcher({ manifest: local, env: {} });
    const allow = "the platform operator can allow it with --egress-allow / TRELLIS_EGRESS_ALLOW";
    await expect(deployed.sqlQuery(ctx, "pg", "SELECT 1", "[]")).rejects.toThrow(
      `127.0.0.1 is a loopback address, which deployed apps may not reach; ${allow} (e.g. 127.0.0.1:5432)`,
    );
    await expect(deployed.sqlQuery(ctx, "pg-name", "SELECT 1", "[]")).rejects.toThrow(
      /localhost \((127\.0\.0\.1|::1)\) is a loopback address/,
    );
    await expect(deployed.sqlQuery(ctx, "pg-socket", "SELECT 1", "[]")).rejects.toThrow(
      "/var/run/postgresql/.s.PGSQL.5432 is a Unix socket on this machine, which deployed apps may not reach",
    );
    await expect(deployed.sqlQuery(ctx, "maria", "SELECT 1", "[]")).rejects.toThrow(
      `127.0.0.1 is a loopback address, which deployed apps may not reach; ${allow} (e.g. 127.0.0.1:3306)`,
    );
    await expect(deployed.sqlQuery(ctx, "maria-v6", "SELECT 1", "[]")).rejects.toThrow(
      // mysql2 reads the URL with WHATWG URL, which writes the address in hex.
      /::ffff:7f00:1 is an IPv4-mapped form of 127\.0\.0\.1, a loopback address/,
    );
    await expect(deployed.sqlQuery(ctx, "maria-socket", "SELECT 1", "[]")).rejects.toThrow(
      "/run/mysqld/mysqld.sock is a Unix socket on this machine",
    );
    await deployed.close();
  });
});
