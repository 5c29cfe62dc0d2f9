/**
 * The lead's resolution of one disagreement (issue 18): the two people's annotations of the group
 * side by side (rankings and notes per person; labels, hack marks and rollout notes rollout by
 * rollout) and the gold draft beside them. The draft opens with the gold already saved, else with
 * what both submitted annotations agree on (core's `teamSuggestGold`); the lead takes one side, or
 * edits, and saves it as the group's gold. A save refused because the gold moved meanwhile says so
 * and keeps the draft (the gold is read again, so saving again writes over the newer one).
 */
import { useEffect, useRef, useState } from "react";
import {
  type GroupAnnotation,
  type HumanLabel,
  type TeamGoldSuggestion,
} from "../../../core/index.ts";
import type { TeamLeadWrite } from "../../../store/slices/teamLeadSlice.ts";
import { StatusMessage, type Message } from "../../components/StatusMessage.tsx";
import {
  draftChanged,
  draftHack,
  draftIsEmpty,
  draftLabel,
  draftRankingSource,
  initialDraft,
  rankingText,
  resolveRows,
  takeSide,
  type ResolveRow,
} from "./leadResolveModel.ts";
import styles from "./TeamLead.module.css";

export interface LeadResolveProps {
  readonly groupId: string;
  /** The two people, and their annotations of the group (empty when they have none). */
  readonly users: readonly [string, string];
  readonly sides: readonly [GroupAnnotation, GroupAnnotation];
  /** The group's rollouts in their order (empty when the group is not loaded). */
  readonly rolloutIds: readonly string[];
  /** The gold saved for the group, or null. */
  readonly saved: GroupAnnotation | null;
  readonly resolvedBy: string | null;
  readonly suggestion: TeamGoldSuggestion;
  readonly onSave: (annotation: GroupAnnotation | null) => Promise<TeamLeadWrite>;
  readonly onClose: () => void;
}

const LABELS: readonly HumanLabel[] = ["pass", "fail", "defer"];

function Side({
  user,
  groupId,
  annotation,
  onTake,
}: {
  user: string;
  groupId: string;
  annotation: GroupAnnotation;
  onTake: () => void;
}) {
  return (
    <section
      className={styles.side}
      aria-label={`${user}'s annotation`}
      data-testid="team.resolve-side"
      data-user={user}
    >
      <h5 className={styles.sideName}>{user}</h5>
      <p className={styles.sideText}>
        <b>Ranking</b> {rankingText(groupId, annotation.ranking)}
      </p>
      <p className={styles.sideText}>
        <b>Notes</b>{" "}
        {annotation.notes === "" ? <span className={styles.muted}>none</span> : annotation.notes}
      </p>
      <button
        type="button"
        className={styles.small}
        data-testid="team.resolve-take"
        data-user={user}
        onClick={onTake}
      >
        Take {user}&apos;s
      </button>
    </section>
  );
}

function labelText(label: HumanLabel | null): string {
  return label ?? "–";
}

