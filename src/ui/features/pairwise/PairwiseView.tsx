/**
 * The Compare tab: blind pairwise comparison of a group's rollouts. The user picks a schedule and a
 * seed, then judges one pair at a time: two transcripts labelled A (left) and B (right), without
 * ids, rewards or metrics. Every choice is saved in the group's annotation (so a reload resumes the
 * session, and Ctrl+Z undoes it like any annotation change). The results reveal the ids: win rate,
 * Bradley-Terry strength with its bootstrap interval, the proposed ranking to accept, and cycles.
 */
import { useId, useMemo, useState } from "react";
import {
  PAIRWISE_SCHEDULES,
  pairwiseChoose,
  pairwiseStart,
  pairwiseUndo,
  type PairwiseSchedule,
  type PairwiseSession,
  type Rollout,
} from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import { useGroupAnalysis } from "../../../store/hooks.ts";
import { useDocumentShortcuts } from "../../components/keyboard.ts";
import { PromptView, Transcript } from "../../components/transcript/Transcript.tsx";
import PairwiseResultsView from "./PairwiseResults.tsx";
import {
  pairwiseDefaultSeed,
  prepareMatch,
  prepareScheduleChoices,
  type MatchView,
} from "./preparePairwise.ts";
import { pairwiseCommand, type PairwiseCommand } from "./shortcuts.ts";
import styles from "./Pairwise.module.css";

export default function PairwiseView({ groupId }: { groupId: string }) {
  const view = useGroupAnalysis(groupId);
  const update = useStore((s) => s.updateGroupAnnotation);
  if (view === null) return <p className={styles.muted}>Loading the group…</p>;
  const { group, annotation } = view;
  const session = annotation.pairwise;
  const save = (next: PairwiseSession | null): void =>
    update(groupId, (a) => ({ ...a, pairwise: next }));
  if (group.rollouts.length < 2)
    return <p className={styles.muted}>A comparison needs at least two rollouts.</p>;
  return session === null ? (
    <StartForm
      key={groupId}
      groupId={groupId}
      n={group.rollouts.length}
      onStart={save}
      ids={group.rollouts.map((r) => r.id)}
    />
  ) : (
    <Session
      key={groupId}
      groupId={groupId}
      session={session}
      rollouts={group.rollouts}
      passed={view.analysis.rollouts}
      ranking={annotation.ranking}
      onSave={save}
    />
  );
}

function StartForm({
  groupId,
  n,
  ids,
  onStart,
}: {
  groupId: string;
  n: number;
  ids: readonly string[];
  onStart: (session: PairwiseSession) => void;
}) {
  const choices = useMemo(() => prepareScheduleChoices(PAIRWISE_SCHEDULES, n), [n]);
  const [schedule, setSchedule] = useState<PairwiseSchedule>("single-elimination");
  const [seed, setSeed] = useState(() => pairwiseDefaultSeed(groupId));
  const scheduleId = useId();
  const seedId = useId();
  const validSeed = Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32;
  return (
    <form
      className={styles.start}
      data-testid="pairwise.start-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (validSeed) onStart(pairwiseStart(schedule, ids, seed));
      }}
    >
      <p className={styles.muted}>
        Compare the {n} rollouts two at a time, blind: the sides are shuffled and the rewards are
        hidden until the results.
      </p>
      <label htmlFor={scheduleId}>Schedule</label>
      <select
        id={scheduleId}
        value={schedule}
        data-testid="pairwise.schedule"
        onChange={(e) => setSchedule(e.currentTarget.value as PairwiseSchedule)}
      >
        {choices.map((c) => (
          <option key={c.schedule} value={c.schedule}>
            {c.label}
          </option>
        ))}
      </select>
      <label htmlFor={seedId}>Seed</label>
      <input
        id={seedId}
        type="number"
        min={0}
        step={1}
        className={styles.seed}
        value={Number.isFinite(seed) ? seed : ""}
        data-testid="pairwise.seed"
        onChange={(e) => setSeed(e.currentTarget.valueAsNumber)}
      />
      <button
        type="submit"
        className={styles.primary}
        disabled={!validSeed}
        data-testid="pairwise.begin"
      >
        Start comparing
      </button>
    </form>
  );
}

