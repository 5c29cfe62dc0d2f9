/**
 * `rollout-studio view PATH...`: serve the built studio and the run's files on this machine (or a
 * remote GPU box, through an SSH tunnel). The server itself is src/server; this command reads the
 * flags, finds the build, prints where to open it and serves until SIGINT or SIGTERM.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { hostname, userInfo } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import packageJson from "../../../package.json";
import { FORMATS } from "../../io/index.ts";
import { hostIsLoopback, hostIsWildcard } from "../../server/access.ts";
import { ANNOTATIONS_FILE } from "../../server/annotationsStore.ts";
import { DbError } from "../../server/db/errors.ts";
import type { TeamStore } from "../../server/team/types.ts";
import {
  catalogRoots,
  CatalogPathError,
  type CatalogRoot,
  type CatalogRun,
} from "../../server/catalog.ts";
import { viewServerStart, PORT_TRIES } from "../../server/serve.ts";
import { studioLoad, StudioMissingError } from "../../server/studioFiles.ts";
import { argsRedacted, datasetFlag, DB_ENV, dbFlagUrl, viewDataset } from "../dbFlag.ts";
import { EXIT, UsageError, type CliIo } from "../io.ts";

/** Team mode's dataset when --dataset is not given (shared with `export --db`: dbFlag.ts). */
export { viewDataset } from "../dbFlag.ts";

export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_PORT = 7575;
export const STATE_DIR_NAME = ".rollout-studio";

export const VIEW_USAGE = `Usage: rollout-studio view PATH... [options]
       rollout-studio view RUN_A RUN_B --compare [options]

Serve the studio and a run's files: open the printed URL in a browser. PATH is a file, a folder
(listed recursively: a TRL completions/ folder, a verl {step}.jsonl folder, Inspect logs, tau
results, any JSONL) or a glob (quote it to let view match files that appear later). The server
follows the files as they grow and keeps the annotations in the state folder. It never opens a
browser by itself: on a remote machine, run the printed ssh line on your laptop and open the URL
there.

With --compare, the two PATHs are two runs: each is one run (a file is a run of its own; a folder
holding several runs gives its first), and the page opens run A and the Run vs run panel comparing
run B with it on the prompts both hold. Without it, files given one by one are one run together,
and a folder gives one run per sub-folder of data files (the page opens the first; its run list
switches).

Options:
  --host H            address to listen on (default ${DEFAULT_HOST}; 0.0.0.0 for every interface,
                      only with a token)
  --port P            port (default ${DEFAULT_PORT}; the next free one, up to +${PORT_TRIES}, when it is
                      taken; 0 for any free port)
  --token T           the session token (default: a random one per start); every /api/ request
                      needs it, and the printed URL carries it
  --no-token          no token (refused unless --host is a loopback address)
  --state DIR         the state folder: DIR/${ANNOTATIONS_FILE} holds the annotations (default:
                      ${STATE_DIR_NAME}/ inside the first folder given, or beside the first file)
  --format FORMAT     read the files as FORMAT (passed to the studio), one of:
                      auto, ${FORMATS.map((f) => f.id).join(", ")}
  --compare           RUN_A RUN_B: open run A and compare run B with it (exactly two PATHs)
  --db URL            team mode: the people and their annotations are in this PostgreSQL
                      database (postgres://USER:PASSWORD@HOST:PORT/DATABASE; default
                      $${DB_ENV}); each person opens the URL with ?token=<their own token>
                      (rollout-studio users add NAME --role annotator|lead), no session token
  --dataset NAME      with --db: the name the annotations are kept under (default: the name of
                      the first folder or file given)
  --no-open           accepted for scripts; view prints the URL and never opens a browser
  -h, --help          this help

Stop with Ctrl+C (SIGINT) or SIGTERM: exit 0.
Exit codes: 0 stopped; 1 a PATH is missing or the studio is not built; 2 usage error.
`;

export interface ViewOptions {
  readonly paths: readonly string[];
  readonly host: string;
  readonly port: number;
  /** null with --no-token. */
  readonly token: string | null;
  readonly stateDir: string | null;
  readonly format: string | null;
  /** --compare: the two PATHs are runs A and B, compared in the page. */
  readonly compare: boolean;
  /**
   * Team mode (--db, or ROLLOUT_STUDIO_DB): the database and the dataset name (null: the first
   * PATH's name). Absent without it.
   */
  readonly team?: { readonly url: string; readonly dataset: string | null };
}

