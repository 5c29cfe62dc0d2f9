// Durability of acknowledged writes (issue 18's acceptance): a child process writes a burst of
// annotations through the PostgreSQL store and prints each one the store acknowledged; it is
// SIGKILLed mid-burst and the database server is then stopped as a crash would (no shutdown
// checkpoint) and started again. Every acknowledged write is there.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type TestPostgres } from "../../test/postgres.ts";
import { burstNotes, teamFixture } from "../../test/teamFixture.ts";
import { PostgresTeamStore } from "./pgStore.ts";

const WRITER = join(import.meta.dirname, "../../test/teamBurstWriter.ts");
const LOOPS = 4;
/** Acknowledged writes to wait for before the kill. */
const BURST = 60;

let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server?.stop();
});

describe("durability", () => {
  it("every write acknowledged before a SIGKILL (and a database crash) is there after the restart", async () => {
    const team = await teamFixture(server);
    const { url } = team;
    await team.close();
    const child = spawn(
      process.execPath,
      ["--import", "tsx", WRITER, url, "run-a", team.tokens.ann, String(LOOPS)],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    /** Per group, the last acknowledged version and write. */
    const acked = new Map<string, { version: number; k: number }>();
    let count = 0;
    let pending = "";
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
      child.on("exit", (code, signal) => resolve(signal ?? code)),
    );
    await new Promise<void>((resolve, reject) => {
      child.on("exit", () => reject(new Error(`the writer stopped before the kill: ${stderr}`)));
      child.stdout.on("data", (d: Buffer) => {
        pending += d.toString();
        const lines = pending.split("\n");
        pending = lines.pop()!;
        for (const line of lines) {
          const m = /^ack (\S+) (\d+) (\d+)$/.exec(line);
          if (m === null) continue;
          acked.set(m[1]!, { version: Number(m[2]), k: Number(m[3]) });
          // Killed on the spot, with writes of the other loops in flight.
          if (++count === BURST) {
            child.kill("SIGKILL");
            resolve();
          }
        }
      });
    });
    expect(await exited).toBe("SIGKILL");
    await server.crashAndRestart();

    const store = await PostgresTeamStore.open(url, "run-a");
    try {
      const ann = (await store.authenticate(team.tokens.ann))!;
      const read = await store.readAnnotations(ann);
      expect(acked.size).toBe(LOOPS);
      for (const [group, last] of acked) {
        const version = Number(read.versions[group]);
        // The acknowledged write is there, or the one write in flight after it landed too.
        expect(version - last.version, group).toBeGreaterThanOrEqual(0);
        expect(version - last.version, group).toBeLessThanOrEqual(1);
        const notes = read.annotations.groups[group]!.notes;
        expect(notes).toBe(burstNotes(version === last.version ? last.k : last.k + 1));
      }
    } finally {
      await store.close();
    }
  });
});