function Session({
  groupId,
  session,
  rollouts,
  passed,
  ranking,
  onSave,
}: {
  groupId: string;
  session: PairwiseSession;
  rollouts: readonly Rollout[];
  passed: readonly { readonly id: string; readonly passed: boolean }[];
  ranking: readonly (readonly string[])[];
  onSave: (next: PairwiseSession | null) => void;
}) {
  const ids = useMemo(() => rollouts.map((r) => r.id), [rollouts]);
  const match = useMemo(() => prepareMatch(session, ids), [session, ids]);
  const byId = useMemo(() => new Map(rollouts.map((r) => [r.id, r])), [rollouts]);
  const [peek, setPeek] = useState(false);
  const [confirmDiscard, setConfirmDiscard] = useState(false);

  const run = (command: PairwiseCommand): void => {
    if (command === "undo") {
      if (session.judgements.length > 0) onSave(pairwiseUndo(session));
    } else if (match.kind === "match") onSave(pairwiseChoose(session, command));
  };
  useDocumentShortcuts(pairwiseCommand, run);

  const prompt = rollouts[0]?.prompt ?? null;
  return (
    <div className={styles.session} data-testid="pairwise.session" data-group-id={groupId}>
      <div className={styles.head}>
        <span className={styles.progress} data-testid="pairwise.progress">
          {match.kind === "error" ? "–" : match.progress}
        </span>
        <span className={styles.muted} data-testid="pairwise.schedule-shown">
          {session.schedule}, seed {session.seed}
        </span>
        <button
          type="button"
          className={styles.button}
          disabled={session.judgements.length === 0}
          data-testid="pairwise.undo"
          title="Undo the last comparison (u)"
          onClick={() => run("undo")}
        >
          Undo last comparison
        </button>
        {confirmDiscard ? (
          <span role="group" aria-label="Confirm discarding">
            Discard {session.judgements.length} comparison(s)?{" "}
            <button
              type="button"
              className={styles.button}
              data-testid="pairwise.discard-confirm"
              onClick={() => {
                setConfirmDiscard(false);
                onSave(null);
              }}
            >
              Discard
            </button>{" "}
            <button
              type="button"
              className={styles.button}
              onClick={() => setConfirmDiscard(false)}
            >
              Cancel
            </button>
          </span>
        ) : (
          <button
            type="button"
            className={styles.button}
            data-testid="pairwise.discard"
            onClick={() => setConfirmDiscard(true)}
          >
            New session…
          </button>
        )}
      </div>
      {match.kind === "error" ? (
        <p className={styles.error} role="alert" data-testid="pairwise.error">
          {match.message}
        </p>
      ) : null}
      {match.kind === "match" ? (
        <MatchPane match={match} byId={byId} prompt={prompt} onChoose={run} />
      ) : null}
      {match.kind === "done" ? (
        <PairwiseResultsView
          groupId={groupId}
          session={session}
          passed={passed}
          ranking={ranking}
        />
      ) : match.kind === "match" && session.judgements.length > 0 ? (
        <div>
          <label className={styles.muted}>
            <input
              type="checkbox"
              checked={peek}
              data-testid="pairwise.peek"
              onChange={(e) => setPeek(e.currentTarget.checked)}
            />{" "}
            Show the results so far (reveals the rollout ids)
          </label>
          {peek ? (
            <PairwiseResultsView
              groupId={groupId}
              session={session}
              passed={passed}
              ranking={ranking}
            />
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function MatchPane({
  match,
  byId,
  prompt,
  onChoose,
}: {
  match: Extract<MatchView, { kind: "match" }>;
  byId: ReadonlyMap<string, Rollout>;
  prompt: Rollout["prompt"] | null;
  onChoose: (command: PairwiseCommand) => void;
}) {
  const left = byId.get(match.left);
  const right = byId.get(match.right);
  if (left === undefined || right === undefined) return null;
  return (
    <div data-testid="pairwise.match" data-index={match.done}>
      {prompt !== null ? <PromptView prompt={prompt} /> : null}
      <div className={styles.choices}>
        <button
          type="button"
          className={styles.primary}
          data-testid="pairwise.choose-a"
          onClick={() => onChoose("left")}
        >
          A is better (a)
        </button>
        <button
          type="button"
          className={styles.button}
          data-testid="pairwise.choose-tie"
          onClick={() => onChoose("tie")}
        >
          Tie (t)
        </button>
        <button
          type="button"
          className={styles.primary}
          data-testid="pairwise.choose-b"
          onClick={() => onChoose("right")}
        >
          B is better (b)
        </button>
      </div>
      <div className={styles.sides}>
        {/* Keyed by the comparison, so folds reset and nothing of the last pair lingers. */}
        <section
          key={`a:${match.done}`}
          className={styles.side}
          aria-label="Rollout A"
          data-testid="pairwise.side-a"
        >
          <h3 className={styles.sideTitle}>A</h3>
          <Transcript rollout={left} showPrompt={false} />
        </section>
        <section
          key={`b:${match.done}`}
          className={styles.side}
          aria-label="Rollout B"
          data-testid="pairwise.side-b"
        >
          <h3 className={styles.sideTitle}>B</h3>
          <Transcript rollout={right} showPrompt={false} />
        </section>
      </div>
    </div>
  );
}
