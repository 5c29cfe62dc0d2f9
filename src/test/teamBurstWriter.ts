/**
 * Test helper, run as a child process by the team store's durability test: one annotator writes
 * a burst of group annotations through the PostgreSQL store, several groups at once, and prints
 * each acknowledged write (`ack GROUP VERSION K`) only after the store returned it, until it is
 * killed. Group `g<i>` is written only by loop i, one write at a time, so at most one write per
 * group is in flight when the kill comes.
 *
 * Usage: node --import tsx src/test/teamBurstWriter.ts URL DATASET TOKEN LOOPS
 */
import { GROUP_ANNOTATION_EMPTY } from "../core/index.ts";
import { PostgresTeamStore } from "../server/team/pgStore.ts";
import type { StoreUser } from "../server/team/types.ts";
import { burstNotes } from "./teamFixture.ts";

async function loop(store: PostgresTeamStore, me: StoreUser, group: string): Promise<never> {
  let version = "0";
  for (let k = 0; ; k++) {
    const result = await store.writeGroup(
      me,
      group,
      { ...GROUP_ANNOTATION_EMPTY, notes: burstNotes(k) },
      version,
    );
    if (result.kind !== "written") throw new Error(`unexpected stale write: ${result.message}`);
    version = result.version;
    process.stdout.write(`ack ${group} ${version} ${k}\n`);
  }
}

async function main(): Promise<void> {
  const [url, dataset, token, loops] = process.argv.slice(2);
  if (url === undefined || dataset === undefined || token === undefined || loops === undefined)
    throw new Error("usage: teamBurstWriter URL DATASET TOKEN LOOPS");
  const store = await PostgresTeamStore.open(url, dataset);
  const me = await store.authenticate(token);
  if (me === null) throw new Error("the token names no one");
  process.stdout.write("ready\n");
  await Promise.all(Array.from({ length: Number(loops) }, (_, i) => loop(store, me, `g${i}`)));
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
