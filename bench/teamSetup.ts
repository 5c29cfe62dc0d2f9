/**
 * bench/team.ts's stage: a generated run folder, a throwaway PostgreSQL cluster with a lead and the
 * annotators (added with the store's own `userAdd`, as `rollout-studio users add` does), a queue per
 * team dataset (core's `teamAssign`, made by the lead through the store), and the `rollout-studio
 * view` processes the simulated annotators write to: the built CLI (dist-cli/, built by bench/team.ts)
 * serving the built studio (dist/).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  teamAssign,
  type GroupId,
  type RolloutId,
  type TeamAssignment,
} from "../src/core/index.ts";
import { dbOpen } from "../src/server/db/connect.ts";
import { PostgresTeamStore } from "../src/server/team/pgStore.ts";
import type { PersonAnnotations, StoreUser } from "../src/server/team/types.ts";
import { userAdd } from "../src/server/team/users.ts";
import { viewStart, type ViewProcess } from "../scripts/viewProcess.ts";

const BIN = fileURLToPath(new URL("../bin/rollout-studio.mjs", import.meta.url));

export interface RunFolder {
  readonly dir: string;
  readonly groups: readonly GroupId[];
  readonly rollouts: (groupId: GroupId) => readonly RolloutId[];
}

/**
 * `groups` groups of `perGroup` short rollouts (native JSONL, one file): the annotations name
 * these ids. The text is irrelevant here: no write reads it.
 */
export function writeRunFolder(dir: string, groups: number, perGroup: number): RunFolder {
  mkdirSync(dir, { recursive: true });
  const ids = Array.from({ length: groups }, (_, g) => `g${String(g).padStart(4, "0")}`);
  const rolloutIds = (groupId: GroupId): RolloutId[] =>
    Array.from({ length: perGroup }, (_, r) => `${groupId}-r${r}`);
  const lines: string[] = [];
  ids.forEach((groupId, g) =>
    rolloutIds(groupId).forEach((id, r) =>
      lines.push(
        JSON.stringify({
          id,
          group_id: groupId,
          prompt: `Task ${g}: sort the list.`,
          completion: `Attempt ${r} of task ${g}.`,
          reward: (g + r) % 3 === 0 ? 1 : 0,
        }),
      ),
    ),
  );
  writeFileSync(join(dir, "steps.jsonl"), `${lines.join("\n")}\n`);
  return { dir, groups: ids, rollouts: rolloutIds };
}

export interface Person {
  readonly user: StoreUser;
  readonly token: string;
}

/** The lead and `count` annotators (ann01, ann02, ...), each with a token. */
export async function addPeople(
  url: string,
  count: number,
): Promise<{ lead: Person; annotators: Person[] }> {
  const db = await dbOpen(url);
  try {
    const lead = await userAdd(db.pool, "lead", "lead");
    const annotators: Person[] = [];
    for (let i = 1; i <= count; i++)
      annotators.push(await userAdd(db.pool, `ann${String(i).padStart(2, "0")}`, "annotator"));
    return { lead, annotators };
  } finally {
    await db.close();
  }
}

/** Each annotator's share of the run's groups: every group, 20% of them to two people. */
export function queueShares(run: RunFolder, names: readonly string[]): TeamAssignment {
  return teamAssign(run.groups, { annotators: names, overlap: 0.2, seed: 18 });
}

/** The queue the lead makes in a team dataset, with the same assignment. */
export async function makeQueue(
  url: string,
  dataset: string,
  lead: StoreUser,
  assignment: TeamAssignment,
): Promise<void> {
  const store = await PostgresTeamStore.open(url, dataset);
  try {
    await store.createQueue(lead, {
      name: "bench",
      blind: false,
      overlap: 0.2,
      seed: 18,
      filter: { bench: "team" },
      groups: assignment.queue,
      assignments: Object.entries(assignment.byGroup).flatMap(([groupId, users]) =>
        users.map((user) => ({ groupId, user })),
      ),
    });
  } finally {
    await store.close();
  }
}

/** Everyone's annotations in a team dataset, read by the lead straight from the database. */
export async function readEveryone(
  url: string,
  dataset: string,
  lead: StoreUser,
): Promise<readonly PersonAnnotations[]> {
  const store = await PostgresTeamStore.open(url, dataset);
  try {
    return await store.readEveryone(lead);
  } finally {
    await store.close();
  }
}

/**
 * `rollout-studio view RUN --port 0` as a process: the file mode with its session token and
 * `stateDir`, or team mode on `dataset` (the database URL in ROLLOUT_STUDIO_DB, not in argv).
 */
export function startView(
  run: RunFolder,
  mode: { readonly stateDir: string } | { readonly dbUrl: string; readonly dataset: string },
): Promise<ViewProcess> {
  const args = [BIN, "view", run.dir, "--port", "0", "--no-open"];
  if ("stateDir" in mode)
    return viewStart(process.execPath, [...args, "--state", mode.stateDir], { timeoutMs: 60_000 });
  return viewStart(process.execPath, [...args, "--dataset", mode.dataset], {
    timeoutMs: 60_000,
    env: { ROLLOUT_STUDIO_DB: mode.dbUrl },
  });
}

/** Whether the per-group route answers (it is not a 404 "no such API route"). */
export async function groupRouteAnswers(origin: string, token: string): Promise<boolean> {
  const response = await fetch(`${origin}/api/team/state`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await response.body?.cancel();
  return response.status === 200;
}
