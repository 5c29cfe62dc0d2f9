/**
 * A run's health as `rollout-studio health` reads it (issue 19): the run's files one at a time,
 * each file's groups named as io's run merge names them (`runFileGroupNames`: the run ids, the
 * steps, the collisions) and handed to core's RunHealthTally, then dropped. A large JSONL file goes
 * through the byte index a batch of groups at a time. So the run is never held whole: what stays is
 * each group's GroupHealth (a few numbers) and the diversity sample.
 *
 * Where streaming cannot give the merge's groups exactly, the run is loaded whole
 * (`loadRunForCli`) and tallied in one batch: trajectory formats (their groups gather rollouts
 * across files), runs with an evaluation report (it rewrites rewards across files), and a
 * trajectory file given alone with a report beside it. Those runs are small in practice.
 *
 * Marked hacks must be known before any group is tallied (core's hack-like test compares every
 * rollout with them), so annotations that mark hacks add a first pass that collects just the
 * marked rollouts: only their groups are read from an indexed file, and the pass stops once every
 * marked rollout is found. The streamed numbers equal `runHealth` over the whole load
 * (src/cli/health.test.ts).
 */
import { statSync } from "node:fs";
import {
  annotationsResolve,
  hackExemplarsOf,
  markedHackIds,
  RunHealthTally,
  type AnalysisSettings,
  type Annotations,
  type GroupHealth,
  type HackExemplar,
  type HealthSettings,
  type RolloutGroup,
  type RunHealth,
} from "../core/index.ts";
import {
  datasetFromLoad,
  datasetWithParsedTallies,
  formatGroupsAcrossFiles,
  LoadError,
  loadBytes,
  parsedGroupTally,
  readIndexedGroup,
  runFileGroupNames,
  runFileInstead,
  runGroupRenamed,
  type FormatOptions,
  type LoadedDataset,
  type ParsedGroupTally,
  type ParseIssue,
  type RunFile,
  type RunGroupName,
} from "../io/index.ts";
import {
  cliGroupSteps,
  indexedGroupsForCli,
  indexForCli,
  loadRunForCli,
  noRolloutRead,
  reportsBeside,
  type CliIndexedFile,
} from "./loadForCli.ts";
import { readBytes } from "./readBytes.ts";
import { cliRunOf, type CliRun } from "./runPaths.ts";

/** A group with its run id (its rollouts' ids too) and its step. */
export interface NamedGroup {
  readonly group: RolloutGroup;
  readonly step: number | null;
}

/** How a run is read: its format, the analysis and health settings, the annotations. */
export interface HealthReadOptions {
  readonly format: string | undefined;
  readonly mapping: FormatOptions | undefined;
  readonly settings: AnalysisSettings;
  readonly health: Pick<HealthSettings, "clusterSample">;
  readonly annotations: Annotations | null;
  /** The annotations file as given, for messages. */
  readonly annotationsFile?: string;
  /** The size from which a JSONL file is indexed (loadForCli's threshold). */
  readonly threshold: number;
  /** Where the annotations' unknown ids are printed before the LoadError. */
  readonly stderr: (text: string) => void;
}

export interface RunHealthRead {
  readonly name: string;
  readonly health: RunHealth;
  /** Every group's numbers, in the run's order (for run against run). */
  readonly groups: readonly GroupHealth[];
  /** The load's problems and the annotations' warnings (each a file, a line, a message). */
  readonly issues: readonly ParseIssue[];
  /** True when the run was read file by file; false when it was loaded whole (see the header). */
  readonly streamed: boolean;
}

/** Groups an indexed file hands to the tally at once (each batch is held, then dropped). */
const INDEXED_BATCH = 256;

/** Thrown inside a streamed read when the run must be loaded whole (see the module header). */
class WholeLoadNeeded extends Error {}

/** One file of the run, opened: a whole dataset, or an index to read groups from. */
type OpenedFile =
  | { readonly kind: "whole"; readonly dataset: LoadedDataset }
  | { readonly kind: "indexed"; readonly indexed: CliIndexedFile };

/** The run's files in run order, each file's groups under their run names (io's merge rule). */
class RunStream {
  /** The load's problems: the files left out first, then each file's, in run order. */
  readonly leftOut: ParseIssue[] = [];
  readonly issues: ParseIssue[] = [];
  private readonly taken = new Set<string>();
  private parts = 0;
  private readonly run: CliRun;
  private readonly options: HealthReadOptions;

  constructor(run: CliRun, options: HealthReadOptions) {
    this.run = run;
    this.options = options;
  }

