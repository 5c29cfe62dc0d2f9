/**
 * Each matrix shape's lines, generated one at a time from its seed (generate.ts's Zipf vocabulary,
 * prose and code blocks), and `shapeLines`, which picks the shape's generator.
 */
import { randomMulberry32 } from "../src/core/index.ts";
import { codeBlock, NON_ASCII, prose, render, ZipfVocabulary } from "./generate.ts";
import {
  HUGE_COMPLETION_CHARS,
  MALFORMED_EVERY,
  MANY_GROUPS_MIN,
  SHAPE_INFO,
  type ShapeLine,
  type ShapeName,
  type ShapeOptions,
} from "./shapeCatalog.ts";

type Rng = () => number;

const utf8Length = (s: string): number => Buffer.byteLength(s, "utf8");

const int = (rng: Rng, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));

/** Text assembled from a seeded pool of paragraphs and code blocks (as generate.ts does). */
class TextPool {
  private readonly paragraphs: string[];
  private readonly code: string[];
  readonly vocabulary: ZipfVocabulary;

  private readonly rng: Rng;

  constructor(seed: number, rng: Rng) {
    this.rng = rng;
    this.vocabulary = new ZipfVocabulary(8000, seed ^ 0x3a7c);
    this.paragraphs = Array.from({ length: 300 }, () =>
      render(prose(this.vocabulary, 100 + Math.floor(rng() * 1400), rng)),
    );
    this.code = Array.from({ length: 30 }, () => codeBlock(this.vocabulary, rng));
  }

  /** About `chars` characters (cut to exactly `chars`); code blocks only when `code`. */
  text(chars: number, code = true, nonAscii = false, rng: Rng = this.rng): string {
    const parts: string[] = [];
    let length = 0;
    while (length < chars) {
      const p =
        code && rng() < 0.12
          ? this.code[Math.floor(rng() * this.code.length)]!
          : this.paragraphs[Math.floor(rng() * this.paragraphs.length)]!;
      parts.push(p);
      length += p.length + 2;
    }
    let out = parts.join("\n\n").slice(0, Math.max(0, chars));
    if (nonAscii && out.length > 0) {
      const at = Math.floor(rng() * out.length);
      out = `${out.slice(0, at)} ${NON_ASCII[Math.floor(rng() * NON_ASCII.length)]!} ${out.slice(at)}`;
    }
    return out;
  }

  word(): string {
    return this.vocabulary.word(this.rng);
  }
}

/**
 * A prompt + completion row of `rowBytes` bytes or a little less (never more, unless the row
 * without its completion is already longer): the completion is cut until the line fits.
 */
function sizedRow(
  fields: { id: string; group_id: string; prompt: string; reward: number },
  rowBytes: number,
  pool: TextPool,
  nonAscii: boolean,
): string {
  const base = utf8Length(JSON.stringify({ ...fields, completion: "" }));
  let completion = pool.text(Math.max(0, rowBytes - base - 8), true, nonAscii);
  let line = JSON.stringify({ ...fields, completion });
  for (let excess = utf8Length(line) - rowBytes; excess > 0 && completion.length > 0;) {
    completion = completion.slice(0, Math.max(0, completion.length - excess - 4));
    line = JSON.stringify({ ...fields, completion });
    excess = utf8Length(line) - rowBytes;
  }
  return line;
}

const groupName = (prefix: string, g: number): string => `${prefix}-${String(g).padStart(7, "0")}`;

/** The small rows (small, huge and interleaved shapes): 1.4-2.0 KB, 10% with non-ASCII. */
function smallRow(
  groupId: string,
  index: number,
  prompt: string,
  passRate: number,
  pool: TextPool,
  rng: Rng,
): string {
  const reward = rng() < passRate ? 1 : 0;
  const nonAscii = rng() < 0.1;
  return sizedRow(
    { id: `${groupId}/${index}`, group_id: groupId, prompt, reward },
    int(rng, 1400, 2000),
    pool,
    nonAscii,
  );
}

const line = (text: string, groupId: string, valid = true): ShapeLine => ({
  text,
  bytes: utf8Length(text) + 1,
  groupId,
  valid,
});

/** A group's pass rate: a third all-fail or all-pass, the rest mixed. */
const passRateOf = (rng: Rng): number => (rng() < 0.3 ? (rng() < 0.5 ? 0 : 1) : rng());

