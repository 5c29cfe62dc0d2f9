/**
 * CPU seconds of other processes, from Linux's /proc (bench/team.ts: where a phase's time went on a
 * 2-core machine: the simulated clients, the `view` server, PostgreSQL). Null off Linux.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc's times (USER_HZ: 100 on every Linux that Node runs on). */
const TICKS = 100;

/** utime, stime, cutime, cstime of a process (fields 14-17 of /proc/PID/stat), or null. */
function stat(pid: number): { self: number; children: number; ppid: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces: split after its closing parenthesis.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    const n = (i: number) => Number(fields[i - 3]);
    return { self: n(14) + n(15), children: n(16) + n(17), ppid: n(4) };
  } catch {
    return null;
  }
}

/** A process's CPU seconds so far (its own, and its reaped children's). */
export function processCpuSeconds(pid: number): number | null {
  const s = stat(pid);
  return s === null ? null : (s.self + s.children) / TICKS;
}

/**
 * A process and its live children's CPU seconds (PostgreSQL: the postmaster and its backends;
 * a backend that exited is already in the postmaster's reaped children's time).
 */
export function treeCpuSeconds(pid: number): number | null {
  const root = stat(pid);
  if (root === null) return null;
  let ticks = root.self + root.children;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const child = stat(Number(entry));
    if (child !== null && child.ppid === pid) ticks += child.self;
  }
  return ticks / TICKS;
}

/** The postmaster listening on `port` (its command line names `-p PORT`), or null. */
export function postmasterPid(port: number): number | null {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
    } catch {
      continue;
    }
    const argv = cmdline.split("\0");
    if (!/(^|\/)postgres$/.test(argv[0] ?? "")) continue;
    if (argv.some((arg, i) => arg === "-p" && argv[i + 1] === String(port))) return Number(entry);
  }
  return null;
}
