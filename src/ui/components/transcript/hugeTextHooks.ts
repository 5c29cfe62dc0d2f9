/**
 * The huge text's hooks: its size in UTF-8 bytes and its search, each worked out a slice per task
 * so a 50 MB text never blocks the page; the scroller's width; the search box and the current match.
 */
import { useEffect, useState, type RefObject } from "react";
import {
  hugeFind,
  hugePieceOf,
  hugeSearchStatus,
  MAX_MATCHES,
  SLICE_CHARS,
  utf8Bytes,
} from "./hugeText.ts";

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
export function useHugeSearch(text: string, query: string): SearchState {
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

/**
 * The content width of the element in `ref`, kept up to date (`initial` until it is measured, and
 * in jsdom, which measures nothing). A resize is an external event.
 */
export function useElementWidth(ref: RefObject<HTMLElement | null>, initial: number): number {
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const el = ref.current;
    if (el === null || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry !== undefined && entry.contentRect.width > 0) setWidth(entry.contentRect.width);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** The search box and the current match of a huge text (`useHugeFind`). */
export interface HugeFind {
  /** The search box's text; searched once submitted. */
  readonly draft: string;
  readonly setDraft: (draft: string) => void;
  readonly query: string;
  readonly matches: readonly number[];
  /** The current match's offset, or null. */
  readonly current: number | null;
  readonly status: string;
  /** Searches the draft when it changed, else moves to the next match. */
  readonly submit: () => void;
  readonly previous: () => void;
}

/**
 * The search of a huge text split in `pieces`: the submitted query's matches, the current one, and
 * moves between them, each showing the match's piece (`showPiece`). The first match shows as soon
 * as the search finds it.
 */
export function useHugeFind(
  text: string,
  pieces: readonly number[],
  showPiece: (piece: number) => void,
): HugeFind {
  const [draft, setDraft] = useState("");
  const [query, setQuery] = useState("");
  const search = useHugeSearch(text, query);
  const [index, setIndex] = useState(0);
  const current = search.matches[index] ?? null;
  const go = (i: number) => {
    const m = search.matches[i];
    if (m === undefined) return;
    setIndex(i);
    showPiece(hugePieceOf(pieces, m));
  };
  // The first match shows as soon as the search finds it.
  const first = search.matches[0];
  const [shownFirst, setShownFirst] = useState<string | null>(null);
  if (first !== undefined && shownFirst !== query) {
    setShownFirst(query);
    setIndex(0);
    showPiece(hugePieceOf(pieces, first));
  }
  const n = search.matches.length;
  return {
    draft,
    setDraft,
    query,
    matches: search.matches,
    current,
    status: hugeSearchStatus({
      query,
      matches: n,
      scanned: search.scanned,
      chars: text.length,
      done: search.done,
      index,
    }),
    submit: () => {
      if (draft !== query) {
        setQuery(draft);
        setIndex(0);
      } else if (n > 0) go((index + 1) % n);
    },
    previous: () => go((index - 1 + n) % n),
  };
}
