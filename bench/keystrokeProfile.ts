/**
 * Where the time of a ranking keystroke goes (bench/interaction.ts's keystroke, pressed for real):
 * a Chromium trace gives each key's main-thread time by kind (script, style, layout, paint, GC),
 * in the key's own task and until the next key; a sampled CPU profile gives the script's
 * functions by self time. Not a gate: a guide for cutting the keystroke path, less noisy than
 * wall-clock latency on a loaded machine (the busy time of a key does not include waiting).
 *
 * `npx tsx bench/keystrokeProfile.ts` builds the app and prints the breakdown; `--unminified`
 * builds without minification (readable function names in the profile, into bench/.data/),
 * `--dist DIR` serves a build made elsewhere instead (an earlier commit's, for a before/after
 * comparison), and `--keys N` sets the number of keystrokes (default 40). Environment:
 * BENCH_CSS adds a style sheet to the page (to try a CSS change without a rebuild),
 * BENCH_TRACE_OUT and BENCH_PROFILE_OUT write the trace and the CPU profile to files (they open
 * in Chrome DevTools' Performance panel).
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import type { Browser, Page } from "playwright-core";

import { openBenchGroup } from "./interaction.ts";

/** A complete ("X") trace event, or the metadata that names a thread. */
interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly ts: number;
  readonly dur?: number;
  /** The thread's CPU time over the event (µs), when the trace has it. */
  readonly tdur?: number;
  readonly pid: number;
  readonly tid: number;
  readonly args?: { readonly name?: string; readonly data?: { readonly type?: string } };
}

type Kind = "script" | "gc" | "style" | "layout" | "paint" | "other";
const KINDS: readonly Kind[] = ["script", "gc", "style", "layout", "paint", "other"];

/** The kind of a trace event's own time; unnamed ones count as their nearest named ancestor's. */
function kindOf(name: string): Kind | null {
  if (
    /^(EventDispatch|FunctionCall|RunMicrotasks|TimerFire|FireAnimationFrame|FireIdleCallback|EvaluateScript|v8\.|V8\.Execute|HandlePostMessage|ParseHTML)/.test(
      name,
    )
  )
    return name.startsWith("V8.GC") ? "gc" : "script";
  if (/GC|BlinkGC/.test(name)) return "gc";
  if (
    /^(UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet|ScheduleStyleRecalculation)/.test(
      name,
    )
  )
    return "style";
  if (/^(Layout|UpdateLayout|PrePaint|IntersectionObserverController)/.test(name)) return "layout";
  if (
    /^(Paint|PaintImage|Layerize|UpdateLayer|Commit|CompositeLayers|Decode|PaintArtifactCompositor)/.test(
      name,
    )
  )
    return "paint";
  return null;
}

export interface KindTimes {
  readonly script: number;
  readonly gc: number;
  readonly style: number;
  readonly layout: number;
  readonly paint: number;
  readonly other: number;
  readonly total: number;
}

export interface KeystrokeProfile {
  readonly keys: number;
  /** Medians over the keys, in ms: the task that dispatched the keydown (handler, React's render and commit). */
  readonly keyTask: KindTimes;
  /** Medians over the keys, in ms: all main-thread work from the keydown to the next key. */
  readonly untilNextKey: KindTimes;
  /** Medians over the keys, in ms: the first frame after the key's task (its rendering update). */
  readonly frame: KindTimes;
  /** The same two as the thread's CPU time (medians, ms). */
  readonly keyTaskCpu: KindTimes;
  readonly frameCpu: KindTimes;
  /** The keydown EventDispatch itself (ms): median and p95. */
  readonly dispatch: { readonly median: number; readonly p95: number };
  /** Sampled CPU profile: ms of self time per key, by function, largest first. */
  readonly functions: readonly { readonly name: string; readonly msPerKey: number }[];
  /** Sampled CPU profile: ms per key of all JS (and GC) samples. */
  readonly jsMsPerKey: number;
}

const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

const round = (x: number): number => Number(x.toFixed(2));

/**
 * Self time per kind of the main-thread events in [from, to) (µs), nested events taken apart:
 * wall-clock time, or with `cpu` the thread's CPU time (which a loaded machine inflates less: time
 * the thread waits for a core is not counted).
 */
