/**
 * A dataset's annotations read by a person's name, without their token, for a caller the
 * database trusts because it holds the database URL (`rollout-studio export --db --annotator
 * NAME|gold`), as `users add` is trusted to make people. The store (pgStore.ts) reads for someone
 * who showed a token and checks their role; this reads for whoever can open the database, and so
 * could read every table anyway, with the store's own statements (pgRows.ts). No route of the view
 * server calls it: every read a request reaches goes through a token.
 */
import type pg from "pg";
import { TEAM_GOLD_ANNOTATOR } from "../../core/index.ts";
import { inTransaction } from "../db/connect.ts";
import {
  datasetFind,
  goldRead,
  peopleWithAnnotations,
  personRead,
  userIdByName,
} from "./pgRows.ts";
import { StoreNotFound, type PersonAnnotations } from "./types.ts";

/** The name that reads the gold annotations (core's; no person may take it: users.ts). */
export const GOLD = TEAM_GOLD_ANNOTATOR;

/** No dataset of that name: the message names it and the datasets there are. */
export class DatasetNotFound extends StoreNotFound {
  override name = "DatasetNotFound";
}

/** The most names an error lists. */
const NAMES_SHOWN = 20;

function namesList(names: readonly string[]): string {
  const shown = names.slice(0, NAMES_SHOWN).map((n) => JSON.stringify(n));
  const more = names.length - shown.length;
  return more > 0 ? `${shown.join(", ")} and ${more} more` : shown.join(", ");
}

async function datasetNotFound(client: pg.PoolClient, dataset: string): Promise<never> {
  const result = await client.query<{ name: string }>("SELECT name FROM datasets ORDER BY name");
  const names = result.rows.map((r) => r.name);
  throw new DatasetNotFound(
    `no dataset is named ${JSON.stringify(dataset)} in the database; ${
      names.length === 0 ? "it holds none yet" : `its datasets: ${namesList(names)}`
    }`,
  );
}

async function personNotFound(
  client: pg.PoolClient,
  datasetId: string,
  dataset: string,
  name: string,
): Promise<never> {
  const people = (await peopleWithAnnotations(client, datasetId)).map((p) => p.name);
  throw new StoreNotFound(
    `no person is named ${JSON.stringify(name)}; ${
      people.length === 0
        ? `no one has annotations of dataset ${JSON.stringify(dataset)} yet`
        : `the people with annotations of dataset ${JSON.stringify(dataset)}: ${namesList(people)}`
    }`,
  );
}

/**
 * The version-1 documents of `who` (people's names, or GOLD) for the dataset, in that order, read
 * in one snapshot (a read-only, repeatable-read transaction: documents read together are of one
 * moment, never half a write). A person with nothing stored for the dataset, and a revoked person,
 * read as they are (empty: version NO_DOCUMENT_VERSION). The gold reads as `GoldAnnotations`.
 *
 * @throws DatasetNotFound naming the dataset and the datasets there are; StoreNotFound naming a
 *   person no one is named, and the people with annotations of the dataset
 */
export function documentsRead(
  pool: pg.Pool,
  dataset: string,
  who: readonly string[],
): Promise<PersonAnnotations[]> {
  return inTransaction(pool, async (client) => {
    await client.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    const datasetId = await datasetFind(client, dataset);
    if (datasetId === null) return datasetNotFound(client, dataset);
    const documents: PersonAnnotations[] = [];
    for (const name of who) {
      if (name === GOLD) {
        documents.push(await goldRead(client, datasetId));
        continue;
      }
      const userId = await userIdByName(client, name);
      if (userId === null) return personNotFound(client, datasetId, dataset, name);
      documents.push(await personRead(client, datasetId, userId, name));
    }
    return documents;
  });
}
