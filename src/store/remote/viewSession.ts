/**
 * The page served by `rollout-studio view` (issue 14): the session token from `?token=`, the API
 * calls with it, and the event stream. The token is kept only in the page's URL (as the server
 * printed it) and in memory; it is sent as `Authorization: Bearer` on every request, and as
 * `?token=` for the event stream (EventSource cannot set headers). A page without `?token=` is
 * the static studio and never calls the API.
 */
import type * as ViewApiModule from "../../io/view/viewApi.ts";
import type { TeamEvent } from "../../io/view/teamApi.ts";
import type { FilesEvent, ViewRuns } from "../../io/view/viewApi.ts";

type ViewApi = typeof ViewApiModule;
let viewApiModule: Promise<ViewApi> | null = null;

/**
 * The view API's schemas, loaded on first use: they bring zod, which a page that never views a
 * served run must not load with its first chunk (T9).
 */
export function viewApi(): Promise<ViewApi> {
  viewApiModule ??= import("../../io/view/viewApi.ts");
  return viewApiModule;
}

export interface ViewSession {
  /** The server's origin, e.g. `http://127.0.0.1:7575`. */
  readonly origin: string;
  readonly token: string;
}

/** A session token (base64url) or a team-mode personal token (`<id>.<secret>`, base64url parts). */
const TOKEN = /^[A-Za-z0-9_.-]{8,200}$/;

/** The session a page URL names (`?token=`), or null for the static studio. */
export function viewSessionFromUrl(href: string): ViewSession | null {
  const url = new URL(href);
  const token = url.searchParams.get("token");
  if (token === null || !TOKEN.test(token)) return null;
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  return { origin: url.origin, token };
}

/**
 * A team-mode personal token (`<id>.<secret>`): a session token is one base64url part, without a
 * dot. Known from the URL before the listing says who the page is (`listing.team`), so the page
 * can hide a served run's rewards while it is still being read (blind mode fails closed).
 */
export function viewSessionIsPersonal(session: ViewSession): boolean {
  return session.token.includes(".");
}

/** A file's bytes URL (the worker reads it with Range requests). */
export function viewFileUrl(session: ViewSession, id: string): string {
  return `${session.origin}/api/files/${encodeURIComponent(id)}`;
}

export function viewHeaders(session: ViewSession): Record<string, string> {
  return { Authorization: `Bearer ${session.token}` };
}

/** A reply other than 2xx from the view server. */
export class ViewReplyError extends Error {
  override name = "ViewReplyError";
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

/** An API call with the token; a reply other than 2xx is an error naming route and status. */
export async function viewFetch(
  session: ViewSession,
  path: string,
  init: RequestInit = {},
  accept: readonly number[] = [],
): Promise<Response> {
  const response = await fetch(`${session.origin}${path}`, {
    ...init,
    headers: { ...viewHeaders(session), ...(init.headers as Record<string, string> | undefined) },
    cache: "no-store",
  });
  if (!response.ok && !accept.includes(response.status)) {
    let detail = "";
    try {
      const body = (await response.json()) as { error?: unknown };
      if (typeof body.error === "string") detail = `: ${body.error}`;
    } catch {
      // not JSON: the status says enough
    }
    const hint =
      response.status === 401 ? " (the token is wrong or from an earlier start of the server)" : "";
    throw new ViewReplyError(
      `${path}: ${response.status} ${response.statusText}${detail}${hint}`,
      response.status,
    );
  }
  return response;
}

/** `GET /api/runs`, parsed. */
export async function fetchViewRuns(session: ViewSession): Promise<ViewRuns> {
  const response = await viewFetch(session, "/api/runs");
  const { parseViewReply, viewRunsSchema } = await viewApi();
  return parseViewReply("/api/runs", viewRunsSchema, await response.json());
}

export interface ViewEventHandlers {
  readonly files?: (event: FilesEvent) => void;
  readonly annotations?: (version: string) => void;
  /** Team mode (`view --db`): something of the team changed (io/view/teamApi.ts). */
  readonly team?: (event: TeamEvent) => void;
  /**
   * The stream opened (again, after a drop): anything may have changed meanwhile. Given the
   * annotations version the server's `hello` names (null when the event did not parse).
   */
  readonly open?: (annotationsVersion: string | null) => void;
  readonly error?: () => void;
}

/** Listen to `GET /api/events`; returns the function that closes the stream. */
export function openViewEvents(session: ViewSession, handlers: ViewEventHandlers): () => void {
  if (typeof EventSource === "undefined") return () => undefined;
  const source = new EventSource(
    `${session.origin}/api/events?token=${encodeURIComponent(session.token)}`,
  );
  const parse = (data: string): unknown => {
    try {
      return JSON.parse(data) as unknown;
    } catch {
      return null;
    }
  };
  // Events are handled once the schemas are loaded, in the order they came (one promise's
  // callbacks run in the order they were added).
  const api = viewApi();
  const later = (run: (schemas: ViewApi) => void): void => {
    api.then(run, () => handlers.error?.());
  };
  source.addEventListener("hello", (e: MessageEvent<string>) => {
    const value = parse(e.data);
    later(({ helloEventSchema }) => {
      const parsed = helloEventSchema.safeParse(value);
      handlers.open?.(parsed.success ? parsed.data.annotations.version : null);
    });
  });
  source.addEventListener("files", (e: MessageEvent<string>) => {
    const value = parse(e.data);
    later(({ filesEventSchema }) => {
      const parsed = filesEventSchema.safeParse(value);
      if (parsed.success) handlers.files?.(parsed.data);
    });
  });
  source.addEventListener("annotations", (e: MessageEvent<string>) => {
    const value = parse(e.data);
    later(({ annotationsEventSchema }) => {
      const parsed = annotationsEventSchema.safeParse(value);
      if (parsed.success) handlers.annotations?.(parsed.data.version);
    });
  });
  source.addEventListener("team", (e: MessageEvent<string>) => {
    const value = parse(e.data);
    later(({ teamEventSchema }) => {
      const parsed = teamEventSchema.safeParse(value);
      if (parsed.success) handlers.team?.(parsed.data);
    });
  });
  source.onerror = () => handlers.error?.();
  return () => source.close();
}

/** What a dataset read from the view server carries: where it came from, to follow it. */
export interface RemoteRun {
  readonly session: ViewSession;
  /** The listing the dataset was read from. */
  readonly listing: ViewRuns;
  /** The run's index in `listing.runs`. */
  readonly run: number;
  /** Files at least this large are indexed (`?index-threshold=`; default the worker's 32 MB). */
  readonly indexThreshold?: number;
}
