/**
 * Covers: issue 18's durability acceptance through the real server. `rollout-studio view RUN --db`
 * (the built CLI, on a throwaway PostgreSQL cluster) takes a burst of annotation writes over HTTP
 * from several clients at once; it is SIGKILLed in the middle of the burst and started again on
 * the same database; every write it acknowledged (a 200) is there, read back through the API.
 * (src/server/team/durability.test.ts covers the store under a crash of the database server too.)
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { exitOf, viewStart, type ViewProcess } from "../scripts/viewProcess.ts";
import { teamPersonSchema } from "../src/io/view/teamApi.ts";
import { startPostgres, type TestPostgres } from "../src/test/postgres.ts";
import { labelled } from "../src/test/teamFixture.ts";
import { BIN, teamCli } from "./harness/teamCli.ts";
import { describe, expect, test } from "./harness/test.ts";

/** Clients writing at once, and the writes acknowledged before the server is killed. */
const WRITERS = 4;
const ACKS_BEFORE_KILL = 40;

const base = mkdtempSync(join(tmpdir(), "team-durability-"));
const run = join(base, "burst-run");
mkdirSync(run, { recursive: true });
writeFileSync(join(run, "steps.jsonl"), '{"prompt":"p","completion":"c","reward":1}\n');

let pg: TestPostgres;
const views: ViewProcess[] = [];
const team = teamCli(() => pg.url);
let tokens: Record<string, string> = {};

const start = async (): Promise<ViewProcess> => {
  const view = await viewStart(process.execPath, [BIN, "view", run, "--port", "0", "--no-open"], {
    env: { ROLLOUT_STUDIO_DB: pg.url },
  });
  views.push(view);
  return view;
};

beforeAll(async () => {
  pg = await startPostgres();
  tokens = await team.addUsers([["ann", "annotator"]]);
});

afterAll(async () => {
  // The first server is dead already (by a signal: its exitCode stays null).
  for (const view of views)
    if (view.child.exitCode === null && view.child.signalCode === null) await view.stop("SIGKILL");
  await pg?.stop();
});

describe("team mode: the server killed mid-burst", () => {
  test("every write acknowledged before a SIGKILL of the server is there after its restart", async () => {
    const first = await start();
    const headers = {
      authorization: `Bearer ${tokens.ann!}`,
      "content-type": "application/json",
      "if-match": '"0"',
    };
    /** Per group written, the notes of the write the server acknowledged. */
    const acknowledged = new Map<string, string>();
    let killed = false;
    const writer = async (w: number): Promise<void> => {
      for (let k = 0; !killed; k++) {
        const groupId = `w${w}-${k}`;
        const notes = `writer ${w}, write ${k}`;
        const annotation = labelled({ [`${groupId}/0`]: k % 2 === 0 ? "pass" : "fail" }, notes);
        let status: number;
        try {
          const response = await fetch(`${first.origin}/api/team/groups/${groupId}`, {
            method: "PUT",
            headers,
            body: JSON.stringify({ annotation }),
          });
          status = response.status;
          await response.body?.cancel();
        } catch {
          return; // the server died with this write unanswered: it was never acknowledged
        }
        expect(status, groupId).toBe(200);
        acknowledged.set(groupId, notes);
        if (acknowledged.size >= ACKS_BEFORE_KILL && !killed) {
          killed = true;
          first.child.kill("SIGKILL");
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    expect(await exitOf(first.child)).toBeNull(); // killed by the signal, not an exit
    expect(acknowledged.size).toBeGreaterThanOrEqual(ACKS_BEFORE_KILL);

    const second = await start();
    const reply = await fetch(`${second.origin}/api/team/annotations/ann`, {
      headers: { authorization: `Bearer ${tokens.ann!}` },
    });
    expect(reply.status).toBe(200);
    const person = teamPersonSchema.parse(await reply.json());
    const groups = (person.annotations as { groups: Record<string, { notes: string }> }).groups;
    const lost = [...acknowledged].filter(([groupId, notes]) => groups[groupId]?.notes !== notes);
    expect(lost).toEqual([]);
    for (const groupId of acknowledged.keys()) expect(person.versions[groupId]).toBe("1");
  }, 120_000);
});