  /**
   * Every group of the run in batches (a whole file's, or up to INDEXED_BATCH of an indexed
   * file). With `only`, just the groups of those run ids (an indexed file reads no other).
   *
   * @throws WholeLoadNeeded, LoadError as loadRunForCli would
   */
  async *batches(only?: ReadonlySet<string>): AsyncGenerator<readonly NamedGroup[]> {
    if (this.run.run.kind === "agent-trajectories") throw new WholeLoadNeeded();
    for (const file of this.run.run.files) {
      const opened = await this.open(file);
      if (opened === null) continue;
      const dataset = opened.kind === "whole" ? opened.dataset : opened.indexed.dataset;
      const single = this.run.single;
      if (
        (!single && formatGroupsAcrossFiles(dataset.format)) ||
        (single && reportsBeside(this.pathOf(file), this.run.name, dataset.format).length > 0)
      )
        throw new WholeLoadNeeded();
      // A file's names are claimed only once it gave a group: a file that gives none is no part
      // of the merge, and its ids take no place.
      const pending = new Set<string>();
      const names = runFileGroupNames(
        file,
        dataset,
        single,
        { has: (id) => this.taken.has(id) || pending.has(id) },
        (id) => pending.add(id),
      );
      const named = (g: RolloutGroup): NamedGroup => {
        const to = names.names.get(g.id);
        return { group: to === undefined ? g : runGroupRenamed(g, to), step: to?.step ?? null };
      };
      // The file's dataset as the whole load has it: an indexed file's once its groups are parsed.
      let parsed: LoadedDataset = dataset;
      if (opened.kind === "whole") {
        const wanted =
          only === undefined
            ? dataset.groups
            : dataset.groups.filter((g) => only.has(names.names.get(g.id)?.id ?? g.id));
        if (wanted.length > 0) yield wanted.map(named);
      } else {
        const tallies: ParsedGroupTally[] = [];
        let read = 0;
        for await (const batch of this.indexedBatches(opened.indexed, names.names, only, tallies)) {
          read += batch.length;
          yield batch.map(named);
        }
        parsed = datasetWithParsedTallies(dataset, tallies);
        if (read === 0 && only === undefined) {
          this.instead(file, noRolloutRead(single ? this.run.name : file.path, parsed));
          continue;
        }
      }
      for (const id of pending) this.taken.add(id);
      this.parts++;
      for (const issue of names.issues) this.issues.push(issue);
      for (const issue of parsed.issues) this.issues.push(issue);
    }
    if (this.parts === 0 && only === undefined && !this.run.single)
      throw new LoadError(
        this.run.name,
        "no file of the run holds rollouts (only evaluation reports)",
      );
  }

  /** The load's problems in loadRunForCli's order. */
  allIssues(): ParseIssue[] {
    return [...this.leftOut, ...this.issues];
  }

  private pathOf(file: RunFile): string {
    return this.run.absolute.get(file.path)!;
  }

