/** The opened huge text's bar: the search box with its moves and status, and the piece navigation. */
import type { HugeFind } from "./hugeTextHooks.ts";
import styles from "./Transcript.module.css";

/** The search box, the previous and next match buttons and the search's status. */
export function HugeSearchForm({ find }: { find: HugeFind }) {
  const n = find.matches.length;
  return (
    <form
      className={styles.hugeSearch}
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        find.submit();
      }}
    >
      <input
        type="search"
        value={find.draft}
        placeholder="Find in this text"
        aria-label="Find in this text"
        data-testid="huge-text.search"
        onChange={(e) => find.setDraft(e.currentTarget.value)}
      />
      <button
        type="button"
        className={styles.hugeButton}
        disabled={n === 0}
        aria-label="Previous match"
        data-testid="huge-text.prev"
        onClick={find.previous}
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
        {find.status}
      </span>
    </form>
  );
}

/** Previous and next piece, and which piece of how many is shown (its characters in the title). */
export function HugePieceNav({
  piece,
  count,
  from,
  to,
  chars,
  onPiece,
}: {
  /** The piece shown, from 0. */
  piece: number;
  count: number;
  /** The piece's characters, [from, to) of `chars`. */
  from: number;
  to: number;
  chars: number;
  onPiece: (piece: number) => void;
}) {
  return (
    <div className={styles.hugePieces}>
      <button
        type="button"
        className={styles.hugeButton}
        disabled={piece === 0}
        aria-label="Previous piece"
        data-testid="huge-text.piece-prev"
        onClick={() => onPiece(piece - 1)}
      >
        ‹
      </button>
      <span
        data-testid="huge-text.piece"
        data-piece={piece + 1}
        title={`Characters ${(from + 1).toLocaleString("en-US")} to ${to.toLocaleString("en-US")} of ${chars.toLocaleString("en-US")}`}
      >
        piece {piece + 1} of {count}
      </span>
      <button
        type="button"
        className={styles.hugeButton}
        disabled={piece >= count - 1}
        aria-label="Next piece"
        data-testid="huge-text.piece-next"
        onClick={() => onPiece(piece + 1)}
      >
        ›
      </button>
    </div>
  );
}
