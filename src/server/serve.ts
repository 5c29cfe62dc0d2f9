/**
 * Start and stop the `view` server: scan the paths, bind the port (the next free one when it is
 * taken), follow the files, and on close end every event stream and connection so the process
 * can exit. Called by src/cli/commands/view.ts.
 */
import { createAdaptorServer } from "@hono/node-server";
import { Server } from "node:http";
import { hostname, networkInterfaces } from "node:os";
import { allowedHosts, hostForHeader } from "./access.ts";
import { AnnotationsStore } from "./annotationsStore.ts";
import { createApp } from "./app.ts";
import type { CatalogRoot, Catalog } from "./catalog.ts";
import { EventHub } from "./events.ts";
import { Live } from "./live.ts";
import type { Studio } from "./studioFiles.ts";
import type { TeamStore } from "./team/types.ts";
import { teamRelayStart, type TeamRelay } from "./teamRelay.ts";

/** How many ports after the one asked for are tried when it is taken. */
export const PORT_TRIES = 20;

export interface ViewServerOptions {
  readonly roots: readonly CatalogRoot[];
  readonly studio: Studio;
  readonly stateDir: string;
  readonly host: string;
  readonly port: number;
  readonly token: string | null;
  readonly version: string;
  readonly format: string | null;
  /** `--compare`: roots 0 and 1 are runs A and B, compared in the page. */
  readonly compare?: boolean;
  /** Problems while following (a watcher's error), for stderr. */
  readonly warn: (message: string) => void;
  /**
   * Team mode (`view --db`): the people and their annotations are in this store (personal
   * tokens; `token` is not used), and the state folder's annotations file is not read or
   * followed. The server closes the store when it closes.
   */
  readonly team?: TeamStore | null;
}

export interface ViewServer {
  readonly host: string;
  readonly port: number;
  /** The port asked for, when it was taken and another was used. */
  readonly portTaken: number | null;
  readonly catalog: () => Catalog;
  /** Where the annotations are: the file, or in team mode the store (its URL redacted). */
  readonly annotationsPath: string;
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<number | "taken"> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error & { code?: string }) => {
      server.off("listening", onListening);
      if (e.code === "EADDRINUSE") resolve("taken");
      else reject(e);
    };
    const onListening = () => {
      server.off("error", onError);
      const address = server.address();
      resolve(typeof address === "object" && address !== null ? address.port : port);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}

/** The names this machine answers to on its interfaces (for a wildcard bind's Host check). */
function machineNames(): string[] {
  const names = [hostname()];
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) names.push(a.address);
  return names;
}

export async function viewServerStart(options: ViewServerOptions): Promise<ViewServer> {
  const hub = new EventHub();
  const annotations = new AnnotationsStore(options.stateDir);
  const team = options.team ?? null;
  const live = await Live.start(
    options.roots,
    hub,
    team === null ? annotations : null,
    options.warn,
  );
  let hosts: ReadonlySet<string> = new Set();
  const app = createApp({
    catalog: () => live.current(),
    annotations,
    studio: options.studio,
    token: options.token,
    allowedHosts: () => hosts,
    events: hub,
    version: options.version,
    format: options.format,
    compare: options.compare ?? false,
    team,
  });
  const server = createAdaptorServer({ fetch: app.fetch, hostname: options.host });
  // Without a createServer option it is a node:http server; checked, not cast.
  if (!(server instanceof Server)) throw new Error("@hono/node-server did not make an HTTP server");
  let bound: number | "taken" = "taken";
  let port = options.port;
  for (let i = 0; i <= PORT_TRIES && bound === "taken"; i++) {
    port = options.port === 0 ? 0 : options.port + i;
    bound = await listen(server, port, options.host);
  }
  if (bound === "taken") {
    await live.close();
    await team?.close();
    throw new Error(
      `ports ${options.port} to ${options.port + PORT_TRIES} on ${options.host} are all taken; choose one with --port`,
    );
  }
  hosts = allowedHosts(options.host, bound, machineNames());
  // Other `view --db` processes on the same database hear of this one's writes, and it of theirs.
  let relay: TeamRelay | null = null;
  if (team !== null) {
    try {
      relay = await teamRelayStart(team, hub, options.warn);
    } catch (e) {
      options.warn(
        `other servers on this database will not hear of this one's writes, nor it of theirs: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }
  return {
    host: hostForHeader(options.host),
    port: bound,
    portTaken: bound !== options.port && options.port !== 0 ? options.port : null,
    catalog: () => live.current(),
    annotationsPath: team === null ? annotations.path : team.location,
    close: async () => {
      hub.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await Promise.all([closed, live.close(), relay?.close()]);
      await team?.close();
    },
  };
}