/**
 * Read `view`'s arguments; null after printing --help.
 *
 * @throws UsageError for an unknown flag, a bad value, no PATH, --compare without exactly two, or
 *   --no-token on a non-loopback host
 */
export function viewOptions(argv: readonly string[], io: CliIo): ViewOptions | null {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        host: { type: "string" },
        port: { type: "string" },
        token: { type: "string" },
        "no-token": { type: "boolean" },
        state: { type: "string" },
        format: { type: "string" },
        compare: { type: "boolean" },
        db: { type: "string" },
        dataset: { type: "string" },
        "no-open": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    // parseArgs quotes what it was given: a --db value would be echoed with its password.
    throw new UsageError(argsRedacted(e instanceof Error ? e.message : String(e), argv));
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    io.stdout(VIEW_USAGE);
    return null;
  }
  if (positionals.length === 0) throw new UsageError("view takes at least one PATH");
  const compare = values.compare === true;
  if (compare && positionals.length !== 2)
    throw new UsageError(
      `--compare takes exactly two PATHs, RUN_A RUN_B; got ${positionals.length} (quote a glob so that it counts as one)`,
    );
  const host = values.host ?? DEFAULT_HOST;
  if (host === "") throw new UsageError("--host needs an address");
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!/^\d+$/.test(values.port ?? "0") || !Number.isInteger(port) || port > 65535)
    throw new UsageError(`--port must be a whole number from 0 to 65535, got "${values.port}"`);
  if (values.token !== undefined && values["no-token"] === true)
    throw new UsageError("--token and --no-token exclude each other");
  const team = viewTeamOptions(values, io);
  if (values.token !== undefined && !/^[A-Za-z0-9._~-]{8,}$/.test(values.token))
    throw new UsageError("--token must be at least 8 of A-Z a-z 0-9 . _ ~ - (it goes in the URL)");
  if (values["no-token"] === true && !hostIsLoopback(host) && team === null)
    throw new UsageError(
      `--no-token is refused with --host ${host}: anyone who reaches that address could read the run and write its annotations; keep the token, or serve on 127.0.0.1 and use an SSH tunnel`,
    );
  const format = values.format ?? "auto";
  if (format !== "auto" && !FORMATS.some((f) => f.id === format))
    throw new UsageError(
      `--format must be auto or one of ${FORMATS.map((f) => f.id).join(", ")}; got "${format}"`,
    );
  return {
    paths: positionals,
    host,
    port,
    token:
      values["no-token"] === true || team !== null
        ? null
        : (values.token ?? randomBytes(24).toString("base64url")),
    stateDir: values.state ?? null,
    format: format === "auto" ? null : format,
    compare,
    ...(team === null ? {} : { team }),
  };
}

/**
 * Team mode's flags: the database (--db, else ROLLOUT_STUDIO_DB) and --dataset; null without a
 * database. Personal tokens replace the session token, so --token and --no-token are refused.
 *
 * @throws UsageError
 */
function viewTeamOptions(
  values: { db?: string; dataset?: string; token?: string; "no-token"?: boolean },
  io: CliIo,
): { readonly url: string; readonly dataset: string | null } | null {
  const url = dbFlagUrl(values.db, io);
  if (url === null) {
    if (values.dataset !== undefined) throw new UsageError("--dataset goes with --db");
    return null;
  }
  if (values.token !== undefined || values["no-token"] === true)
    throw new UsageError(
      `with a database (--db or ${DB_ENV}) each person opens the studio with their own token (rollout-studio users add); --token and --no-token do not apply`,
    );
  return { url, dataset: datasetFlag(values.dataset) };
}

/** The state folder: --state, else .rollout-studio/ inside the first folder or beside the first file. */
export function viewStateDir(
  stateDir: string | null,
  roots: readonly CatalogRoot[],
  cwd: string,
): string {
  if (stateDir !== null) return resolve(cwd, stateDir);
  const first = roots[0]!;
  return join(first.kind === "file" ? dirname(first.abs) : first.abs, STATE_DIR_NAME);
}

/**
 * The built studio: dist/ in the nearest folder above this module that has one. From the built
 * CLI (dist-cli/chunks/*.mjs, in a checkout or an installed package) and from the source
 * (src/cli/commands) alike, that is the package's own dist/.
 */
export function studioDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "dist");
    if (existsSync(join(candidate, "index.html"))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return join(dirname(fileURLToPath(import.meta.url)), "../../../dist");
    dir = parent;
  }
}

