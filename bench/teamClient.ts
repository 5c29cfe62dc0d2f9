/**
 * bench/team.ts's simulated annotator: what one person's studio sends while they label as fast as
 * they can (or with a think time), over real HTTP to a `rollout-studio view` process.
 *
 * Each write changes one group of the person's queue share (a label, the ranking or a hack mark,
 * plus a note naming the write, so every write is distinct content and can be found when read
 * back) and is sent as the studio sends it:
 *
 * - `doc`: `PUT /api/annotations` with the whole document and `If-Match` (the file store, where
 *   all twenty share one annotations.json, and team mode's whole-document route). On a 409 the
 *   reply's `current` is merged with the studio's own three-way merge (store/persistence/
 *   serverMerge.ts `mergeRemote`, then `alignEqual` for the next base, as serverLink.ts's `take`
 *   does) and written again.
 * - `group`: team mode's `PUT /api/team/groups/:groupId` with `{ annotation }` and `If-Match:
 *   "<group version>"` (io/view/teamApi.ts). On a 409 the change is applied again to the reply's
 *   current annotation of the group, over its version.
 *
 * A write's latency runs from its first attempt to the acknowledgement, retries included; a write
 * is retried until acknowledged (conflicts at once, other failures after 100 ms), so none is
 * dropped; one still unacknowledged 60 s after the phase ended is counted as unfinished.
 */
import {
  GROUP_ANNOTATION_EMPTY,
  randomMulberry32,
  type Annotations,
  type GroupAnnotation,
  type GroupId,
  type HumanLabel,
  type RolloutId,
} from "../src/core/index.ts";
import {
  annotationsParse,
  annotationsToJson,
  formatIssue,
  groupAnnotationFromUnknown,
} from "../src/io/index.ts";
import { alignEqual, mergeRemote } from "../src/store/persistence/serverMerge.ts";

/** One edit of a group, as data: applying it again (after a conflict) gives the same marks. */
export type TeamChange =
  | { readonly kind: "label"; readonly rollout: RolloutId; readonly label: HumanLabel }
  | { readonly kind: "ranking"; readonly tiers: readonly (readonly RolloutId[])[] }
  | { readonly kind: "hack"; readonly rollout: RolloutId; readonly on: boolean };

const LABELS: readonly HumanLabel[] = ["pass", "fail", "defer"];

/** A change a person would make to `current` (a label 50%, the ranking 25%, a hack mark 25%). */
export function changePick(
  rng: () => number,
  rollouts: readonly RolloutId[],
  current: GroupAnnotation | null,
): TeamChange {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(rng() * values.length)]!;
  const r = rng();
  if (r < 0.5) return { kind: "label", rollout: pick(rollouts), label: pick(LABELS) };
  if (r < 0.75) {
    const order = [...rollouts];
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    // Two to four tiers: the studio's rankings are often coarse.
    const tiers: RolloutId[][] = [];
    const count = 2 + Math.floor(rng() * 3);
    order.forEach((id, i) => (tiers[Math.floor((i * count) / order.length)] ??= []).push(id));
    return { kind: "ranking", tiers };
  }
  const rollout = pick(rollouts);
  return { kind: "hack", rollout, on: !(current?.hacks.includes(rollout) ?? false) };
}

/** `current` (null: never annotated) with the change made and `note` as the group's notes. */
export function changeApply(
  current: GroupAnnotation | null,
  change: TeamChange,
  note: string,
): GroupAnnotation {
  const base = current ?? GROUP_ANNOTATION_EMPTY;
  switch (change.kind) {
    case "label":
      return { ...base, labels: { ...base.labels, [change.rollout]: change.label }, notes: note };
    case "ranking":
      return { ...base, ranking: change.tiers.map((t) => [...t]), notes: note };
    case "hack": {
      const hacks = base.hacks.filter((id) => id !== change.rollout);
      if (change.on) hacks.push(change.rollout);
      return { ...base, hacks, notes: note };
    }
  }
}

/** A whole-document client's sync state, as serverLink.ts keeps it. */
export interface DocSync {
  /** The version the next PUT names in If-Match. */
  readonly version: string;
  /** The server's document as last synced: a group whose object differs from it is ours. */
  readonly base: Annotations;
  /** The page's document: what the next PUT sends. */
  readonly local: Annotations;
}

export function docSynced(doc: Annotations, version: string): DocSync {
  return { version, base: doc, local: doc };
}

