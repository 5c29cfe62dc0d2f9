/**
 * The team store's database errors, said for a person: the database named by its redacted URL,
 * the driver's words kept, the password never.
 */
import { redactSecrets } from "./dbUrl.ts";

/** A database problem whose message may be shown as it is (it holds no secret). */
export class DbError extends Error {
  override name = "DbError";
}

/** What the driver said went wrong, in words, with the URL's password masked. */
export function dbErrorText(e: unknown, url: string): string {
  const code = typeof e === "object" && e !== null && "code" in e ? String(e.code) : "";
  const message = e instanceof Error ? e.message : String(e);
  // AggregateError (a host with several addresses, all refused) has an empty message.
  const inner =
    e instanceof AggregateError && message === ""
      ? e.errors.map((x: unknown) => (x instanceof Error ? x.message : String(x))).join("; ")
      : message;
  const said =
    inner === "" ? code : code !== "" && !inner.includes(code) ? `${inner} (${code})` : inner;
  return redactSecrets(said, url);
}