function* smallShape(targetBytes: number, seed: number, malformed: boolean): Generator<ShapeLine> {
  const rng = randomMulberry32(seed);
  const pool = new TextPool(seed, rng);
  let bytes = 0;
  let lines = 0;
  for (let g = 0; bytes < targetBytes; g++) {
    const groupId = groupName("s", g);
    const prompt = pool.text(int(rng, 200, 500), false);
    const passRate = passRateOf(rng);
    for (let i = 0; i < 8; i++) {
      let text = smallRow(groupId, i, prompt, passRate, pool, rng);
      lines++;
      const bad = malformed && lines % MALFORMED_EVERY === 0;
      // Cut inside the completion's string: not valid JSON, as a writer killed mid-line leaves it.
      if (bad) text = text.slice(0, text.length >> 1);
      const l = line(text, groupId, !bad);
      bytes += l.bytes;
      yield l;
    }
  }
}

function* hugeShape(targetBytes: number, seed: number, hugeChars: number): Generator<ShapeLine> {
  const rng = randomMulberry32(seed);
  const pool = new TextPool(seed, rng);
  // The small rows fill the target beside the huge row, and at least a tenth of it.
  const smallBytes = Math.max(targetBytes - hugeChars, Math.ceil(targetBytes / 10));
  const hugeAt = Math.ceil(smallBytes / 10);
  let bytes = 0;
  let hugeDone = false;
  for (let g = 0; bytes < smallBytes || !hugeDone; g++) {
    const groupId = groupName("h", g);
    const prompt = pool.text(int(rng, 200, 500), false);
    const passRate = passRateOf(rng);
    const huge = !hugeDone && bytes >= hugeAt;
    const hugeIndex = huge ? int(rng, 0, 7) : -1;
    for (let i = 0; i < 8; i++) {
      let text: string;
      if (i === hugeIndex) {
        hugeDone = true;
        // Prose only (no code blocks): the completion is exactly `hugeChars` characters.
        const completion = pool.text(hugeChars, false);
        text = JSON.stringify({
          id: `${groupId}/${i}`,
          group_id: groupId,
          prompt,
          reward: 1,
          completion,
        });
      } else text = smallRow(groupId, i, prompt, passRate, pool, rng);
      const l = line(text, groupId);
      if (i !== hugeIndex) bytes += l.bytes;
      yield l;
    }
  }
}

function* agentShape(targetBytes: number, seed: number): Generator<ShapeLine> {
  const rng = randomMulberry32(seed);
  const pool = new TextPool(seed, rng);
  const tools = ["search", "read_file", "run_tests", "edit_file", "list_dir"];
  let bytes = 0;
  for (let g = 0; bytes < targetBytes; g++) {
    const groupId = groupName("a", g);
    const task = pool.text(int(rng, 300, 1500), true);
    const passRate = passRateOf(rng);
    const k = int(rng, 4, 16);
    for (let i = 0; i < k; i++) {
      const rowBytes = int(rng, 23_000, 60_000);
      const nonAscii = rng() < 0.1;
      const row = {
        id: `${groupId}/${i}`,
        group_id: groupId,
        reward: rng() < passRate ? 1 : 0,
        messages: [] as unknown[],
      };
      const messages: unknown[] = [
        { role: "system", content: "You are a careful coding agent. Use the tools." },
        { role: "user", content: task },
      ];
      // Each message adds its JSON and a comma; the row stops before it would pass rowBytes.
      let size = utf8Length(JSON.stringify(row)) + utf8Length(JSON.stringify(messages)) - 2;
      for (let call = 0; ; call++) {
        const id = `call_${call}`;
        const name = tools[Math.floor(rng() * tools.length)]!;
        const turn: unknown[] = [];
        const say = pool.text(int(rng, 100, 1200), true, nonAscii);
        if (rng() < 0.75) {
          const args = JSON.stringify({
            path: `src/${pool.word()}/${pool.word()}.py`,
            query: pool.text(int(rng, 10, 120), false),
            limit: int(rng, 1, 50),
          });
          turn.push(
            {
              role: "assistant",
              content: say,
              tool_calls: [{ id, type: "function", function: { name, arguments: args } }],
            },
            { role: "tool", tool_call_id: id, content: pool.text(int(rng, 200, 1800), true) },
          );
        } else turn.push({ role: "assistant", content: say });
        const add = turn.reduce<number>((s, m) => s + utf8Length(JSON.stringify(m)) + 1, 0);
        if (size + add > rowBytes) break;
        messages.push(...turn);
        size += add;
      }
      row.messages = messages;
      const l = line(JSON.stringify(row), groupId);
      bytes += l.bytes;
      yield l;
    }
  }
}

