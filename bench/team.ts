/**
 * Issue 18's team benchmark (`npm run bench:team`): 20 simulated annotators writing to one
 * `rollout-studio view` server for 60 s, writes per second and write latency, team mode on
 * PostgreSQL against the file store measured in the same run.
 *
 * Stage (teamSetup.ts): a run folder of 400 groups of 8 rollouts, a throwaway PostgreSQL cluster
 * (src/test/postgres.ts) with a lead and 20 annotators (the store's `userAdd`), each annotator's
 * queue share from core's `teamAssign` (overlap 0.2) and that queue made by the lead, and three
 * `view` processes of the built CLI on loopback:
 *
 * - `file`: the file mode (session token); all 20 write the ONE shared annotations.json with whole-
 *   document PUTs, so a write that lost the race gets a 409, merges and writes again.
 * - `postgres`: `view --db` (each annotator with their own token), the same whole-document PUT
 *   `/api/annotations`: each person writes their own document.
 * - `postgres-group`: `view --db`, `PUT /api/team/groups/:groupId` per group (its own version).
 *   Run only when `GET /api/team/state` answers (the route may not exist yet); skipped with a note.
 *
 * Each annotator loops (teamClient.ts): pick a group of its share, change a label, the ranking or a
 * hack mark, write it; no think time by default (a stress test), `--think-ms N` to add one. Each
 * store runs `--seconds` in all (default 60) in two halves, ABC then CBA, so a machine whose load
 * drifts weighs on every store alike. A write's latency runs from its first attempt to its
 * acknowledgement, retries included. Stdout: one JSON line per metric (bench/README.md's shape,
 * the baseline the file store's figure); stderr: progress and the table. Results go to
 * bench/.data/team/results.json. At the end every acknowledged write is checked in the store, read
 * from the database and from annotations.json directly (teamReport.ts `chainProblems`); a missing
 * one fails the run (exit 1); timing never does.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "vite";
import { buildCli } from "../scripts/buildCli.ts";
import type { ViewProcess } from "../scripts/viewProcess.ts";
import { annotationsParse } from "../src/io/index.ts";
import { ANNOTATIONS_FILE, annotationsVersion } from "../src/server/annotationsStore.ts";
import { startPostgres } from "../src/test/postgres.ts";
import { fingerprintBytes } from "./generate.ts";
import { postmasterPid, processCpuSeconds, treeCpuSeconds } from "./procCpu.ts";
import { annotatorRun, tallyNew, type TeamTally } from "./teamClient.ts";
import {
  acksByChain,
  chainProblems,
  storeSummary,
  summaryTable,
  type CpuSeconds,
  type StoreSummary,
} from "./teamReport.ts";
import {
  addPeople,
  groupRouteAnswers,
  makeQueue,
  queueShares,
  readEveryone,
  startView,
  writeRunFolder,
  type Person,
  type RunFolder,
} from "./teamSetup.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const GROUPS = 400;
const PER_GROUP = 8;

const { values: flags } = parseArgs({
  options: {
    seconds: { type: "string", default: "60" },
    "think-ms": { type: "string", default: "0" },
    annotators: { type: "string", default: "20" },
  },
});
const SECONDS = Number(flags.seconds);
const THINK_MS = Number(flags["think-ms"]);
const ANNOTATORS = Number(flags.annotators);
if (!(SECONDS > 0) || !(THINK_MS >= 0) || !Number.isInteger(ANNOTATORS) || ANNOTATORS < 2)
  throw new Error("--seconds > 0, --think-ms >= 0 and --annotators >= 2 (a whole number)");

const log = (message: string): void => console.error(`team: ${message}`);

/** One store under test: where its server is and how an annotator writes to it. */
interface Store {
  readonly name: string;
  readonly mode: "doc" | "group";
  readonly view: ViewProcess;
  readonly token: (annotator: number) => string;
  readonly docChain: (name: string) => string;
  readonly tally: TeamTally;
  seconds: number;
  readonly cpu: CpuSeconds;
}

/** The studio is served but never opened here: any build will do, so build it only when missing. */
async function ensureBuilds(): Promise<void> {
  log("building dist-cli (npm run build:cli)");
  await buildCli();
  if (existsSync(join(ROOT, "dist", "index.html"))) return;
  log("building the studio (dist/ is missing; view serves it)");
  process.env.NODE_ENV = "production";
  await build({ root: ROOT, mode: "production", logLevel: "warn", build: { outDir: "dist" } });
}

