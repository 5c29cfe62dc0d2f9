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
  hugeFind,
  hugeLabel,
  hugeNextMatch,
  hugePieceOf,
  hugePieces,
  hugeRowOf,
  hugeRows,
  hugeRowText,
  MAX_MATCHES,
  ROW_CHARS,
  SLICE_CHARS,
  utf8Bytes,
} from "./hugeText.ts";
import styles from "./Transcript.module.css";
import { VisibleText } from "./VisibleText.tsx";

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

/** Run `step` once per macrotask until it says it is done; the returned function stops it. */
function sliced(step: () => boolean): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  const run = () => {
    if (stopped) return;
    timer = step() ? null : setTimeout(run, 0);
  };
  timer = setTimeout(run, 0);
  return () => {
    stopped = true;
    if (timer !== null) clearTimeout(timer);
  };
}

/**
 * Byte counts of the last few huge texts, so a column that mounts again (a tab switch) shows its
 * size at once. A few entries only: each keeps its text alive, which the dataset holds anyway.
 */
const BYTES_CACHE = new Map<string, number>();
const BYTES_CACHE_SIZE = 4;

/** The text's size in UTF-8 bytes, counted a slice per task; null until counted. */
export function useUtf8Bytes(text: string): number | null {
  const [counted, setCounted] = useState<{ text: string; bytes: number } | null>(null);
  const cached = BYTES_CACHE.get(text);
  useEffect(() => {
    if (BYTES_CACHE.has(text)) return;
    let at = 0;
    let bytes = 0;
    return sliced(() => {
      const to = Math.min(text.length, at + SLICE_CHARS);
      bytes += utf8Bytes(text, at, to);
      at = to;
      if (at < text.length) return false;
      BYTES_CACHE.set(text, bytes);
      if (BYTES_CACHE.size > BYTES_CACHE_SIZE)
        BYTES_CACHE.delete(BYTES_CACHE.keys().next().value as string);
      setCounted({ text, bytes });
      return true;
    });
  }, [text]);
  if (cached !== undefined) return cached;
  return counted !== null && counted.text === text ? counted.bytes : null;
}

interface SearchState {
  readonly query: string;
  readonly matches: readonly number[];
  /** Characters searched so far. */
  readonly scanned: number;
  readonly done: boolean;
}

/** Every match of `query` (up to MAX_MATCHES), found a slice per task; grows as it searches. */
function useHugeSearch(text: string, query: string): SearchState {
  const [state, setState] = useState<SearchState | null>(null);
  useEffect(() => {
    if (query === "") return;
    let at = 0;
    const found: number[] = [];
    return sliced(() => {
      const to = Math.min(text.length, at + SLICE_CHARS);
      for (const m of hugeFind(text, query, at, to, MAX_MATCHES - found.length)) found.push(m);
      at = to;
      const done = at >= text.length || found.length >= MAX_MATCHES;
      setState({ query, matches: found.slice(), scanned: at, done });
      return done;
    });
  }, [text, query]);
  if (query === "") return { query, matches: [], scanned: 0, done: true };
  return state !== null && state.query === query
    ? state
    : { query, matches: [], scanned: 0, done: false };
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
  const [width, setWidth] = useState(INITIAL_RECT.width);
  // The scroller's width sets how many characters a row holds: a resize is an external event.
  useEffect(() => {
    const el = scrollRef.current;
    if (el === null || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry !== undefined && entry.contentRect.width > 0) setWidth(entry.contentRect.width);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const rowChars = Math.max(20, Math.min(ROW_CHARS * 2, Math.floor((width - 16) / CHAR_PX)));
  const rows = useMemo(() => hugeRows(text, from, to, rowChars), [text, from, to, rowChars]);

  const [draft, setDraft] = useState("");
  const [query, setQuery] = useState("");
  const search = useHugeSearch(text, query);
  const [index, setIndex] = useState(0);
  const current = search.matches[index] ?? null;

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

  const go = (i: number) => {
    const m = search.matches[i];
    if (m === undefined) return;
    setIndex(i);
    setPiece(hugePieceOf(pieces, m));
  };
  // The first match shows as soon as the search finds it.
  const first = search.matches[0];
  const [shownFirst, setShownFirst] = useState<string | null>(null);
  if (first !== undefined && shownFirst !== query) {
    setShownFirst(query);
    setIndex(0);
    setPiece(hugePieceOf(pieces, first));
  }

  const n = search.matches.length;
  const status =
    query === ""
      ? ""
      : n === 0
        ? search.done
          ? "no match"
          : `searching… ${Math.round((100 * search.scanned) / Math.max(1, text.length))}%`
        : `${(index + 1).toLocaleString("en-US")} of ${n.toLocaleString("en-US")}${
            n >= MAX_MATCHES ? "+" : ""
          }${search.done ? "" : " so far"}`;

  return (
    <div className={styles.huge} data-testid="huge-text.view">
      <div className={styles.hugeBar}>
        <form
          className={styles.hugeSearch}
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            if (draft !== query) {
              setQuery(draft);
              setIndex(0);
            } else if (n > 0) go((index + 1) % n);
          }}
        >
          <input
            type="search"
            value={draft}
            placeholder="Find in this text"
            aria-label="Find in this text"
            data-testid="huge-text.search"
            onChange={(e) => setDraft(e.currentTarget.value)}
          />
          <button
            type="button"
            className={styles.hugeButton}
            disabled={n === 0}
            aria-label="Previous match"
            data-testid="huge-text.prev"
            onClick={() => go((index - 1 + n) % n)}
          >
            ↑
          </button>
          <button
            type="submit"
            className={styles.hugeButton}
            aria-label="Next match"
            data-testid="huge-text.next"
          >
            ↓
          </button>
          <span className={styles.hugeStatus} role="status" data-testid="huge-text.status">
            {status}
          </span>
        </form>
        <div className={styles.hugePieces}>
          <button
            type="button"
            className={styles.hugeButton}
            disabled={piece === 0}
            aria-label="Previous piece"
            data-testid="huge-text.piece-prev"
            onClick={() => setPiece(piece - 1)}
          >
            ‹
          </button>
          <span
            data-testid="huge-text.piece"
            data-piece={piece + 1}
            title={`Characters ${(from + 1).toLocaleString("en-US")} to ${to.toLocaleString("en-US")} of ${text.length.toLocaleString("en-US")}`}
          >
            piece {piece + 1} of {count}
          </span>
          <button
            type="button"
            className={styles.hugeButton}
            disabled={piece >= count - 1}
            aria-label="Next piece"
            data-testid="huge-text.piece-next"
            onClick={() => setPiece(piece + 1)}
          >
            ›
          </button>
        </div>
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
                {rowContent(text, start, line, search.matches, query.length, current)}
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