function* largeGroupsShape(targetBytes: number, seed: number): Generator<ShapeLine> {
  const rng = randomMulberry32(seed);
  const pool = new TextPool(seed, rng);
  let bytes = 0;
  for (let g = 0; bytes < targetBytes; g++) {
    const groupId = groupName("L", g);
    const prompt = pool.text(int(rng, 200, 800), false);
    const passRate = passRateOf(rng);
    const k = int(rng, 64, 512);
    for (let i = 0; i < k; i++) {
      const text = sizedRow(
        {
          id: `${groupId}/${i}`,
          group_id: groupId,
          prompt,
          reward: rng() < passRate ? 1 : 0,
        },
        int(rng, 1500, 4000),
        pool,
        rng() < 0.1,
      );
      const l = line(text, groupId);
      bytes += l.bytes;
      yield l;
    }
  }
}

/** Mean bytes of a small row (measured on the generator), to size the interleaved file up front. */
const SMALL_ROW_MEAN_BYTES = 1700;

function* interleavedShape(targetBytes: number, seed: number): Generator<ShapeLine> {
  const rng = randomMulberry32(seed);
  const pool = new TextPool(seed, rng);
  const groups = Math.max(2, Math.round(targetBytes / (8 * SMALL_ROW_MEAN_BYTES)));
  // A group's prompt and pass rate come from its own seed (drawn again in each of its 8 rounds),
  // so no per-group state is kept: 1 GB holds ~74,000 groups.
  const groupPrompt = (g: number): { prompt: string; passRate: number } => {
    const r = randomMulberry32((seed * 0x9e3779b1) ^ g);
    return { prompt: pool.text(int(r, 200, 500), false, false, r), passRate: passRateOf(r) };
  };
  const order = new Uint32Array(groups);
  for (let round = 0; round < 8; round++) {
    for (let g = 0; g < groups; g++) order[g] = g;
    for (let g = groups - 1; g > 0; g--) {
      const j = Math.floor(rng() * (g + 1));
      const t = order[g]!;
      order[g] = order[j]!;
      order[j] = t;
    }
    for (let n = 0; n < groups; n++) {
      const g = order[n]!;
      const groupId = groupName("i", g);
      const { prompt, passRate } = groupPrompt(g);
      yield line(smallRow(groupId, round, prompt, passRate, pool, rng), groupId);
    }
  }
}

function* manyGroupsShape(
  targetBytes: number,
  seed: number,
  minGroups: number,
): Generator<ShapeLine> {
  const rng = randomMulberry32(seed);
  const pool = new TextPool(seed, rng);
  let bytes = 0;
  for (let g = 0; bytes < targetBytes || g < minGroups; g++) {
    const groupId = groupName("m", g);
    const prompt = pool.text(int(rng, 10, 30), false);
    const passRate = passRateOf(rng);
    const k = int(rng, 2, 6);
    for (let i = 0; i < k; i++) {
      const text = sizedRow(
        { id: `${groupId}/${i}`, group_id: groupId, prompt, reward: rng() < passRate ? 1 : 0 },
        int(rng, 90, 150),
        pool,
        false,
      );
      const l = line(text, groupId);
      bytes += l.bytes;
      yield l;
    }
  }
}

/** The lines of `shape` for a file of about `targetBytes` (each shape says how it ends). */
export function shapeLines(
  shape: ShapeName,
  targetBytes: number,
  options: ShapeOptions = {},
): Generator<ShapeLine> {
  const { seed } = SHAPE_INFO[shape];
  switch (shape) {
    case "small":
      return smallShape(targetBytes, seed, true);
    case "agent":
      return agentShape(targetBytes, seed);
    case "huge":
      return hugeShape(targetBytes, seed, options.hugeChars ?? HUGE_COMPLETION_CHARS);
    case "large-groups":
      return largeGroupsShape(targetBytes, seed);
    case "interleaved":
      return interleavedShape(targetBytes, seed);
    case "many-groups":
      return manyGroupsShape(targetBytes, seed, options.minGroups ?? MANY_GROUPS_MIN);
  }
}
