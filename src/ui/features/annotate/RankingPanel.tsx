/**
 * The ranking panel of the group view: the passes as best-first tiers (a tier of several is a
 * tie), ranked by drag and drop or from the keyboard on a focused item. Each item shows its
 * reward and, once the ranking resolves, the GAR factor and advantage it gives (source: human).
 * Edits go through the store (undoable, saved); the focus stays on the moved item and a live
 * region announces where it went.
 */
import {
  memo,
  useCallback,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type DragEvent,
} from "react";
import { rankingPlace, rankingRemove, type Ranking } from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import type { GroupView } from "../../../store/hooks.ts";
import { useRewardsShown } from "../../../store/team/teamHooks.ts";
import { isTypingTarget } from "../../components/keyboard.ts";
import {
  prepareRanking,
  rankingAppendAll,
  rankingApply,
  rankingDescribe,
  rankingFocusNext,
  rankingKeyAction,
  rankingPlaceOf,
  type RankItem,
} from "./prepareRanking.ts";
import styles from "./Annotate.module.css";

const DRAG_TYPE = "application/x-rollout-id";
const RANKING_HINT =
  "Drag a pass, or focus it and press Alt+↑/Alt+↓ to move, t to tie with the tier above, s to " +
  "split, x to unrank, a to rank last; ↑/↓ move the focus.";
const NO_RANKING: Ranking = [];

function sameItem(a: RankItem, b: RankItem): boolean {
  return (Object.keys(a) as (keyof RankItem)[]).every((k) => a[k] === b[k]);
}

const Item = memo(
  function Item({
    item,
    ranked,
    onKey,
    onDragStart,
  }: {
    item: RankItem;
    ranked: boolean;
    onKey: (id: string, e: React.KeyboardEvent<HTMLButtonElement>) => void;
    onDragStart: (id: string, e: DragEvent<HTMLButtonElement>) => void;
  }) {
    return (
      <li className={styles.rankItem}>
        <button
          type="button"
          draggable
          className={`${styles.rankButton} ${item.problem === "" ? "" : styles.rankProblem}`}
          data-testid="ranking.item"
          data-rollout-id={item.id}
          aria-describedby="ranking-keys-hint"
          title={item.problem === "" ? undefined : item.problem}
          onKeyDown={(e) => onKey(item.id, e)}
          onDragStart={(e) => onDragStart(item.id, e)}
        >
          <span className={styles.rankId}>{item.id}</span>
          {item.reward === "" ? null : (
            <span className={styles.rankNum} title="Reward (source: reward)">
              r {item.reward}
            </span>
          )}
          {ranked && item.factor !== "" ? (
            <span className={styles.rankNum} title="GAR factor f from the human ranking">
              f {item.factor}
            </span>
          ) : null}
          {ranked && item.garAdvantage !== "" ? (
            <span className={styles.rankNum} title="GAR advantage from the human ranking">
              GAR <span data-testid="ranking.gar-advantage">{item.garAdvantage}</span>{" "}
              <span className={styles.source}>human</span>
            </span>
          ) : null}
          {item.hack ? <span className={styles.hackTag}>hack</span> : null}
          {item.label === null ? null : <span className={styles.labelTag}>{item.label}</span>}
          {item.problem === "" ? null : <span className={styles.problem}>{item.problem}</span>}
        </button>
      </li>
    );
  },
  // The view model is rebuilt on every ranking change; an item re-renders only when its values do.
  (p, n) =>
    sameItem(p.item, n.item) &&
    p.ranked === n.ranked &&
    p.onKey === n.onKey &&
    p.onDragStart === n.onDragStart,
);