function kindTimes(
  events: readonly TraceEvent[],
  from: number,
  to: number,
  cpu = false,
): Record<Kind, number> {
  const out: Record<Kind, number> = { script: 0, gc: 0, style: 0, layout: 0, paint: 0, other: 0 };
  const stack: { end: number; kind: Kind | null; self: number }[] = [];
  const close = (upTo: number): void => {
    while (stack.length > 0 && stack[stack.length - 1]!.end <= upTo) {
      const e = stack.pop()!;
      const kind = e.kind ?? stack.findLast((s) => s.kind !== null)?.kind ?? "other";
      out[kind] += Math.max(0, e.self);
    }
  };
  for (const e of events) {
    if (e.ts < from || e.ts >= to) continue;
    close(e.ts);
    // Cut at the window's end, so an event that runs past it counts only its part inside.
    const dur = Math.min(e.dur ?? 0, to - e.ts);
    const time = cpu ? (e.tdur ?? e.dur ?? 0) * (dur / Math.max(1, e.dur ?? 0)) : dur;
    const parent = stack[stack.length - 1];
    if (parent !== undefined) parent.self -= time;
    stack.push({ end: e.ts + dur, kind: kindOf(e.name), self: time });
  }
  close(Infinity);
  return out;
}

function toMs(t: Record<Kind, number>): KindTimes {
  const ms = Object.fromEntries(KINDS.map((k) => [k, t[k] / 1000])) as Record<Kind, number>;
  return { ...ms, total: KINDS.reduce((s, k) => s + ms[k], 0) };
}

function medianTimes(list: readonly KindTimes[]): KindTimes {
  const pick = (k: keyof KindTimes): number =>
    round(
      quantile(
        list.map((t) => t[k]),
        0.5,
      ),
    );
  return {
    script: pick("script"),
    gc: pick("gc"),
    style: pick("style"),
    layout: pick("layout"),
    paint: pick("paint"),
    other: pick("other"),
    total: pick("total"),
  };
}

/**
 * Splits a trace into inputs (EventDispatch of `type` on the page's main thread: keydown by
 * default) and times them.
 */
export function analyseTrace(
  traceEvents: readonly TraceEvent[],
  type = "keydown",
): {
  keyTask: KindTimes[];
  keyTaskCpu: KindTimes[];
  frameCpu: KindTimes[];
  untilNextKey: KindTimes[];
  frame: KindTimes[];
  dispatch: number[];
} {
  const isKeydown = (e: TraceEvent): boolean =>
    e.ph === "X" && e.name === "EventDispatch" && e.args?.data?.type === type;
  const first = traceEvents.find(isKeydown);
  if (first === undefined) throw new Error(`no ${type} dispatch in the trace`);
  const main = traceEvents
    .filter((e) => e.ph === "X" && e.pid === first.pid && e.tid === first.tid)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const keys = main.filter(isKeydown);
  const tasks = main.filter(
    (e) => e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask",
  );
  const keyTask: KindTimes[] = [];
  const keyTaskCpu: KindTimes[] = [];
  const frameCpu: KindTimes[] = [];
  const untilNextKey: KindTimes[] = [];
  const frame: KindTimes[] = [];
  const frames = main.filter((e) => e.name === "WebFrameWidgetImpl::UpdateLifecycle");
  // The last key has no next one: its window ends with the trace.
  const end = main.reduce((m, e) => Math.max(m, e.ts + (e.dur ?? 0)), 0);
  // Each key's task (or the dispatch itself, if no task encloses it): windows end where the
  // next key's task starts, so no event is cut in two.
  const spans = keys.map((k) => {
    // The outermost task (RunTask encloses ThreadControllerImpl::RunTask).
    const task = tasks.find((t) => t.ts <= k.ts && t.ts + (t.dur ?? 0) >= k.ts + (k.dur ?? 0));
    return task === undefined
      ? { from: k.ts, to: k.ts + (k.dur ?? 0) }
      : { from: task.ts, to: task.ts + (task.dur ?? 0) };
  });
  spans.forEach((span, i) => {
    keyTask.push(toMs(kindTimes(main, span.from, span.to)));
    keyTaskCpu.push(toMs(kindTimes(main, span.from, span.to, true)));
    untilNextKey.push(toMs(kindTimes(main, span.from, spans[i + 1]?.from ?? end)));
    // The frame's task: the outermost task around the first lifecycle update after the key's task.
    const update = frames.find((f) => f.ts >= span.to);
    const task =
      update === undefined
        ? undefined
        : tasks.find(
            (t) => t.ts <= update.ts && t.ts + (t.dur ?? 0) >= update.ts + (update.dur ?? 0),
          );
    if (task !== undefined) {
      frame.push(toMs(kindTimes(main, task.ts, task.ts + (task.dur ?? 0))));
      frameCpu.push(toMs(kindTimes(main, task.ts, task.ts + (task.dur ?? 0), true)));
    }
  });
  return {
    keyTask,
    keyTaskCpu,
    untilNextKey,
    frame,
    frameCpu,
    dispatch: keys.map((k) => (k.dur ?? 0) / 1000),
  };
}

interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: {
      readonly functionName: string;
      readonly url: string;
      readonly lineNumber: number;
    };
  }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Self time per function (ms, summed), and the JS total without idle and "(program)". */
export function selfTimes(profile: CpuProfile): { byName: Map<string, number>; js: number } {
  const names = new Map<number, string>();
  for (const n of profile.nodes) {
    const f = n.callFrame;
    const file =
      f.url === "" ? "" : ` ${f.url.slice(f.url.lastIndexOf("/") + 1)}:${f.lineNumber + 1}`;
    names.set(n.id, `${f.functionName || "(anonymous)"}${file}`);
  }
  const byName = new Map<string, number>();
  let js = 0;
  profile.samples.forEach((id, i) => {
    // A sample's delta is the time since the previous one: charge it to this sample's function.
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const name = names.get(id) ?? "?";
    byName.set(name, (byName.get(name) ?? 0) + ms);
    if (name !== "(idle)" && name !== "(program)") js += ms;
  });
  return { byName, js };
}

/** Ranking keys, with Alt already held (an Alt press is a keydown of its own). */
async function pressKeys(page: Page, keys: number): Promise<void> {
  for (let i = 0; i < keys; i++) {
    await page.keyboard.press(i % 2 === 0 ? "ArrowDown" : "ArrowUp");
    // Long enough for the key's frame, the deferred save and the scroll into view to finish.
    await page.waitForTimeout(80);
  }
}

/**
 * Opens the 64-rollout group, ranks its passes, and presses `keys` ranking keys under a trace, then
 * as many under the sampling CPU profiler.
 */