/**
 * With --compare: which run is A and which B, saying when a PATH holds several runs (its first is
 * compared) or none yet (the page compares once it is opened, or reloaded, with run B's data).
 */
export function compareLines(
  options: Pick<ViewOptions, "compare" | "paths">,
  catalog: { readonly runs: readonly Pick<CatalogRun, "root" | "dir">[] },
): string[] {
  if (!options.compare) return [];
  const side = (root: number, name: "A" | "B"): string => {
    const runs = catalog.runs.filter((r) => r.root === root);
    const path = options.paths[root]!;
    if (runs.length === 0) return `run ${name} ${path} (no data file yet)`;
    const first = runs[0]!;
    const where = first.dir === "" ? path : `${path.replace(/\/+$/, "")}/${first.dir}`;
    return runs.length === 1
      ? `run ${name} ${where}`
      : `run ${name} ${where} (the first of its ${runs.length} runs)`;
  };
  return [`  Compare: ${side(1, "B")} against ${side(0, "A")}`];
}

function userName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? "user";
  }
}

function waitForStop(): Promise<NodeJS.Signals> {
  return new Promise((resolveStop) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolveStop(signal);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

export async function viewCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const options = viewOptions(argv, io);
  if (options === null) return EXIT.ok;
  let roots: CatalogRoot[];
  let studio;
  try {
    roots = await catalogRoots(options.paths, io.cwd, { separate: options.compare });
    studio = await studioLoad(studioDir());
  } catch (e) {
    if (e instanceof CatalogPathError || e instanceof StudioMissingError) {
      io.stderr(`rollout-studio view: ${e.message}\n`);
      return EXIT.failed;
    }
    throw e;
  }
  const stateDir = viewStateDir(options.stateDir, roots, io.cwd);
  let team: TeamStore | null = null;
  if (options.team !== undefined) {
    const dataset = options.team.dataset ?? viewDataset(roots);
    try {
      // Loaded only in team mode: the database client stays out of a plain view's start.
      const { PostgresTeamStore } = await import("../../server/team/pgStore.ts");
      team = await PostgresTeamStore.open(options.team.url, dataset, {
        warn: (message) => io.stderr(`rollout-studio view: ${message}\n`),
      });
    } catch (e) {
      if (!(e instanceof DbError)) throw e;
      io.stderr(`rollout-studio view: ${e.message}\n`);
      return EXIT.failed;
    }
  }
  const start = viewServerStart({
    roots,
    studio,
    stateDir,
    host: options.host,
    port: options.port,
    token: options.token,
    version: packageJson.version,
    format: options.format,
    compare: options.compare,
    warn: (message) => io.stderr(`rollout-studio view: ${message}\n`),
    team,
  });
  // A server that cannot start leaves no connection open (the process could not exit).
  const server = await start.catch(async (e: unknown) => {
    await team?.close();
    throw e;
  });
  if (server.portTaken !== null)
    io.stderr(`rollout-studio view: port ${server.portTaken} is taken; using ${server.port}\n`);
  const stopped = waitForStop();
  const urlHost = hostIsWildcard(options.host) ? "127.0.0.1" : server.host;
  const query =
    team !== null ? "?token=<your token>" : options.token === null ? "" : `?token=${options.token}`;
  const url = `http://${urlHost}:${server.port}/${query}`;
  const catalog = server.catalog();
  const files = catalog.runs.reduce((n, r) => n + r.files.length, 0);
  const lines = [
    `rollout-studio view: ${catalog.runs.length} run${catalog.runs.length === 1 ? "" : "s"}, ${files} file${files === 1 ? "" : "s"}, from ${options.paths.join(" ")}`,
    ...compareLines(options, catalog),
    `  Open:   ${url}`,
    ...(hostIsWildcard(options.host)
      ? [`  Or:     http://${hostname()}:${server.port}/${query}`]
      : []),
    `  Remote: on your laptop, run  ssh -N -L ${server.port}:127.0.0.1:${server.port} ${userName()}@${hostname()}  and open the URL above there`,
    ...(team === null
      ? []
      : [
          `  Team:   dataset ${JSON.stringify(team.dataset)}; each person opens the URL with their own token (rollout-studio users add NAME --role annotator|lead)`,
        ]),
    `  State:  ${server.annotationsPath}`,
    "  Stop with Ctrl+C.",
    "",
  ];
  io.stdout(lines.join("\n"));
  const signal = await stopped;
  await server.close();
  io.stderr(`rollout-studio view: stopped (${signal})\n`);
  return EXIT.ok;
}
