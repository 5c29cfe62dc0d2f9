/**
 * Zip archives (Inspect's .eval) through fflate. The archive is listed, every member is inflated
 * once, and each format's explodeZip picks the members that are its records; member JSON is parsed
 * lazily when the format reads it. A member that cannot be read becomes an issue naming it. Only an
 * archive whose directory cannot be read at all (truncated, not a zip) fails as a whole. Called by
 * extra.ts with the registry's formats.
 */
import { unzipSync, type Unzipped } from "fflate";
import { LoadError, type ParseIssue } from "../issues.ts";
import type { ContainerRead, RawRecord } from "../formats/load.ts";
import { emptyMessage, type FormatSpec } from "../formats/spec.ts";
import { bomLength, decodeRecord } from "./bytes.ts";
import { isUnreadableMember, UnreadableMember } from "./zipMember.ts";

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * Inflate every member. When one member's data is damaged, fall back to inflating members one at a
 * time, so the others survive; the damaged ones map to their error text.
 */
function inflateMembers(
  file: string,
  bytes: Uint8Array,
): { names: string[]; data: Unzipped; broken: Map<string, string> } {
  try {
    const data = unzipSync(bytes);
    return { names: Object.keys(data), data, broken: new Map() };
  } catch (whole) {
    const names: string[] = [];
    try {
      unzipSync(bytes, {
        filter: (f) => {
          names.push(f.name);
          return false;
        },
      });
    } catch {
      throw new LoadError(
        file,
        `the zip archive is truncated or corrupt: its directory cannot be read, so nothing in it can be loaded (${message(whole)})`,
      );
    }
    const data: Unzipped = {};
    const broken = new Map<string, string>();
    for (const name of names) {
      try {
        Object.assign(data, unzipSync(bytes, { filter: (f) => f.name === name }));
      } catch (e) {
        broken.set(name, `the member's data is corrupt and cannot be inflated (${message(e)})`);
      }
    }
    return { names, data, broken };
  }
}

/**
 * Read a zip archive with the first format whose explodeZip recognises it.
 *
 * @throws LoadError when the archive is unreadable, no format recognises it, or it holds no records
 */
export function readZip(
  file: string,
  bytes: Uint8Array,
  formats: readonly FormatSpec[],
): ContainerRead {
  const { names, data, broken } = inflateMembers(file, bytes);
  const read = (member: string): unknown => {
    const problem = broken.get(member);
    if (problem !== undefined) return new UnreadableMember(member, problem);
    const raw = data[member];
    if (raw === undefined) return new UnreadableMember(member, "is not in the archive");
    const decoded = decodeRecord(raw.subarray(bomLength(raw)));
    if (!decoded.ok) return new UnreadableMember(member, decoded.message);
    try {
      return JSON.parse(decoded.text) as unknown;
    } catch (e) {
      return new UnreadableMember(member, `not valid JSON (${message(e)})`);
    }
  };
  for (const format of formats) {
    if (!format.containers.includes("zip") || format.explodeZip === undefined) continue;
    const entries = format.explodeZip(names, read);
    if (entries === null) continue;
    if (entries.length === 0) {
      throw new LoadError(file, emptyMessage(format, { members: names, read }));
    }
    const records: RawRecord[] = [];
    const issues: ParseIssue[] = [];
    for (const entry of entries) {
      if (isUnreadableMember(entry.value)) {
        issues.push({ file, line: 0, member: entry.member, message: entry.value.message });
      } else {
        records.push({ ref: { file, line: 0, member: entry.member }, value: entry.value });
      }
    }
    return { records, issues, seen: entries.length, lines: 0, blank: 0 };
  }
  const shown = names.slice(0, 5).join(", ") + (names.length > 5 ? ", …" : "");
  throw new LoadError(
    file,
    `is a zip archive, but not one the studio reads (an Inspect .eval log holds header.json or _journal/start.json and samples/); it holds ${names.length} member(s): ${shown}`,
  );
}
