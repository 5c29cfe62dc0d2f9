/**
 * `rollout-studio view` as a process, for the tests that check it from outside: the security spec
 * (e2e/view-security.spec.ts), the installed-package test (src/server/pack.test.ts) and the
 * benchmarks that time it (bench/viewBrowser.ts, bench/team.ts). Starts
 * the command, reads the URL it prints, and sends requests with the path and Host exactly as
 * given (fetch would normalise `..` away and refuses to set Host).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { request } from "node:http";

export interface ViewProcess {
  readonly child: ChildProcess;
  /** `http://HOST:PORT`, no trailing slash. */
  readonly origin: string;
  readonly port: number;
  /** The token in the printed URL; null when it has none (--no-token). */
  readonly token: string | null;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Send a signal and wait for the exit code. */
  readonly stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

const URL_LINE = /(http:\/\/[^\s/]+:(\d+))\/(?:\?token=([A-Za-z0-9._~-]+))?/;

/** Wait for a child to exit: its code (null when a signal killed it). */
export function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

/**
 * Run `command args...` (e.g. node bin/rollout-studio.mjs view DIR --port 0) and resolve once it
 * printed its URL; rejects when it exits first or prints none within `timeoutMs`. `env` adds to
 * this process's environment (e.g. ROLLOUT_STUDIO_DB, which keeps a password out of `ps`).
 */
export function viewStart(
  command: string,
  args: readonly string[],
  options: { cwd?: string; timeoutMs?: number; env?: Readonly<Record<string, string>> } = {},
): Promise<ViewProcess> {
  const child = spawn(command, [...args], {
    cwd: options.cwd,
    env: { ...process.env, ROLLOUT_STUDIO_FROM_SOURCE: "", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => (err += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(`view printed no URL in ${options.timeoutMs ?? 30_000} ms:\n${out}\n${err}`),
      );
    }, options.timeoutMs ?? 30_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`view exited (${code}) before printing a URL:\n${out}\n${err}`));
    });
    child.stdout.on("data", (chunk: string) => {
      out += chunk;
      const m = URL_LINE.exec(out);
      if (m === null) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      resolve({
        child,
        origin: m[1]!,
        port: Number(m[2]),
        token: m[3] ?? null,
        stdout: () => out,
        stderr: () => err,
        stop: (signal = "SIGTERM") => {
          const exited = exitOf(child);
          child.kill(signal);
          return exited;
        },
      });
    });
  });
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

/** GET `path` verbatim (no normalisation) from `origin`, with the given headers (Host too). */
export function rawGet(
  origin: string,
  path: string,
  headers: Readonly<Record<string, string>> = {},
): Promise<RawResponse> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, method: "GET", headers: { ...headers } },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}