export async function profileRankingKeystroke(
  browser: Browser,
  baseUrl: string,
  keys = 40,
): Promise<KeystrokeProfile> {
  const { context, page, errors, checks } = await openBenchGroup(browser, baseUrl);
  // A style sheet to try (BENCH_CSS), e.g. containment on the columns, without a rebuild. A
  // constructed sheet: the studio's Content-Security-Policy refuses inline style elements.
  const css = process.env.BENCH_CSS ?? "";
  if (css !== "")
    await page.evaluate(`(() => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(${JSON.stringify(css)});
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    })()`);
  await page.getByTestId("ranking.add-all").click();
  await page.waitForTimeout(200);
  await page.locator('[data-testid="ranking.tiers"] [data-testid="ranking.item"]').first().focus();
  // Alt is held from here on, so every keydown traced is a ranking key.
  await page.keyboard.down("Alt");
  await pressKeys(page, 6); // warm up

  await browser.startTracing(page, {
    categories: [
      "devtools.timeline",
      "disabled-by-default-devtools.timeline",
      "disabled-by-default-devtools.timeline.stack",
      "v8",
      "blink",
      "toplevel",
    ],
  });
  await pressKeys(page, keys);
  const raw = await browser.stopTracing();
  if (process.env.BENCH_TRACE_OUT !== undefined) writeFileSync(process.env.BENCH_TRACE_OUT, raw);
  const trace = JSON.parse(raw.toString("utf8")) as {
    traceEvents: TraceEvent[];
  };
  const t = analyseTrace(trace.traceEvents);

  const session = await context.newCDPSession(page);
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: 100 });
  await session.send("Profiler.start");
  await pressKeys(page, keys);
  const { profile } = (await session.send("Profiler.stop")) as unknown as { profile: CpuProfile };
  await session.detach();
  await page.keyboard.up("Alt");
  if (process.env.BENCH_PROFILE_OUT !== undefined)
    writeFileSync(process.env.BENCH_PROFILE_OUT, JSON.stringify(profile));
  const { byName, js } = selfTimes(profile);
  const functions = [...byName]
    .filter(([name]) => name !== "(idle)" && name !== "(program)")
    .sort((a, b) => b[1] - a[1])
    .slice(0, 40)
    .map(([name, ms]) => ({ name, msPerKey: Number((ms / keys).toFixed(3)) }));

  if (errors.length > 0) checks.push(`page errors: ${errors.join("; ")}`);
  await context.close();
  if (checks.length > 0) throw new Error(checks.join("; "));
  return {
    keys: t.keyTask.length,
    keyTask: medianTimes(t.keyTask),
    untilNextKey: medianTimes(t.untilNextKey),
    frame: medianTimes(t.frame),
    keyTaskCpu: medianTimes(t.keyTaskCpu),
    frameCpu: medianTimes(t.frameCpu),
    dispatch: { median: round(quantile(t.dispatch, 0.5)), p95: round(quantile(t.dispatch, 0.95)) },
    functions,
    jsMsPerKey: round(js / keys),
  };
}

/** Serves a built app directory with vite preview on a free port. */
async function serve(
  root: string,
  outDir: string,
): Promise<{ url: string; close: () => Promise<void> }> {
  const { preview } = await import("vite");
  const p = await preview({
    root,
    logLevel: "warn",
    build: { outDir },
    preview: { host: "127.0.0.1", port: 0, strictPort: true, open: false },
  });
  const address = p.httpServer.address();
  if (address === null || typeof address === "string") throw new Error("preview has no port");
  return { url: `http://127.0.0.1:${address.port}`, close: () => p.close() };
}

async function standalone(): Promise<void> {
  const { launchChromium } = await import("../e2e/harness/browser.ts");
  const arg = (name: string): string | undefined => {
    const at = process.argv.indexOf(name);
    return at > 0 ? process.argv[at + 1] : undefined;
  };
  const unminified = process.argv.includes("--unminified");
  const keys = Number(arg("--keys") ?? 40);
  // A build made elsewhere, e.g. of an earlier commit, for a before/after comparison.
  const dist = arg("--dist");
  const root = fileURLToPath(new URL("..", import.meta.url));
  let server: { url: string; close: () => Promise<void> };
  if (dist !== undefined) {
    server = await serve(root, dist);
  } else if (unminified) {
    const { build } = await import("vite");
    const outDir = "bench/.data/dist-unminified";
    process.env.NODE_ENV = "production";
    process.env.BUNDLE_BUDGET_OFF = "1"; // unminified code is over the gzip budget
    await build({ root, mode: "production", logLevel: "warn", build: { outDir, minify: false } });
    server = await serve(root, outDir);
  } else {
    const { startPreviewServer } = await import("../e2e/harness/server.ts");
    server = await startPreviewServer();
  }
  const browser = await launchChromium();
  try {
    const p = await profileRankingKeystroke(browser, server.url, keys);
    console.log(
      JSON.stringify({
        metric: "ranking keystroke main-thread time per key (ms, medians)",
        keys: p.keys,
        keyTask: p.keyTask,
        frame: p.frame,
        keyTaskCpu: p.keyTaskCpu,
        frameCpu: p.frameCpu,
        untilNextKey: p.untilNextKey,
        dispatchMedian: p.dispatch.median,
        dispatchP95: p.dispatch.p95,
        jsMsPerKey: p.jsMsPerKey,
        unminified,
      }),
    );
    for (const f of p.functions) console.error(`${f.msPerKey.toFixed(3).padStart(7)}  ${f.name}`);
  } finally {
    await browser.close();
    await server.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await standalone();
