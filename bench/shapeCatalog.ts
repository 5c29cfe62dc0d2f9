/**
 * The benchmark matrix's shapes (bench/shapes.ts): their names and seeds, what each promises, the
 * lines they yield, and the matrix's `--sizes` and `--shapes` arguments.
 */

export const SHAPE_NAMES = [
  "small",
  "agent",
  "huge",
  "large-groups",
  "interleaved",
  "many-groups",
] as const;
export type ShapeName = (typeof SHAPE_NAMES)[number];

export const isShapeName = (s: string): s is ShapeName =>
  (SHAPE_NAMES as readonly string[]).includes(s);

/** The matrix's `--sizes=50,500,1000` (MB, default all three) and `--shapes=a,b` (default all). */
export function matrixArgs(argv: readonly string[]): {
  sizes: number[];
  shapes: ShapeName[];
} {
  const get = (name: string): string | undefined =>
    argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const sizes = (get("sizes") ?? "50,500,1000").split(",").map(Number);
  if (sizes.some((s) => !Number.isInteger(s) || s <= 0))
    throw new Error(`--sizes: whole megabytes, comma-separated (got ${get("sizes")})`);
  const names = (get("shapes") ?? SHAPE_NAMES.join(",")).split(",");
  const unknown = names.filter((n) => !isShapeName(n));
  if (unknown.length > 0)
    throw new Error(`--shapes: unknown ${unknown.join(", ")}; known: ${SHAPE_NAMES.join(", ")}`);
  return { sizes, shapes: names.filter(isShapeName) };
}

/** One line in this many of the small shape is malformed (cut in the middle of its JSON). */
export const MALFORMED_EVERY = 997;
/** The huge shape's one long completion, in characters (ASCII, so also bytes before escapes). */
export const HUGE_COMPLETION_CHARS = 50_000_000;
/** The many-groups shape has at least this many groups, whatever the size. */
export const MANY_GROUPS_MIN = 100_000;

/** What each shape is, for the README table and the bench's notes. */
export const SHAPE_INFO: Readonly<Record<ShapeName, { seed: number; description: string }>> = {
  small: {
    seed: 1601,
    description:
      "many small rows: 1.4-2.0 KB (prompt + completion), groups of 8, contiguous; one line in 997 malformed",
  },
  agent: {
    seed: 1602,
    description:
      "agent transcripts: 20-60 KB rows of messages with tool calls and tool results, groups of 4-16",
  },
  huge: {
    seed: 1603,
    description:
      "few huge rows: the small rows, with one 50 MB completion in a group of 8 at 10% of the file",
  },
  "large-groups": {
    seed: 1604,
    description: "large groups: 64-512 rollouts of 1.5-4 KB each, contiguous",
  },
  interleaved: {
    seed: 1605,
    description:
      "groups not contiguous: the small rows in groups of 8, each group's rows spread over the whole file (8 shuffled rounds)",
  },
  "many-groups": {
    seed: 1606,
    description: "100,000 and more groups: rows of 90-150 bytes in groups of 2-6",
  },
};

/** One line of a shape's file (without its newline). */
export interface ShapeLine {
  readonly text: string;
  readonly bytes: number;
  readonly groupId: string;
  /** False for a malformed line (not valid JSON): the studio must reject it. */
  readonly valid: boolean;
}

export interface ShapeOptions {
  /** The huge shape's long completion (default HUGE_COMPLETION_CHARS); smaller in unit tests. */
  readonly hugeChars?: number;
  /** The many-groups shape's minimum group count (default MANY_GROUPS_MIN). */
  readonly minGroups?: number;
}