function dropHandlers(
  onDrop: (id: string) => void,
  setOver: (over: boolean) => void,
): {
  onDragOver: (e: DragEvent<HTMLElement>) => void;
  onDragLeave: () => void;
  onDrop: (e: DragEvent<HTMLElement>) => void;
} {
  return {
    onDragOver: (e) => {
      if (!e.dataTransfer.types.includes(DRAG_TYPE)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = "move";
      setOver(true);
    },
    onDragLeave: () => setOver(false),
    onDrop: (e) => {
      const id = e.dataTransfer.getData(DRAG_TYPE);
      setOver(false);
      if (id === "") return;
      e.preventDefault();
      e.stopPropagation();
      onDrop(id);
    },
  };
}

/** A thin zone between tiers: dropping there makes the item a tier of its own at that place. */
function Gap({ before, onDrop }: { before: number; onDrop: (id: string, before: number) => void }) {
  const [over, setOver] = useState(false);
  return (
    <li
      className={`${styles.gap} ${over ? styles.over : ""}`}
      data-testid="ranking.gap"
      data-before={before}
      aria-hidden="true"
      {...dropHandlers((id) => onDrop(id, before), setOver)}
    />
  );
}

/** The passes not ranked yet; dropping a ranked item here unranks it. */
function Unranked({
  items,
  blind,
  onKey,
  onDragStart,
  onDrop,
}: {
  items: readonly RankItem[];
  /** Blind mode: every rollout is offered, not only the passes. */
  blind: boolean;
  onKey: (id: string, e: React.KeyboardEvent<HTMLButtonElement>) => void;
  onDragStart: (id: string, e: DragEvent<HTMLButtonElement>) => void;
  onDrop: (id: string) => void;
}) {
  const [over, setOver] = useState(false);
  return (
    <div
      className={`${styles.unranked} ${over ? styles.over : ""}`}
      data-testid="ranking.unranked"
      {...dropHandlers(onDrop, setOver)}
    >
      <h4 className={styles.subTitle}>
        Unranked {blind ? "rollouts" : "passes"} ({items.length})
      </h4>
      <ul className={styles.tierItems}>
        {items.map((item) => (
          <Item key={item.id} item={item} ranked={false} onKey={onKey} onDragStart={onDragStart} />
        ))}
      </ul>
    </div>
  );
}

function Tier({
  index,
  items,
  onKey,
  onDragStart,
  onDropInto,
}: {
  index: number;
  items: readonly RankItem[];
  onKey: (id: string, e: React.KeyboardEvent<HTMLButtonElement>) => void;
  onDragStart: (id: string, e: DragEvent<HTMLButtonElement>) => void;
  onDropInto: (id: string, tier: number) => void;
}) {
  const [over, setOver] = useState(false);
  return (
    <li
      className={`${styles.tier} ${over ? styles.over : ""}`}
      data-testid="ranking.tier"
      data-tier={index}
      {...dropHandlers((id) => onDropInto(id, index), setOver)}
    >
      <span className={styles.tierLabel}>
        {index + 1}
        {items.length > 1 ? " (tie)" : ""}
      </span>
      <ul className={styles.tierItems} aria-label={`Tier ${index + 1}`}>
        {items.map((item, at) => (
          // Keyed by place, not by id: see RankingPanel.
          <Item key={at} item={item} ranked onKey={onKey} onDragStart={onDragStart} />
        ))}
      </ul>
    </li>
  );
}

/** What a drop does: into a tier, before one (a new tier), or back to the unranked ones. */
function useDrops(
  apply: (next: Ranking, id: string) => void,
  current: { readonly current: { readonly ranking: Ranking } },
): {
  onDropInto: (id: string, tier: number) => void;
  onDropBefore: (id: string, before: number) => void;
  onUnrank: (id: string) => void;
} {
  const onDropInto = useCallback(
    (id: string, tier: number) =>
      apply(rankingPlace(current.current.ranking, id, tier, "into"), id),
    [apply, current],
  );
  const onDropBefore = useCallback(
    (id: string, before: number) =>
      apply(rankingPlace(current.current.ranking, id, before, "before"), id),
    [apply, current],
  );
  const onUnrank = useCallback(
    (id: string) => apply(rankingRemove(current.current.ranking, id), id),
    [apply, current],
  );
  return { onDropInto, onDropBefore, onUnrank };
}

/**
 * `parsed` is the group view the columns already computed (passed down through the rollouts
 * feature's slot), so a change computes the group's analysis once, not once per view.
 */
export default function RankingPanel({ groupId, parsed }: { groupId: string; parsed: GroupView }) {
  const setRanking = useStore((s) => s.setRanking);
  const [announcement, setAnnouncement] = useState("");
  // A new object per request, so asking for the same id again refocuses it.
  const [focusRequest, setFocusRequest] = useState<{ readonly id: string } | null>(null);
  const setFocusId = useCallback((id: string) => setFocusRequest({ id }), []);
  const listRef = useRef<HTMLDivElement>(null);
  // Blind mode (team mode, issue 18): no reward, pass or GAR number until the group is submitted.
  const blind = !useRewardsShown(groupId);
  const view = useMemo(
    () => prepareRanking(parsed.group, parsed.analysis, parsed.annotation, blind),
    [parsed, blind],
  );
  const ranking = parsed.annotation.ranking;
  // Handlers read the current ranking and order when a key comes, so they stay stable and the
  // memoised items do not re-render on every change.
  const current = useRef<{ ranking: Ranking; order: readonly string[] }>({
    ranking: NO_RANKING,
    order: [],
  });
  useLayoutEffect(() => {
    current.current = { ranking, order: view.order };
  });
  // Tiers and their items are keyed by place, not by id: a move changes the contents of two
  // places and never moves a button in the DOM. (Moving the focused one, as id keys do, blurs it,
  // and React then restores the focus by reading the scroll position of every ancestor: two
  // forced layouts of the whole group inside the keystroke.) The focus follows the moved item,
  // once per request (DOM focus is an external system; later renders must not steal it back).
  useLayoutEffect(() => {
    if (focusRequest === null || listRef.current === null) return;
    for (const el of listRef.current.querySelectorAll<HTMLElement>('[data-testid="ranking.item"]'))
      if (el.dataset.rolloutId === focusRequest.id) {
        // No scroll on focus: scrolling here forces a synchronous layout of the whole group
        // inside the keystroke; the item is brought into view in the next frame instead.
        if (document.activeElement !== el) el.focus({ preventScroll: true });
        requestAnimationFrame(() => el.scrollIntoView({ block: "nearest", inline: "nearest" }));
        return;
      }
  }, [focusRequest]);

  const apply = useCallback(
    (next: Ranking, id: string) => {
      // When the item's new place is already on screen, focus that place's button now, before
      // the change renders: with nothing changed yet, the focus costs no layout, while after the
      // commit it forces a layout of the whole group (a focus change reports the element's
      // bounds). The render then puts the item in the focused button.
      const place = rankingPlaceOf(next, id);
      const tier =
        place === null
          ? null
          : listRef.current?.querySelector(
              `[data-testid="ranking.tier"][data-tier="${place.tier}"]`,
            );
      const button = tier?.querySelectorAll<HTMLElement>('[data-testid="ranking.item"]')[
        place?.at ?? -1
      ];
      button?.focus({ preventScroll: true });
      setRanking(groupId, next);
      setFocusId(id);
      setAnnouncement(rankingDescribe(next, id));
    },
    [groupId, setRanking, setFocusId],
  );

  const onKey = useCallback(
    (id: string, e: React.KeyboardEvent<HTMLButtonElement>) => {
      if (isTypingTarget(e.target)) return;
      const { ranking, order } = current.current;
      const action = rankingKeyAction(e);
      if (action === null) return;
      e.preventDefault();
      e.stopPropagation();
      if (action.kind === "focus") {
        const next = rankingFocusNext(order, id, action.direction);
        if (next !== null && next !== id) setFocusId(next);
        return;
      }
      apply(rankingApply(ranking, id, action), id);
    },
    [apply, setFocusId],
  );
  const onDragStart = useCallback((id: string, e: DragEvent<HTMLButtonElement>) => {
    e.dataTransfer.setData(DRAG_TYPE, id);
    e.dataTransfer.setData("text/plain", id);
    e.dataTransfer.effectAllowed = "move";
  }, []);
  const { onDropInto, onDropBefore, onUnrank } = useDrops(apply, current);

  return (
    <section className={styles.panel} aria-label="Human ranking" data-testid="ranking.panel">
      <div className={styles.panelHead}>
        <h3 className={styles.panelTitle} title={RANKING_HINT}>
          {blind ? "Ranking of the rollouts" : "Ranking of the passes"}
        </h3>
        <span className={styles.muted} data-testid="ranking.status" data-status={view.status}>
          {view.statusText}
        </span>
        {view.unranked.length > 0 ? (
          <button
            type="button"
            data-testid="ranking.add-all"
            onClick={() =>
              apply(
                rankingAppendAll(
                  ranking,
                  view.unranked.map((u) => u.id),
                ),
                view.unranked[0]!.id,
              )
            }
          >
            Rank all {view.unranked.length} in file order
          </button>
        ) : null}
        {ranking.length > 0 ? (
          <button
            type="button"
            data-testid="ranking.clear"
            onClick={() => {
              setRanking(groupId, []);
              setAnnouncement("ranking cleared");
            }}
          >
            Clear ranking
          </button>
        ) : null}
      </div>
      {/* The keys, for screen readers (each item points here) and in the title's tooltip. */}
      <p id="ranking-keys-hint" className={styles.srOnly}>
        {RANKING_HINT}
      </p>
      <div ref={listRef} className={styles.rankColumns}>
        <ol className={styles.tiers} aria-label="Ranked, best first" data-testid="ranking.tiers">
          {view.tiers.map((t) => (
            <TierWithGap
              key={t.index}
              index={t.index}
              items={t.items}
              onKey={onKey}
              onDragStart={onDragStart}
              onDropInto={onDropInto}
              onDropBefore={onDropBefore}
            />
          ))}
          <Gap before={view.tiers.length} onDrop={onDropBefore} />
        </ol>
        <Unranked
          items={view.unranked}
          blind={blind}
          onKey={onKey}
          onDragStart={onDragStart}
          onDrop={onUnrank}
        />
      </div>
      <p className={styles.srOnly} aria-live="polite" data-testid="ranking.live">
        {announcement}
      </p>
    </section>
  );
}

/**
 * A tier and the gap above it. Memoised on the items' values: the view model is rebuilt on every
 * change, and a move changes two places only.
 */
const TierWithGap = memo(
  function TierWithGap(props: {
    index: number;
    items: readonly RankItem[];
    onKey: (id: string, e: React.KeyboardEvent<HTMLButtonElement>) => void;
    onDragStart: (id: string, e: DragEvent<HTMLButtonElement>) => void;
    onDropInto: (id: string, tier: number) => void;
    onDropBefore: (id: string, before: number) => void;
  }) {
    return (
      <>
        <Gap before={props.index} onDrop={props.onDropBefore} />
        <Tier {...props} />
      </>
    );
  },
  (p, n) =>
    p.index === n.index &&
    p.items.length === n.items.length &&
    p.items.every((item, i) => sameItem(item, n.items[i]!)) &&
    p.onKey === n.onKey &&
    p.onDragStart === n.onDragStart &&
    p.onDropInto === n.onDropInto &&
    p.onDropBefore === n.onDropBefore,
);
