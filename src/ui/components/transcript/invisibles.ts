/**
 * Characters that change how text reads without being seen: bidirectional controls (a U+202E
 * RIGHT-TO-LEFT OVERRIDE makes "txt.exe" display as "exe.txt"), zero-width and other invisible
 * characters, and Unicode tag characters (which smuggle ASCII past a reader, a known prompt
 * injection trick). A policy under RL writes anything, so the transcript shows each one as a
 * visible marker such as ⟨U+202E⟩, with its name as a tooltip, instead of letting it act.
 *
 * Pure: the transcript components (VisibleText.tsx, the markdown renderer's rehype plugin) render
 * these segments and decide nothing.
 */

/**
 * What a marked character is, by kind: a short table, since this module is in the initial bundle
 * (the code point in the marker says exactly which character it is).
 */
function kindOf(cp: number): string {
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
    return "bidirectional control: reorders the text after it";
  if (cp === 0x200e || cp === 0x200f || cp === 0x061c) return "direction mark";
  if (cp === 0x2028 || cp === 0x2029) return "line or paragraph separator";
  if (cp === 0xfeff) return "zero width no-break space (byte-order mark)";
  if (cp === 0x00ad) return "soft hyphen";
  if ((cp >= 0x200b && cp <= 0x200d) || cp === 0x2060 || cp === 0x180e)
    return "zero-width character";
  return "invisible formatting character";
}

/**
 * Every character shown as a marker; the `u` flag so tag characters match as one code point. The
 * combining ones (U+034F, U+17B4, U+17B5) and the joiner (U+200D) are alternatives of their own:
 * inside a character class they would combine with their neighbour.
 */
const INVISIBLE =
  /\u034f|\u17b4|\u17b5|\u200d|[\u00ad\u061c\u115f\u1160\u180e\u200b\u200c\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb]|[\u{e0000}-\u{e007f}]/gu;

const PICTOGRAPH = /\p{Extended_Pictographic}/u;

export interface InvisibleMark {
  /** "U+202E", as the marker shows it. */
  readonly code: string;
  /** What the character is and does, for the tooltip. */
  readonly name: string;
  /** The character itself. */
  readonly char: string;
}

export type TextSegment =
  { readonly kind: "text"; readonly text: string } | ({ readonly kind: "mark" } & InvisibleMark);

/** The marker's text for a character: ⟨U+202E⟩. */
export function invisibleLabel(mark: Pick<InvisibleMark, "code">): string {
  return `⟨${mark.code}⟩`;
}

function describe(char: string): InvisibleMark {
  const cp = char.codePointAt(0)!;
  const code = `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
  if (cp >= 0xe0000) {
    const ascii = cp - 0xe0000;
    const hidden =
      ascii >= 0x20 && ascii < 0x7f
        ? `hides the ASCII character "${String.fromCharCode(ascii)}"`
        : "a tag control";
    return { code, char, name: `tag character, invisible: ${hidden}` };
  }
  return { code, char, name: `${kindOf(cp)} (invisible; shown here)` };
}

/** Emoji presentation selector and skin tones: they sit between a pictograph and its joiner. */
const isEmojiModifier = (cp: number): boolean => cp === 0xfe0f || (cp >= 0x1f3fb && cp <= 0x1f3ff);

/** Whether the zero width joiner at `at` joins two pictographs (an emoji sequence such as 👩‍💻). */
function joinsPictographs(text: string, at: number): boolean {
  let i = at;
  let before = -1;
  while (i > 0) {
    const low = text.charCodeAt(i - 1);
    const size = low >= 0xdc00 && low <= 0xdfff && i > 1 ? 2 : 1;
    before = text.codePointAt(i - size)!;
    i -= size;
    if (!isEmojiModifier(before)) break;
  }
  const after = text.codePointAt(at + 1);
  return (
    before !== -1 &&
    after !== undefined &&
    PICTOGRAPH.test(String.fromCodePoint(before)) &&
    PICTOGRAPH.test(String.fromCodePoint(after))
  );
}

/** True when the text holds a character that would be shown as a marker (a cheap first check). */
export function hasInvisible(text: string): boolean {
  INVISIBLE.lastIndex = 0;
  return INVISIBLE.test(text);
}

/**
 * The text cut into plain runs and markers, in order; joining the runs and the markers' `char`s
 * gives the text back. A zero width joiner between two pictographs stays text: it is what joins
 * emoji such as 👩‍💻, not a trick.
 */
export function invisibleSegments(text: string): TextSegment[] {
  if (!hasInvisible(text)) return text === "" ? [] : [{ kind: "text", text }];
  const out: TextSegment[] = [];
  let from = 0;
  INVISIBLE.lastIndex = 0;
  for (let m = INVISIBLE.exec(text); m !== null; m = INVISIBLE.exec(text)) {
    const char = m[0];
    const at = m.index;
    if (char === "\u200d" && joinsPictographs(text, at)) continue;
    if (at > from) out.push({ kind: "text", text: text.slice(from, at) });
    out.push({ kind: "mark", ...describe(char) });
    from = at + char.length;
  }
  if (from < text.length) out.push({ kind: "text", text: text.slice(from) });
  return out;
}