/** The person changed one group. */
export function docChange(sync: DocSync, groupId: GroupId, annotation: GroupAnnotation): DocSync {
  return {
    ...sync,
    local: { ...sync.local, groups: { ...sync.local.groups, [groupId]: annotation } },
  };
}

/** A 409 with the server's `current` document at `version`: ours merged into theirs. */
export function docConflict(sync: DocSync, theirs: Annotations, version: string): DocSync {
  const merged = mergeRemote(sync.base, sync.local, theirs);
  return { version, base: alignEqual(theirs, merged), local: merged };
}

/** A 200: what was sent is now the server's. */
export function docWritten(sync: DocSync, version: string): DocSync {
  return { version, base: sync.local, local: sync.local };
}

/** One acknowledged write, for the read-back check. */
export interface TeamAck {
  /**
   * The version chain the write extends: the shared document (`doc`), a person's document (their
   * name) or a person's group (`name/groupId`).
   */
  readonly chain: string;
  /** Who wrote it. */
  readonly user: string;
  /** The If-Match of the attempt that was acknowledged, and the version it made. */
  readonly base: string;
  readonly version: string;
  readonly groupId: GroupId;
  readonly annotation: GroupAnnotation;
}

/** What a set of simulated annotators did in one phase. */
export interface TeamTally {
  readonly latenciesMs: number[];
  readonly acks: TeamAck[];
  conflicts: number;
  failures: number;
  unfinished: number;
  /** One line per distinct failure (status and message), with its count. */
  readonly failureKinds: Map<string, number>;
}

export function tallyNew(): TeamTally {
  return {
    latenciesMs: [],
    acks: [],
    conflicts: 0,
    failures: 0,
    unfinished: 0,
    failureKinds: new Map(),
  };
}

export interface AnnotatorOptions {
  readonly mode: "doc" | "group";
  readonly origin: string;
  readonly token: string;
  readonly name: string;
  /** The version chain a doc write extends: "doc" for the shared file, else the person's name. */
  readonly docChain: string;
  /** The person's queue share. */
  readonly groups: readonly GroupId[];
  readonly rollouts: (groupId: GroupId) => readonly RolloutId[];
  readonly seed: number;
  /** performance.now() after which no new write starts. */
  readonly until: number;
  readonly thinkMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const GRACE_MS = 60_000;
const RETRY_MS = 100;

function failure(tally: TeamTally, what: string): void {
  tally.failures++;
  tally.failureKinds.set(what, (tally.failureKinds.get(what) ?? 0) + 1);
}

function parseDocument(text: string): Annotations {
  const parsed = annotationsParse("the server's annotations", text);
  if (!parsed.ok) throw new Error(formatIssue(parsed.issues[0]!));
  return parsed.value;
}

const etagVersion = (response: Response): string =>
  /^(?:W\/)?"([^"]*)"$/.exec(response.headers.get("etag") ?? "")?.[1] ?? "";

async function request(
  options: AnnotatorOptions,
  path: string,
  init: RequestInit = {},
): Promise<Response> {
  return fetch(`${options.origin}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${options.token}`,
      "content-type": "application/json",
      ...(init.headers as Record<string, string> | undefined),
    },
  });
}

/** `GET /api/annotations`: the person's (or the shared) document and its version. */
export async function readDocument(
  options: Pick<AnnotatorOptions, "origin" | "token">,
): Promise<{ doc: Annotations; version: string }> {
  const response = await request(options as AnnotatorOptions, "/api/annotations");
  if (response.status !== 200)
    throw new Error(`GET /api/annotations: ${response.status} ${await response.text()}`);
  const version = etagVersion(response);
  return { doc: parseDocument(await response.text()), version };
}