/** This process's CPU seconds so far: the simulated annotators' side of the HTTP and the merges. */
function ownCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/** One half of a store's time: every annotator writes until the deadline, then the stragglers land. */
async function runPhase(
  store: Store,
  run: RunFolder,
  names: readonly string[],
  shares: Readonly<Record<string, readonly string[]>>,
  half: number,
  pgPid: number | null,
): Promise<void> {
  const cpuAt = (): CpuSeconds => ({
    clients: ownCpuSeconds(),
    server: processCpuSeconds(store.view.child.pid ?? -1) ?? Number.NaN,
    db: pgPid === null ? Number.NaN : (treeCpuSeconds(pgPid) ?? Number.NaN),
  });
  const cpu0 = cpuAt();
  const started = performance.now();
  const until = started + (SECONDS * 1000) / 2;
  await Promise.all(
    names.map((name, i) =>
      annotatorRun(
        {
          mode: store.mode,
          origin: store.view.origin,
          token: store.token(i),
          name,
          docChain: store.docChain(name),
          groups: shares[name]!,
          rollouts: run.rollouts,
          seed: 1000 * half + i + 1,
          until,
          thinkMs: THINK_MS,
        },
        store.tally,
      ),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu1 = cpuAt();
  store.seconds += seconds;
  store.cpu.clients += cpu1.clients - cpu0.clients;
  store.cpu.server += cpu1.server - cpu0.server;
  store.cpu.db += cpu1.db - cpu0.db;
  log(
    `  ${store.name} half ${half}: ${store.tally.latenciesMs.length} writes so far, this half ${seconds.toFixed(1)} s`,
  );
}

/** The read-back: each store's acknowledged writes against what it holds now. */
async function readBack(
  stores: readonly Store[],
  stateDir: string,
  dbUrl: string,
  lead: Person,
  datasets: Readonly<Record<string, string>>,
): Promise<string[]> {
  const problems: string[] = [];
  for (const store of stores) {
    const chains = acksByChain(store.tally.acks);
    if (store.name === "file") {
      const text = readFileSync(join(stateDir, ANNOTATIONS_FILE), "utf8");
      const parsed = annotationsParse(ANNOTATIONS_FILE, text);
      if (!parsed.ok) {
        problems.push("file: annotations.json does not validate");
        continue;
      }
      const stored = { version: annotationsVersion(text), groups: parsed.value.groups };
      problems.push(...chainProblems("doc", chains.get("doc") ?? [], stored));
      continue;
    }
    const people = new Map(
      (await readEveryone(dbUrl, datasets[store.name]!, lead.user)).map((p) => [p.user, p]),
    );
    for (const [chain, acks] of chains) {
      const [user, groupId] = store.mode === "doc" ? [chain, null] : chain.split("/");
      const person = people.get(user);
      if (person === undefined) {
        problems.push(`${store.name}: ${user} has acknowledged writes and nothing stored`);
        continue;
      }
      const groups = person.annotations.groups;
      const stored =
        groupId === null || groupId === undefined
          ? { version: person.version, groups }
          : {
              version: person.versions[groupId] ?? "0",
              groups: Object.hasOwn(groups, groupId) ? { [groupId]: groups[groupId]! } : {},
            };
      problems.push(...chainProblems(`${store.name} ${chain}`, acks, stored));
    }
  }
  return problems;
}

function report(summaries: readonly StoreSummary[], data: string): void {
  const file = summaries[0]!;
  const common = { runs: 2, annotators: ANNOTATORS, thinkMs: THINK_MS, data };
  for (const s of summaries.slice(1)) {
    const line = (metric: string, value: number, baseline: number, unit: string) =>
      JSON.stringify({
        metric,
        value: Number(value.toPrecision(4)),
        baseline: Number(baseline.toPrecision(4)),
        ratio: Number((value / baseline).toPrecision(4)),
        unit,
        ...common,
        p50Ms: Number(s.p50Ms.toPrecision(4)),
        p95Ms: Number(s.p95Ms.toPrecision(4)),
        p99Ms: Number(s.p99Ms.toPrecision(4)),
        writes: s.writes,
        conflicts: s.conflicts,
        failures: s.failures,
        perAnnotator: s.perAnnotator,
        note: `${s.store} against the file store (baseline: ${file.writes} writes, ${file.perAnnotator.min}-${file.perAnnotator.max} per annotator, ${file.conflicts} 409s, p50 ${file.p50Ms.toFixed(1)} ms, p99 ${file.p99Ms.toFixed(1)} ms)`,
      });
    process.stdout.write(
      `${line(`team.writesPerSecond.${s.store}`, s.writesPerSecond, file.writesPerSecond, "writes/s")}\n`,
    );
    process.stdout.write(`${line(`team.writeP95.${s.store}`, s.p95Ms, file.p95Ms, "ms")}\n`);
  }
  console.error(`\n${summaryTable(summaries)}\n`);
  const out = join(ROOT, "bench", ".data", "team");
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, "results.json"),
    `${JSON.stringify({ date: new Date().toISOString(), seconds: SECONDS, ...common, summaries }, null, 2)}\n`,
  );
  log(`results in ${join(out, "results.json")}`);
}

