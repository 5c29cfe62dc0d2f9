/**
 * Zip archives (Inspect's .eval). The central directory is read from the archive's end, and each
 * member is inflated only when a format reads it, as a stream (fflate's Inflate, 16 KB of input at
 * a time) with the size limits applied WHILE inflating: a member that inflates past its limit is
 * refused as soon as it passes it, so a zip bomb (a few MB inflating to GBs) costs bounded memory
 * and time, never the whole inflated size. Each format's explodeZip picks the members that are its
 * records; member JSON is parsed when the format reads it. A member that cannot be read becomes an
 * issue naming it. Only an archive whose directory cannot be read at all (truncated, not a zip), or
 * one past the limits on members and total size, fails as a whole. Called by extra.ts with the
 * registry's formats.
 */
import { Inflate } from "fflate";
import { LoadError, type ParseIssue } from "../issues.ts";
import type { ContainerRead, RawRecord } from "./types.ts";
import { emptyMessage, type FormatSpec } from "../formats/spec.ts";
import { bomLength, concatBytes, decodeRecord, MAX_DECODE_BYTES } from "./bytes.ts";
import { isUnreadableMember, UnreadableMember } from "./zipMember.ts";

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** How much of an archive is read before it is refused. */
export interface ZipLimits {
  /** Bytes one member may inflate to (the largest text a record can be decoded from). */
  readonly memberBytes: number;
  /** Bytes all the members read may inflate to together. */
  readonly totalBytes: number;
  /** Entries the central directory may list. */
  readonly members: number;
}

export const ZIP_LIMITS: ZipLimits = {
  memberBytes: MAX_DECODE_BYTES,
  totalBytes: 2 * 1024 * 1024 * 1024,
  members: 100_000,
};

/**
 * Output aimed at per push of compressed bytes to the inflater. fflate's stream grows its output
 * buffer within a push, which is slow when one push inflates to many MB (16 KB of a bomb's zeros
 * make 16 MB), so the input step follows the ratio seen so far.
 */
const INFLATE_OUTPUT_STEP = 256 * 1024;
const INFLATE_STEP_MIN = 256;
const INFLATE_STEP_MAX = 16 * 1024;

export interface ZipEntry {
  readonly name: string;
  /** 0 stored, 8 deflate. */
  readonly method: number;
  readonly compressedSize: number;
  /** The size the directory declares; a bomb may lie, so inflating checks the real one. */
  readonly size: number;
  readonly localOffset: number;
}

const u16 = (b: Uint8Array, at: number): number => b[at]! | (b[at + 1]! << 8);
const u32 = (b: Uint8Array, at: number): number => (u16(b, at) | (u16(b, at + 2) << 16)) >>> 0;
const u64 = (b: Uint8Array, at: number): number => u32(b, at) + u32(b, at + 4) * 2 ** 32;

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX32 = 0xffffffff;

const latin1 = (b: Uint8Array): string => {
  let s = "";
  for (const c of b) s += String.fromCharCode(c);
  return s;
};
const utf8 = new TextDecoder();

class BadDirectory extends Error {}

/** The zip64 end of central directory, when the classic one says to look for it. */
function zip64Directory(bytes: Uint8Array, eocd: number): { count: number; offset: number } {
  const locator = eocd - 20;
  if (locator < 0 || u32(bytes, locator) !== EOCD64_LOCATOR)
    throw new BadDirectory("no zip64 end of central directory");
  const at = u64(bytes, locator + 8);
  if (at + 56 > bytes.length || u32(bytes, at) !== EOCD64)
    throw new BadDirectory("bad zip64 end of central directory");
  return { count: u64(bytes, at + 32), offset: u64(bytes, at + 48) };
}

/**
 * The archive's entries from its central directory.
 *
 * @throws BadDirectory when there is none to read; LoadError past the member limit
 */
