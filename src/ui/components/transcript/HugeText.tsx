/**
 * A huge text (longer than HUGE_TEXT_CHARS) read in pieces (issue 16, point 3). Folded, it shows
 * its head and its size ("50.0 MB text, shown in pieces"); opened, one piece of PIECE_CHARS
 * characters at a time in a virtualised list of fixed-height rows, so the DOM holds the visible
 * rows only, whatever the text's size. A search box finds matches across the whole text in slices
 * of SLICE_CHARS, yielding to the page between slices, and scrolls to them (across pieces). The
 * text is plain (no markdown: a parser over 50 MB would block the page for seconds), with its
 * invisible characters shown as everywhere else.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import {
  hugeLabel,
  hugeNextMatch,
  hugePieces,
  hugeRowOf,
  hugeRows,
  hugeRowText,
  ROW_CHARS,
} from "./hugeText.ts";
import { HugePieceNav, HugeSearchForm } from "./HugeTextControls.tsx";
import { useElementWidth, useHugeFind, useUtf8Bytes } from "./hugeTextHooks.ts";
import styles from "./Transcript.module.css";
import { VisibleText } from "./VisibleText.tsx";

export { useUtf8Bytes } from "./hugeTextHooks.ts";

/** Height of a row in px (Transcript.module.css `.hugeRow` sets the same line height). */
export const HUGE_ROW_PX = 18;
/** Width of a character of the rows' monospace font, in px (12px DejaVu Sans Mono: 7.2). */
const CHAR_PX = 7.3;
/** Before the scroller is measured (and in jsdom, which measures nothing). */
const INITIAL_RECT = { width: 640, height: 360 };

/** The nearest ancestor that scrolls vertically (a rollout column's body), or null. */
function scrollingAncestor(el: HTMLElement): HTMLElement | null {
  for (let p = el.parentElement; p !== null; p = p.parentElement) {
    const overflow = getComputedStyle(p).overflowY;
    if ((overflow === "auto" || overflow === "scroll") && p.scrollHeight > p.clientHeight) return p;
  }
  return null;
}

/** The row's text with the matches in it marked (the current one apart). */
function rowContent(
  text: string,
  start: number,
  line: string,
  matches: readonly number[],
  queryLength: number,
  current: number | null,
): ReactNode {
  if (queryLength === 0 || matches.length === 0) return <VisibleText text={line} />;
  const end = start + line.length;
  // The first match that may reach into this row.
  let i = hugeNextMatch(matches, start - queryLength + 1);
  if (i === -1 || matches[i]! < start - queryLength + 1) return <VisibleText text={line} />;
  const parts: ReactNode[] = [];
  let at = start;
  for (; i < matches.length && matches[i]! < end; i++) {
    const m = matches[i]!;
    const from = Math.max(m, start);
    const to = Math.min(m + queryLength, end);
    if (from > at) parts.push(<VisibleText key={`t${at}`} text={text.slice(at, from)} />);
    parts.push(
      <mark
        key={`m${m}`}
        className={m === current ? styles.hugeCurrent : styles.hugeMatch}
        data-testid={m === current ? "huge-text.current" : "huge-text.match"}
      >
        <VisibleText text={text.slice(from, to)} />
      </mark>,
    );
    at = to;
  }
  if (at < end) parts.push(<VisibleText key={`t${at}`} text={text.slice(at, end)} />);
  return parts;
}

/** The opened view: piece navigation, the search box and the virtualised rows of one piece. */
export const HugeTextView = memo(function HugeTextView({ text }: { text: string }) {
  const pieces = useMemo(() => hugePieces(text), [text]);
  const count = pieces.length - 1;
  const [piece, setPiece] = useState(0);
  const from = pieces[piece]!;
  const to = pieces[piece + 1]!;
  const scrollRef = useRef<HTMLDivElement>(null);
  // The scroller's width sets how many characters a row holds.
  const width = useElementWidth(scrollRef, INITIAL_RECT.width);
  const rowChars = Math.max(20, Math.min(ROW_CHARS * 2, Math.floor((width - 16) / CHAR_PX)));
  const rows = useMemo(() => hugeRows(text, from, to, rowChars), [text, from, to, rowChars]);
  const find = useHugeFind(text, pieces, setPiece);
  const current = find.current;

  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => HUGE_ROW_PX,
    overscan: 12,
    initialRect: INITIAL_RECT,
  });

  // Scrolling to the current match is the DOM's: once its piece is shown, bring its row into view.
  useEffect(() => {
    if (current === null || current < from || current >= to) return;
    virtualizer.scrollToIndex(hugeRowOf(rows, current), { align: "center" });
  }, [current, from, to, rows, virtualizer]);

  return (
    <div className={styles.huge} data-testid="huge-text.view">
      <div className={styles.hugeBar}>
        <HugeSearchForm find={find} />
        <HugePieceNav
          piece={piece}
          count={count}
          from={from}
          to={to}
          chars={text.length}
          onPiece={setPiece}
        />
      </div>
      <div
        ref={scrollRef}
        className={styles.hugeScroll}
        // A scroller needs a keyboard stop of its own (axe scrollable-region-focusable).
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        role="region"
        aria-label={`Piece ${piece + 1} of ${count} of the text`}
        data-testid="huge-text.scroll"
      >
        <div className={styles.hugeSpace} style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const start = rows[item.index]!;
            const line = hugeRowText(text, rows, item.index, to);
            return (
              <div
                key={item.key}
                className={styles.hugeRow}
                style={{ transform: `translateY(${item.start}px)` }}
                data-testid="huge-text.row"
                data-offset={start}
              >
                {rowContent(text, start, line, find.matches, find.query.length, current)}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
});

/**
 * A huge text folded: its head (rendered by the caller), its size, and a button that opens it in
 * pieces. Opened, the HugeTextView replaces the head.
 */
export function HugeTextFold({ text, head }: { text: string; head: ReactNode }) {
  const [open, setOpen] = useState(false);
  const bytes = useUtf8Bytes(text);
  const label = hugeLabel(text.length, bytes);
  const ref = useRef<HTMLDivElement>(null);
  // Opened, the view's top is brought to the top of the column's scroller (the view is about a
  // column tall). Not scrollIntoView: it would scroll the workspace around the column too.
  useEffect(() => {
    const el = ref.current;
    if (!open || el === null) return;
    const scroller = scrollingAncestor(el);
    if (scroller !== null)
      scroller.scrollTop += el.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
  }, [open]);
  // The size comes first, so a column shows it without scrolling past the head.
  return (
    <div data-testid="huge-text" ref={ref}>
      <button
        type="button"
        className={`${styles.foldToggle} ${styles.hugeToggle}`}
        aria-expanded={open}
        data-testid="huge-text.toggle"
        title={`${text.length.toLocaleString("en-US")} characters${bytes === null ? "" : `, ${bytes.toLocaleString("en-US")} bytes in UTF-8`}: read a piece at a time, never rendered whole`}
        onClick={() => setOpen((o) => !o)}
      >
        <span data-testid="huge-text.label">{label}</span>
        {open ? " · fold" : " · open"}
      </button>
      {open ? <HugeTextView text={text} /> : head}
    </div>
  );
}