const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(", ");

async function main(): Promise<number> {
  await ensureBuilds();
  log(`load average ${load()} (1, 5, 15 min) before the run`);
  const tmp = mkdtempSync(join(tmpdir(), "bench-team-"));
  const run = writeRunFolder(join(tmp, "run"), GROUPS, PER_GROUP);
  const data = fingerprintBytes(readFileSync(join(run.dir, "steps.jsonl")));
  const stateDir = join(tmp, "state");
  log("starting PostgreSQL (a throwaway cluster)");
  const pg = await startPostgres();
  const views: ViewProcess[] = [];
  try {
    const { lead, annotators } = await addPeople(pg.url, ANNOTATORS);
    const names = annotators.map((a) => a.user.name);
    const assignment = queueShares(run, names);
    const datasets = { postgres: "bench-doc", "postgres-group": "bench-group" };
    for (const dataset of Object.values(datasets))
      await makeQueue(pg.url, dataset, lead.user, assignment);
    log(`${ANNOTATORS} annotators and a lead; queue of ${GROUPS} groups, overlap 0.2`);
    const start = async (mode: Parameters<typeof startView>[1]) => {
      const view = await startView(run, mode);
      views.push(view);
      return view;
    };
    const fileView = await start({ stateDir });
    const docView = await start({ dbUrl: pg.url, dataset: datasets.postgres });
    const groupView = await start({ dbUrl: pg.url, dataset: datasets["postgres-group"] });
    const store = (name: string, mode: Store["mode"], view: ViewProcess): Store => ({
      name,
      mode,
      view,
      token: name === "file" ? () => view.token! : (i) => annotators[i]!.token,
      docChain: name === "file" ? () => "doc" : (person) => person,
      tally: tallyNew(),
      seconds: 0,
      cpu: { clients: 0, server: 0, db: 0 },
    });
    const pgPid = postmasterPid(pg.port);
    if (pgPid === null) log("PostgreSQL's process was not found: its CPU time is not shown");
    const stores = [store("file", "doc", fileView), store("postgres", "doc", docView)];
    if (await groupRouteAnswers(groupView.origin, annotators[0]!.token))
      stores.push(store("postgres-group", "group", groupView));
    else
      log(
        "NOTE: GET /api/team/state does not answer on this build: the per-group route (PUT /api/team/groups/:groupId) is not timed",
      );
    for (const [half, order] of [stores, [...stores].reverse()].entries()) {
      log(`half ${half + 1}: ${order.map((s) => s.name).join(", ")}, ${SECONDS / 2} s each`);
      for (const s of order) await runPhase(s, run, names, assignment.byUser, half + 1, pgPid);
    }
    const summaries = stores.map((s) =>
      storeSummary(s.name, s.tally.latenciesMs, s.seconds, {
        ...s.tally,
        cpu: s.cpu,
        annotators: names,
      }),
    );
    for (const s of stores)
      for (const [what, count] of s.tally.failureKinds) log(`${s.name}: ${count} x ${what}`);
    log(`load average ${load()} (1, 5, 15 min) after the run`);
    report(summaries, data);
    const problems = await readBack(stores, stateDir, pg.url, lead, datasets);
    const acked = stores.map((s) => `${s.name} ${s.tally.acks.length}`).join(", ");
    if (problems.length === 0)
      log(`read back: every acknowledged write is in its store (${acked})`);
    else for (const p of problems) console.error(`CHECK FAILED: ${p}`);
    return problems.length === 0 ? 0 : 1;
  } finally {
    for (const view of views) if (view.child.exitCode === null) await view.stop("SIGTERM");
    await pg.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

process.exitCode = await main();