function readDirectory(file: string, bytes: Uint8Array, limits: ZipLimits): ZipEntry[] {
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--)
    if (u32(bytes, i) === EOCD) {
      eocd = i;
      break;
    }
  if (eocd === -1) throw new BadDirectory("no end of central directory record");
  let count = u16(bytes, eocd + 10);
  let offset = u32(bytes, eocd + 16);
  if (count === 0xffff || offset === MAX32) ({ count, offset } = zip64Directory(bytes, eocd));
  if (count > limits.members) {
    throw new LoadError(
      file,
      `the zip archive lists ${count.toLocaleString("en-US")} members; more than ${limits.members.toLocaleString("en-US")} are refused (a zip bomb?)`,
    );
  }
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let k = 0; k < count; k++) {
    if (at + 46 > bytes.length || u32(bytes, at) !== CENTRAL)
      throw new BadDirectory(`central directory entry ${k + 1} is missing`);
    const nameLength = u16(bytes, at + 28);
    const extraLength = u16(bytes, at + 30);
    const commentLength = u16(bytes, at + 32);
    const rawName = bytes.subarray(at + 46, at + 46 + nameLength);
    let compressedSize = u32(bytes, at + 20);
    let size = u32(bytes, at + 24);
    let localOffset = u32(bytes, at + 42);
    // Zip64: the 32-bit fields that overflowed are in the 0x0001 extra field, in this order.
    for (let e = at + 46 + nameLength; e + 4 <= at + 46 + nameLength + extraLength;) {
      const id = u16(bytes, e);
      const length = u16(bytes, e + 2);
      if (id === 0x0001) {
        let f = e + 4;
        if (size === MAX32) {
          size = u64(bytes, f);
          f += 8;
        }
        if (compressedSize === MAX32) {
          compressedSize = u64(bytes, f);
          f += 8;
        }
        if (localOffset === MAX32) localOffset = u64(bytes, f);
      }
      e += 4 + length;
    }
    entries.push({
      // Bit 11: the name is UTF-8; otherwise CP437, read byte for byte as fflate does.
      name: u16(bytes, at + 8) & 0x800 ? utf8.decode(rawName) : latin1(rawName),
      method: u16(bytes, at + 10),
      compressedSize,
      size,
      localOffset,
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

const mib = (n: number): string => `${Math.round(n / (1024 * 1024)).toLocaleString("en-US")} MiB`;

/** A member past its own size limit: the member is refused, the archive may still load. */
class MemberTooLarge extends Error {}

/**
 * Inflate one member as a stream, refusing it as soon as it passes `limit` bytes (or up front when
 * its declared size does). `spend` counts the bytes against the archive's total as they come.
 */
function inflateEntry(
  bytes: Uint8Array,
  entry: ZipEntry,
  limit: number,
  spend: (n: number) => void,
): Uint8Array {
  const tooLarge = (): MemberTooLarge =>
    new MemberTooLarge(
      `inflates to more than ${mib(limit)} (the limit for one member; it declares ${entry.size.toLocaleString("en-US")} bytes), so it is refused unread (a zip bomb?)`,
    );
  if (entry.size > limit) throw tooLarge();
  const header = entry.localOffset;
  if (header + 30 > bytes.length || u32(bytes, header) !== LOCAL)
    throw new Error("its local header is missing");
  const start = header + 30 + u16(bytes, header + 26) + u16(bytes, header + 28);
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw new Error("its data runs past the end of the archive");
  const data = bytes.subarray(start, end);
  if (entry.method === 0) {
    if (data.length > limit) throw tooLarge();
    spend(data.length);
    return data;
  }
  if (entry.method !== 8)
    throw new Error(`it uses compression method ${entry.method}; only stored and deflate are read`);
  const chunks: Uint8Array[] = [];
  let total = 0;
  let done = false;
  const inflater = new Inflate((chunk, final) => {
    total += chunk.length;
    if (total > limit) throw tooLarge();
    spend(chunk.length);
    chunks.push(chunk);
    if (final) done = true;
  });
  let step = INFLATE_STEP_MAX;
  for (let at = 0; ; at += step) {
    const last = at + step >= data.length;
    inflater.push(data.subarray(at, Math.min(data.length, at + step)), last);
    if (last) break;
    const ratio = total / (at + step);
    step = Math.round(
      Math.min(
        INFLATE_STEP_MAX,
        Math.max(INFLATE_STEP_MIN, INFLATE_OUTPUT_STEP / Math.max(1, ratio)),
      ),
    );
  }
  if (!done) throw new Error("its deflate stream ends early");
  return concatBytes(chunks);
}

/**
 * Read a zip archive with the first format whose explodeZip recognises it.
 *
 * @param limits the size and member limits (tests lower them)
 * @throws LoadError when the archive is unreadable, past its limits, no format recognises it, or it
 *   holds no records
 */
export function readZip(
  file: string,
  bytes: Uint8Array,
  formats: readonly FormatSpec[],
  limits: ZipLimits = ZIP_LIMITS,
): ContainerRead {
  let entries: ZipEntry[];
  try {
    entries = readDirectory(file, bytes, limits);
  } catch (e) {
    if (e instanceof LoadError) throw e;
    throw new LoadError(
      file,
      `the zip archive is truncated or corrupt: its directory cannot be read, so nothing in it can be loaded (${message(e)})`,
    );
  }
  const byName = new Map(entries.map((e) => [e.name, e]));
  const names = entries.map((e) => e.name);
  let inflated = 0;
  const spend = (n: number): void => {
    inflated += n;
    if (inflated > limits.totalBytes) {
      throw new LoadError(
        file,
        `the zip archive inflates to more than ${mib(limits.totalBytes)} (the limit for one archive), so it is refused (a zip bomb?)`,
      );
    }
  };
  const read = (member: string): unknown => {
    const entry = byName.get(member);
    if (entry === undefined) return new UnreadableMember(member, "is not in the archive");
    let raw: Uint8Array;
    try {
      raw = inflateEntry(bytes, entry, limits.memberBytes, spend);
    } catch (e) {
      if (e instanceof LoadError) throw e;
      if (e instanceof MemberTooLarge) return new UnreadableMember(member, e.message);
      return new UnreadableMember(
        member,
        `the member's data is corrupt and cannot be inflated (${message(e)})`,
      );
    }
    // JSON text never holds a NUL: such a member is binary, refused before it is decoded.
    if (raw.includes(0)) return new UnreadableMember(member, "not valid JSON (it holds NUL bytes)");
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
    const exploded = format.explodeZip(names, read);
    if (exploded === null) continue;
    if (exploded.length === 0) {
      throw new LoadError(file, emptyMessage(format, { members: names, read }));
    }
    const records: RawRecord[] = [];
    const issues: ParseIssue[] = [];
    for (const entry of exploded) {
      if (isUnreadableMember(entry.value)) {
        issues.push({ file, line: 0, member: entry.member, message: entry.value.message });
      } else {
        records.push({ ref: { file, line: 0, member: entry.member }, value: entry.value });
      }
    }
    return { records, issues, seen: exploded.length, lines: 0, blank: 0, format: format.id };
  }
  const shown = names.slice(0, 5).join(", ") + (names.length > 5 ? ", …" : "");
  throw new LoadError(
    file,
    `is a zip archive, but not one the studio reads (an Inspect .eval log holds header.json or _journal/start.json and samples/); it holds ${names.length} member(s): ${shown}`,
  );
}
