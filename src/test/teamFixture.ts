/**
 * Test fixture for the team store's integration tests: a fresh database on the file's throwaway
 * cluster with a lead and two annotators, their tokens, and a store serving one dataset. Not
 * shipped: only *.test.ts files import it.
 */
import { GROUP_ANNOTATION_EMPTY, type GroupAnnotation } from "../core/index.ts";
import { dbOpen, type Db } from "../server/db/connect.ts";
import type { TestPostgres } from "./postgres.ts";
import { PostgresTeamStore } from "../server/team/pgStore.ts";
import type { StoreUser } from "../server/team/types.ts";
import { userAdd } from "../server/team/users.ts";

export interface TeamFixture {
  readonly url: string;
  /** A connection of its own, for `users` operations and raw checks. */
  readonly admin: Db;
  /** The store, on dataset "run-a". */
  readonly store: PostgresTeamStore;
  readonly lead: StoreUser;
  readonly ann: StoreUser;
  readonly bob: StoreUser;
  readonly tokens: { readonly lead: string; readonly ann: string; readonly bob: string };
  close(): Promise<void>;
}

let databases = 0;

export async function teamFixture(server: TestPostgres): Promise<TeamFixture> {
  const url = await server.createDatabase(`team_${process.pid}_${++databases}`);
  const admin = await dbOpen(url);
  const lead = await userAdd(admin.pool, "lee", "lead");
  const ann = await userAdd(admin.pool, "ann", "annotator");
  const bob = await userAdd(admin.pool, "bob", "annotator");
  const store = await PostgresTeamStore.open(url, "run-a");
  return {
    url,
    admin,
    store,
    lead: lead.user,
    ann: ann.user,
    bob: bob.user,
    tokens: { lead: lead.token, ann: ann.token, bob: bob.token },
    close: async () => {
      await store.close();
      await admin.close();
    },
  };
}

/** A group annotation with these labels and notes. */
export function labelled(
  labels: Readonly<Record<string, "pass" | "fail" | "defer">>,
  notes = "",
): GroupAnnotation {
  return { ...GROUP_ANNOTATION_EMPTY, labels, notes };
}

/** The notes write K of teamBurstWriter.ts's burst leaves: the durability check reads them back. */
export const burstNotes = (k: number): string => `burst write ${k}`;