  /** An indexed file's groups, parsed in the summaries' order, in batches (as the file names them). */
  private async *indexedBatches(
    indexed: CliIndexedFile,
    names: ReadonlyMap<string, RunGroupName>,
    only: ReadonlySet<string> | undefined,
    tallies: ParsedGroupTally[],
  ): AsyncGenerator<RolloutGroup[]> {
    let batch: RolloutGroup[] = [];
    if (only !== undefined) {
      // Just the wanted groups, read by their file-local ids.
      for (const [localId, name] of names) {
        if (!only.has(name.id)) continue;
        const { group } = await readIndexedGroup(indexed.state, localId);
        if (group !== null) batch.push(group);
      }
      if (batch.length > 0) yield batch;
      return;
    }
    for await (const { group, fresh } of indexedGroupsForCli(indexed)) {
      if (fresh) tallies.push(parsedGroupTally(group));
      if (group.group === null) continue;
      batch.push(group.group);
      if (batch.length >= INDEXED_BATCH) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }

  /**
   * One file opened as loadRunForCli reads it (loadForCli: indexed when a large JSONL file, else
   * whole); null for a file that is the run's header or is left out. A file given alone fails as
   * it is; a file of several is looked at as a report (then the run is loaded whole).
   */
  private async open(file: RunFile): Promise<OpenedFile | null> {
    const path = this.pathOf(file);
    const name = this.run.single ? this.run.name : file.path;
    const { format, mapping, threshold } = this.options;
    try {
      let size: number | null = null;
      try {
        size = statSync(path).size;
      } catch {
        // readBytes names the problem (no such file, a directory, permissions).
      }
      const indexed =
        size === null ? null : await indexForCli(path, name, format, mapping, threshold, size);
      if (indexed !== null) return { kind: "indexed", indexed };
      const loaded = await loadBytes(name, readBytes(path, "rollout file"), {
        format,
        options: mapping,
      });
      return { kind: "whole", dataset: datasetFromLoad(loaded) };
    } catch (e) {
      if (!(e instanceof LoadError) || this.run.single) throw e;
      this.instead(file, e);
      return null;
    }
  }

  /** A file of the run that gave no rollout: its header, a report (load whole), or left out. */
  private instead(file: RunFile, error: LoadError): void {
    if (this.run.single) throw error;
    const bytes = readBytes(this.pathOf(file), "rollout file");
    const instead = runFileInstead(file.path, this.run.run.kind, bytes, error);
    if (instead === null) throw error;
    if ("report" in instead) throw new WholeLoadNeeded();
    if ("issue" in instead) this.leftOut.push(instead.issue);
  }
}

/** The annotations' ids the run does not hold are printed, then refused (as analyze does). */
function checkAnnotations(
  groups: readonly RolloutGroup[],
  annotations: Annotations,
  options: HealthReadOptions,
  run: string,
): ParseIssue[] {
  const resolved = annotationsResolve(groups, annotations);
  const file = options.annotationsFile ?? "annotations";
  if (resolved.unknown.length > 0) {
    for (const p of resolved.unknown) options.stderr(`${file}: ${p.message}\n`);
    throw new LoadError(
      file,
      `${resolved.unknown.length} id(s) are not in ${run}; are these annotations for another dataset?`,
    );
  }
  return resolved.warnings.map((p) => ({
    file,
    line: 0,
    field: `groups.${p.groupId}${p.rolloutId === undefined ? "" : `.${p.rolloutId}`}`,
    message: p.message,
  }));
}

/** Whether a group is one the annotations name. */
const annotated = (annotations: Annotations | null, id: string): boolean =>
  annotations !== null && Object.hasOwn(annotations.groups, id);

/**
 * The first pass: the marked hacks as exemplars, in the run's order, and (when the pass read the
 * whole run) the annotations checked against it.
 */
async function streamedExemplars(
  run: CliRun,
  options: HealthReadOptions,
  marked: ReadonlySet<string>,
): Promise<HackExemplar[]> {
  const annotations = options.annotations!;
  const wanted = new Set(Object.keys(annotations.groups));
  const stream = new RunStream(run, options);
  const exemplars: HackExemplar[] = [];
  const found = new Set<string>();
  const seen: RolloutGroup[] = [];
  for await (const batch of stream.batches(wanted)) {
    const groups = batch.map((b) => b.group);
    for (const g of groups) {
      seen.push(g);
      for (const r of g.rollouts) if (marked.has(r.id)) found.add(r.id);
    }
    for (const e of hackExemplarsOf(groups, marked, options.settings)) exemplars.push(e);
    if (found.size === marked.size) return exemplars;
  }
  // The whole run was read and some marked rollout is not in it: refuse now, not after the tally.
  checkAnnotations(seen, annotations, options, run.name);
  return exemplars;
}

async function streamedHealth(
  run: CliRun,
  options: HealthReadOptions,
  exemplars: readonly HackExemplar[],
): Promise<RunHealthRead> {
  const { annotations } = options;
  const tally = new RunHealthTally(options.settings, options.health, { annotations, exemplars });
  const stream = new RunStream(run, options);
  const named: RolloutGroup[] = [];
  for await (const batch of stream.batches()) {
    tally.addBatch(batch);
    for (const { group } of batch) if (annotated(annotations, group.id)) named.push(group);
  }
  const warnings =
    annotations === null ? [] : checkAnnotations(named, annotations, options, run.name);
  return {
    name: run.name,
    health: tally.finish(),
    groups: tally.groups(),
    issues: [...stream.allIssues(), ...warnings],
    streamed: true,
  };
}

/** The run loaded whole (loadRunForCli) and tallied in one batch. */
async function wholeHealth(
  cwd: string,
  paths: readonly string[],
  options: HealthReadOptions,
): Promise<RunHealthRead> {
  const loaded = await loadRunForCli(
    cwd,
    paths,
    options.format,
    options.mapping,
    options.threshold,
  );
  const { annotations, settings } = options;
  const warnings =
    annotations === null ? [] : checkAnnotations(loaded.groups, annotations, options, loaded.file);
  const exemplars = hackExemplarsOf(loaded.groups, markedHackIds(annotations), settings);
  const steps = cliGroupSteps(loaded);
  const tally = new RunHealthTally(settings, options.health, { annotations, exemplars });
  tally.addBatch(loaded.groups.map((group) => ({ group, step: steps.get(group.id) ?? null })));
  return {
    name: loaded.run?.name ?? loaded.file,
    health: tally.finish(),
    groups: tally.groups(),
    issues: [...loaded.issues, ...warnings],
    streamed: false,
  };
}

/**
 * The health of the run PATH arguments name (see ./runPaths.ts), streamed file by file where the
 * run allows it (see the module header).
 *
 * @throws UsageError for paths that name no run; LoadError for a file that does not load, or
 *   annotations naming ids the run does not hold (each printed first)
 */
export async function readRunHealth(
  cwd: string,
  paths: readonly string[],
  options: HealthReadOptions,
): Promise<RunHealthRead> {
  const run = cliRunOf(cwd, paths);
  const marked = markedHackIds(options.annotations);
  try {
    const exemplars = marked.size === 0 ? [] : await streamedExemplars(run, options, marked);
    return await streamedHealth(run, options, exemplars);
  } catch (e) {
    if (!(e instanceof WholeLoadNeeded)) throw e;
  }
  return wholeHealth(cwd, paths, options);
}