function RolloutRow({
  row,
  users,
  draft,
  onLabel,
  onHack,
}: {
  row: ResolveRow;
  users: readonly [string, string];
  draft: GroupAnnotation;
  onLabel: (label: HumanLabel | null) => void;
  onHack: (marked: boolean) => void;
}) {
  const gold = Object.hasOwn(draft.labels, row.rolloutId) ? draft.labels[row.rolloutId]! : null;
  const cell = (i: 0 | 1) => (
    <td
      className={row.differs ? styles.cellDiffers : undefined}
      data-testid="team.resolve-cell"
      data-user={users[i]}
      data-rollout-id={row.rolloutId}
      data-label={row.labels[i] ?? ""}
      data-hack={row.hacks[i]}
      title={row.notes[i] === "" ? undefined : `${users[i]}'s note: ${row.notes[i]}`}
    >
      <span className={styles.label}>{labelText(row.labels[i])}</span>
      {row.hacks[i] ? " · hack" : ""}
      {row.notes[i] === "" ? "" : " · note"}
    </td>
  );
  return (
    <tr>
      <th scope="row" className={styles.label} title={row.rolloutId}>
        {row.short}
      </th>
      {cell(0)}
      {cell(1)}
      <td>
        <select
          aria-label={`Gold label of ${row.rolloutId}`}
          data-testid="team.resolve-label"
          data-rollout-id={row.rolloutId}
          value={gold ?? ""}
          onChange={(e) => onLabel(e.target.value === "" ? null : (e.target.value as HumanLabel))}
        >
          <option value="">–</option>
          {LABELS.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>{" "}
        <label title="Mark as a reward hack in the gold">
          <input
            type="checkbox"
            data-testid="team.resolve-hack"
            data-rollout-id={row.rolloutId}
            checked={draft.hacks.includes(row.rolloutId)}
            onChange={(e) => onHack(e.target.checked)}
          />
          hack
        </label>
      </td>
    </tr>
  );
}

/** The gold's ranking: one side's, or none (a ranking is not edited here: the lead takes one). */
function RankingChoice({
  groupId,
  users,
  sides,
  draft,
  onRanking,
}: {
  groupId: string;
  users: readonly [string, string];
  sides: readonly [GroupAnnotation, GroupAnnotation];
  draft: GroupAnnotation;
  onRanking: (ranking: GroupAnnotation["ranking"]) => void;
}) {
  const source = draftRankingSource(draft, sides);
  // The same ranking on both sides: either choice is both people's.
  const alike = sides[0].ranking.length > 0 && draftRankingSource(sides[1], sides) === 0;
  return (
    <fieldset className={styles.choice}>
      <legend>Gold ranking</legend>
      {([0, 1] as const).map((i) => (
        <label key={i}>
          <input
            type="radio"
            name={`gold-ranking-${groupId}`}
            data-testid="team.resolve-ranking"
            data-source={users[i]}
            checked={source === i}
            onChange={() => onRanking(sides[i].ranking)}
          />
          {users[i]}&apos;s
        </label>
      ))}
      <label>
        <input
          type="radio"
          name={`gold-ranking-${groupId}`}
          data-testid="team.resolve-ranking"
          data-source=""
          checked={source === "none"}
          onChange={() => onRanking([])}
        />
        none
      </label>
      <span className={styles.muted}>
        {rankingText(groupId, draft.ranking)}
        {alike ? ` (${users[0]} and ${users[1]} ranked alike)` : ""}
      </span>
    </fieldset>
  );
}

export default function LeadResolve(props: LeadResolveProps) {
  const { groupId, users, sides, rolloutIds, saved, resolvedBy, suggestion } = props;
  const [draft, setDraft] = useState<GroupAnnotation>(() =>
    initialDraft(saved, suggestion.suggestion),
  );
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message | null>(null);
  const root = useRef<HTMLElement>(null);
  // Opened from the list above: bring it into the panel's view.
  useEffect(() => root.current?.scrollIntoView({ block: "nearest" }), []);
  const rows = resolveRows(groupId, sides, rolloutIds, draft);
  const open = suggestion.open;
  const openWords = [
    open.labels.length > 0 ? `${open.labels.length} label(s)` : null,
    open.hacks.length > 0 ? `${open.hacks.length} hack mark(s)` : null,
    open.ranking ? "the ranking" : null,
  ].filter((w): w is string => w !== null);

  const save = (): void => {
    setBusy(true);
    setMessage(null);
    props.onSave(draftIsEmpty(draft) ? null : draft).then(
      (result) => {
        setBusy(false);
        setMessage(
          result.kind === "done"
            ? { text: `Saved as the gold of ${groupId}.`, error: false }
            : result.kind === "stale"
              ? {
                  text: `${result.message}\nThe gold was read again; your draft is kept: save again to write it over.`,
                  error: true,
                }
              : { text: result.message, error: true },
        );
      },
      (e: unknown) => {
        setBusy(false);
        setMessage({ text: String(e), error: true });
      },
    );
  };

  return (
    <section
      ref={root}
      className={styles.resolve}
      aria-label={`Resolve ${groupId}`}
      data-testid="team.resolve"
      data-group-id={groupId}
      data-first={users[0]}
      data-second={users[1]}
    >
      <div className={styles.actions}>
        <h4 className={styles.heading}>
          Resolve <span className={styles.groupId}>{groupId}</span>
        </h4>
        {resolvedBy !== null ? (
          <span className={styles.resolved} data-testid="team.resolved" data-group-id={groupId}>
            resolved by {resolvedBy}
          </span>
        ) : null}
        <button type="button" className={styles.small} onClick={props.onClose}>
          Close
        </button>
      </div>
      <p className={styles.muted}>
        {saved !== null
          ? "The draft starts from the saved gold."
          : `The draft starts from what ${suggestion.from.join(" and ") || "nobody"} agree on${openWords.length > 0 ? `; open: ${openWords.join(", ")}` : ""}.`}
      </p>
      <div className={styles.sides}>
        <Side
          user={users[0]}
          groupId={groupId}
          annotation={sides[0]}
          onTake={() => setDraft(takeSide(sides[0]))}
        />
        <Side
          user={users[1]}
          groupId={groupId}
          annotation={sides[1]}
          onTake={() => setDraft(takeSide(sides[1]))}
        />
      </div>
      <table className={`${styles.table} ${styles.resolveTable}`}>
        <thead>
          <tr>
            <th scope="col">Rollout</th>
            <th scope="col">{users[0]}</th>
            <th scope="col">{users[1]}</th>
            <th scope="col">Gold</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <RolloutRow
              key={row.rolloutId}
              row={row}
              users={users}
              draft={draft}
              onLabel={(label) => setDraft((d) => draftLabel(d, row.rolloutId, label))}
              onHack={(marked) => setDraft((d) => draftHack(d, row.rolloutId, marked, sides))}
            />
          ))}
        </tbody>
      </table>
      <RankingChoice
        groupId={groupId}
        users={users}
        sides={sides}
        draft={draft}
        onRanking={(ranking) => setDraft((d) => ({ ...d, ranking }))}
      />
      <label className={styles.section}>
        <b>Gold notes</b>
        <textarea
          className={styles.notes}
          data-testid="team.resolve-notes"
          value={draft.notes}
          onChange={(e) => {
            const notes = e.target.value;
            setDraft((d) => ({ ...d, notes }));
          }}
        />
      </label>
      <div className={styles.actions}>
        <button
          type="button"
          className={styles.primary}
          data-testid="team.resolve-save"
          disabled={busy}
          onClick={save}
        >
          {busy ? "Saving…" : draftIsEmpty(draft) ? "Save (clears the gold)" : "Save as gold"}
        </button>
        {draftChanged(draft, saved) ? <span className={styles.muted}>not saved</span> : null}
        <button
          type="button"
          className={styles.small}
          title="The saved gold, else what both agree on"
          onClick={() => setDraft(initialDraft(saved, suggestion.suggestion))}
        >
          Start again
        </button>
      </div>
      <StatusMessage message={message} testId="team.resolve-message" />
    </section>
  );
}