/** Send one attempt; the reply's status and JSON body, or a failure's description. */
async function attempt(
  options: AnnotatorOptions,
  path: string,
  ifMatch: string,
  body: string,
): Promise<{ status: number; json: unknown } | { error: string }> {
  try {
    const response = await request(options, path, {
      method: "PUT",
      headers: { "if-match": `"${ifMatch}"` },
      body,
    });
    const text = await response.text();
    if (response.status !== 200 && response.status !== 409)
      return { error: `${response.status} ${text.slice(0, 200)}` };
    return { status: response.status, json: JSON.parse(text) as unknown };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

const field = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;

/** One person's whole-document writes until `until`. */
async function docLoop(options: AnnotatorOptions, tally: TeamTally): Promise<void> {
  const rng = randomMulberry32(options.seed);
  const first = await readDocument(options);
  let sync = docSynced(first.doc, first.version);
  let seq = 0;
  while (performance.now() < options.until) {
    const groupId = options.groups[Math.floor(rng() * options.groups.length)]!;
    const mine = Object.hasOwn(sync.local.groups, groupId) ? sync.local.groups[groupId]! : null;
    const change = changePick(rng, options.rollouts(groupId), mine);
    const annotation = changeApply(mine, change, `${options.name} #${++seq}`);
    sync = docChange(sync, groupId, annotation);
    const started = performance.now();
    for (;;) {
      if (performance.now() > options.until + GRACE_MS) {
        tally.unfinished++;
        return;
      }
      const sent = sync.local;
      const reply = await attempt(
        options,
        "/api/annotations",
        sync.version,
        annotationsToJson(sent),
      );
      if ("error" in reply) {
        failure(tally, reply.error);
        await sleep(RETRY_MS);
        continue;
      }
      const version = String(field(reply.json, "version"));
      if (reply.status === 200) {
        tally.latenciesMs.push(performance.now() - started);
        tally.acks.push({
          chain: options.docChain,
          user: options.name,
          base: sync.version,
          version,
          groupId,
          annotation,
        });
        sync = docWritten(sync, version);
        break;
      }
      tally.conflicts++;
      const current = field(reply.json, "current");
      if (current === null || current === undefined) {
        failure(tally, "409 without a current document");
        await sleep(RETRY_MS);
        continue;
      }
      sync = docConflict(sync, parseDocument(JSON.stringify(current)), version);
    }
    if (options.thinkMs > 0) await sleep(options.thinkMs);
  }
}

/** A 409 of the per-group route: the change made again over the group as the server has it. */
export function groupConflict(
  change: TeamChange,
  note: string,
  current: unknown,
): { annotation: GroupAnnotation; version: string } {
  const state = field(current, "annotation");
  const theirs = state === null || state === undefined ? null : groupAnnotationFromUnknown(state);
  if (state !== null && state !== undefined && theirs === null)
    throw new Error("the 409's current annotation does not validate");
  return {
    annotation: changeApply(theirs, change, note),
    version: String(field(current, "version")),
  };
}

/** One person's per-group writes until `until`. */
async function groupLoop(options: AnnotatorOptions, tally: TeamTally): Promise<void> {
  const rng = randomMulberry32(options.seed);
  const stateReply = await request(options, "/api/team/state");
  if (stateReply.status !== 200)
    throw new Error(`GET /api/team/state: ${stateReply.status} ${await stateReply.text()}`);
  const versions = new Map(
    Object.entries(field(await stateReply.json(), "versions") as Record<string, string>),
  );
  const { doc } = await readDocument(options);
  const mine = new Map(Object.entries(doc.groups));
  let seq = 0;
  while (performance.now() < options.until) {
    const groupId = options.groups[Math.floor(rng() * options.groups.length)]!;
    const change = changePick(rng, options.rollouts(groupId), mine.get(groupId) ?? null);
    const note = `${options.name} #${++seq}`;
    let annotation = changeApply(mine.get(groupId) ?? null, change, note);
    let version = versions.get(groupId) ?? "0";
    const path = `/api/team/groups/${encodeURIComponent(groupId)}`;
    const started = performance.now();
    for (;;) {
      if (performance.now() > options.until + GRACE_MS) {
        tally.unfinished++;
        return;
      }
      const reply = await attempt(options, path, version, JSON.stringify({ annotation }));
      if ("error" in reply) {
        failure(tally, reply.error);
        await sleep(RETRY_MS);
        continue;
      }
      if (reply.status === 200) {
        const made = String(field(reply.json, "version"));
        tally.latenciesMs.push(performance.now() - started);
        tally.acks.push({
          chain: `${options.name}/${groupId}`,
          user: options.name,
          base: version,
          version: made,
          groupId,
          annotation,
        });
        versions.set(groupId, made);
        mine.set(groupId, annotation);
        break;
      }
      tally.conflicts++;
      ({ annotation, version } = groupConflict(change, note, field(reply.json, "current")));
    }
    if (options.thinkMs > 0) await sleep(options.thinkMs);
  }
}

/** Run one simulated annotator; its counts go into `tally` (shared by the phase's annotators). */
export function annotatorRun(options: AnnotatorOptions, tally: TeamTally): Promise<void> {
  return options.mode === "doc" ? docLoop(options, tally) : groupLoop(options, tally);
}
