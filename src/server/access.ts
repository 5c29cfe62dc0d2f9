/**
 * Who may talk to the `view` server: the Host check (against DNS rebinding: a page on another
 * site whose name an attacker points at 127.0.0.1 sends its own name as Host) and the session
 * token every `/api/` request carries. Pure, apart from the constant-time compare.
 */
import { timingSafeEqual } from "node:crypto";

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

/** True for a host the server may bind without a token: it answers this machine only. */
export function hostIsLoopback(host: string): boolean {
  const h = host.toLowerCase();
  return h === "localhost" || h === "::1" || h === "[::1]" || /^127(\.\d{1,3}){3}$/.test(h);
}

/** True for a host that listens on every interface (0.0.0.0, ::). */
export function hostIsWildcard(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "[::]";
}

/** A host as it appears in a Host header: IPv6 literals in brackets. */
export function hostForHeader(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/**
 * The Host header values the server accepts: the bound host, localhost, 127.0.0.1 and [::1], each
 * with the port. A wildcard bind also accepts `names` (the machine's hostname and interface
 * addresses): the names a browser on another machine reaches it by.
 */
export function allowedHosts(bound: string, port: number, names: readonly string[]): Set<string> {
  const hosts = [bound, ...LOOPBACK_NAMES, ...(hostIsWildcard(bound) ? names : [])];
  return new Set(hosts.map((h) => `${hostForHeader(h).toLowerCase()}:${port}`));
}

/** True when a request's Host header is one of `allowed` (case-insensitive). */
export function hostAllowed(header: string | undefined, allowed: ReadonlySet<string>): boolean {
  return header !== undefined && allowed.has(header.trim().toLowerCase());
}

/**
 * The token a request carries: `Authorization: Bearer T`, else the `token` query parameter
 * (EventSource cannot set headers).
 */
export function requestToken(authorization: string | undefined, query: string | undefined) {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return bearer?.[1] ?? query ?? null;
}

/** Constant-time token check. */
export function tokenMatches(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
