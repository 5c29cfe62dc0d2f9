/**
 * Test helper: a throwaway PostgreSQL cluster for the team store's integration tests (issue 18:
 * they run against a real server, not a fake). `startPostgres()` runs `initdb` into a temporary
 * folder, starts it with `pg_ctl` on a free loopback port (its unix socket in the same folder, so
 * nothing touches /var/run/postgresql), makes a database owned by a role with a password, and
 * returns that database's URL; `stop()` stops the server at once and removes the folder.
 *
 * Where the binaries are: $ROLLOUT_STUDIO_PG_BIN, else `pg_config --bindir`, else the newest
 * /usr/lib/postgresql/<major>/bin (Debian's layout, which puts neither initdb nor pg_ctl on PATH),
 * else PATH. initdb refuses to run as root, so as root (CI) both run as the `postgres` user that
 * Debian's package creates (`runuser -u postgres --`), and the folder is handed to that user.
 *
 * One cluster per test file at most (beforeAll/afterAll); each test that needs a clean slate asks
 * for its own database (`createDatabase`), which takes milliseconds.
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

export interface TestPostgres {
  /** `postgres://studio:<password>@127.0.0.1:<port>/studio`: the test role owns the database. */
  readonly url: string;
  /** The superuser's URL (with its own password) on the same cluster. */
  readonly adminUrl: string;
  readonly port: number;
  /** The test role's password (so a test can check it never appears in output). */
  readonly password: string;
  /** A fresh, empty database owned by the test role; its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stop the server as a crash would (`pg_ctl stop -m immediate`), then start it again. */
  crashAndRestart(): Promise<void>;
  /** Stop the server at once and remove the folder. */
  stop(): Promise<void>;
}

/** The folder holding initdb and pg_ctl, or null when PostgreSQL is not installed. */
export function postgresBinDir(): string | null {
  const has = (dir: string) => existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl"));
  const fromEnv = process.env.ROLLOUT_STUDIO_PG_BIN;
  if (fromEnv !== undefined && fromEnv !== "") return has(fromEnv) ? fromEnv : null;
  try {
    const dir = execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
    if (has(dir)) return dir;
  } catch {
    // No pg_config (or not the server's): look where Debian puts the server.
  }
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const majors = readdirSync(debian)
      .filter((d) => /^\d+$/.test(d))
      .sort((a, b) => Number(b) - Number(a));
    for (const major of majors)
      if (has(join(debian, major, "bin"))) return join(debian, major, "bin");
  }
  for (const dir of (process.env.PATH ?? "").split(":")) if (dir !== "" && has(dir)) return dir;
  return null;
}

const isRoot = (): boolean => typeof process.getuid === "function" && process.getuid() === 0;

/**
 * Run one of the cluster's binaries, as `postgres` when we are root; rejects with its output. It
 * runs in `cwd` (the cluster's own folder): the checkout may be in a folder `postgres` cannot
 * enter (/root in CI).
 */
function runPg(bin: string, args: readonly string[], cwd: string): Promise<string> {
  const [command, argv] = isRoot()
    ? ["runuser", ["-u", "postgres", "--", bin, ...args]]
    : [bin, [...args]];
  return new Promise((resolve, reject) => {
    // LC_ALL=C: initdb takes its locale from the environment; C is on every machine.
    const child = spawn(command, argv, {
      cwd,
      env: { ...process.env, LC_ALL: "C", LANG: "C" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${bin} ${args.join(" ")} exited ${code}:\n${output}`)),
    );
  });
}

/** A port nothing listens on right now (the kernel's pick). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const secret = (): string => randomBytes(12).toString("hex");

export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBinDir();
  if (bin === null)
    throw new Error(
      "PostgreSQL's server binaries (initdb, pg_ctl) were not found: install Debian's postgresql " +
        "package (.ci/run does), or point ROLLOUT_STUDIO_PG_BIN at the folder that holds them",
    );
  const root = mkdtempSync(join(tmpdir(), "rs-pg-"));
  const data = join(root, "data");
  const adminPassword = secret();
  const password = secret();
  writeFileSync(join(root, "pwfile"), `${adminPassword}\n`);
  if (isRoot()) {
    const ids = execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim();
    const gid = execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim();
    chownSync(root, Number(ids), Number(gid));
    chownSync(join(root, "pwfile"), Number(ids), Number(gid));
  }
  let port = 0;
  const ctl = (args: readonly string[]) => runPg(join(bin, "pg_ctl"), ["-D", data, ...args], root);
  // The socket goes in the temporary folder; TCP on loopback only.
  const startOn = (p: number) =>
    ctl([
      "start",
      "-w",
      "-t",
      "60",
      "-l",
      join(root, "server.log"),
      "-o",
      `-p ${p} -k ${root} -c listen_addresses=127.0.0.1`,
    ]);
  const start = async (): Promise<void> => {
    // A port picked and released can be taken before the server binds it: try a few.
    let lastError: unknown = null;
    for (let attempt = 0; attempt < 5; attempt++) {
      port = await freePort();
      try {
        await startOn(port);
        return;
      } catch (e) {
        lastError = e;
      }
    }
    throw lastError;
  };
  try {
    // Passwords over TCP (scram-sha-256), so every URL the tests use carries one.
    await runPg(
      join(bin, "initdb"),
      [
        "-D",
        data,
        "-U",
        "postgres",
        "--pwfile",
        join(root, "pwfile"),
        "--auth-host=scram-sha-256",
        "--auth-local=trust",
        "-E",
        "UTF8",
        "--locale=C",
        "--no-sync",
      ],
      root,
    );
    await start();
  } catch (e) {
    rmSync(root, { recursive: true, force: true });
    throw e;
  }
  const adminUrl = `postgres://postgres:${adminPassword}@127.0.0.1:${port}/postgres`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE ROLE studio LOGIN PASSWORD '${password}'`);
  } finally {
    await admin.end();
  }
  const urlOf = (database: string) => `postgres://studio:${password}@127.0.0.1:${port}/${database}`;
  const createDatabase = async (name: string): Promise<string> => {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${name} OWNER studio`);
    } finally {
      await client.end();
    }
    return urlOf(name);
  };
  await createDatabase("studio");
  let stopped = false;
  return {
    url: urlOf("studio"),
    adminUrl,
    port,
    password,
    createDatabase,
    crashAndRestart: async () => {
      await ctl(["stop", "-m", "immediate", "-w"]);
      await startOn(port);
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      try {
        await ctl(["stop", "-m", "immediate", "-w"]);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}
