/**
 * The results of a comparison session, with the ids revealed: per rollout its win rate and its
 * Bradley-Terry strength with the 95% bootstrap interval, the proposed ranking with "Accept
 * ranking" (the passes' order: GAR ranks passes only), and the intransitive cycles.
 */
import { useMemo } from "react";
import type { PairwiseSession, RolloutId } from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import { prepareResults, sameRanking } from "./preparePairwise.ts";
import styles from "./Pairwise.module.css";

const NO_HACKS: readonly RolloutId[] = [];

export default function PairwiseResultsView({
  groupId,
  session,
  passed,
  ranking,
}: {
  groupId: string;
  session: PairwiseSession;
  passed: readonly { readonly id: string; readonly passed: boolean }[];
  ranking: readonly (readonly string[])[];
}) {
  const update = useStore((s) => s.updateGroupAnnotation);
  // The person's hack marks (never a judge's): a proposal that puts one above a pass says so.
  const hacks = useStore((s) => s.annotations.groups[groupId]?.hacks ?? NO_HACKS);
  const results = useMemo(
    () => prepareResults(session, new Map(passed.map((r) => [r.id, r.passed])), hacks),
    [session, passed, hacks],
  );
  const accepted = results.accept.length > 0 && sameRanking(results.accept, ranking);
  return (
    <section
      className={styles.results}
      data-testid="pairwise.results"
      aria-label="Comparison results"
    >
      <h3 className={styles.resultsTitle}>
        Results {results.complete ? "" : `so far (${results.judged} comparison(s))`}
      </h3>
      <table className={styles.table}>
        <thead>
          <tr>
            <th
              scope="col"
              title="Place by Bradley-Terry strength, 1 = best; equal strengths share their mean place. The rows and the proposed ranking follow the same order."
            >
              Place
            </th>
            <th scope="col">Rollout</th>
            <th scope="col">Passed</th>
            <th scope="col">Win rate</th>
            <th scope="col">Strength (log)</th>
            <th scope="col">95% interval</th>
          </tr>
        </thead>
        <tbody>
          {results.rows.map((r) => (
            <tr key={r.id} data-testid="pairwise.result-row" data-rollout-id={r.id}>
              <td data-testid="pairwise.place">{r.place}</td>
              <td className={styles.id}>{r.id}</td>
              <td>{r.passed ? "yes" : "no"}</td>
              <td data-testid="pairwise.win-rate">{r.winRate}</td>
              <td data-testid="pairwise.strength" data-value={r.strengthValue}>
                {r.strength}
              </td>
              <td>{r.interval}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {results.dropped === "" ? null : (
        <p className={styles.muted} data-testid="pairwise.dropped">
          Strength intervals: {results.dropped}.
        </p>
      )}
      {results.cycles.length > 0 ? (
        <div className={styles.warning} role="status" data-testid="pairwise.cycles">
          <strong>
            {results.cycles.length} intransitive cycle{results.cycles.length === 1 ? "" : "s"}
          </strong>{" "}
          (these judgements contradict each other: check them before accepting the ranking):
          <ul>
            {results.cycles.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
        </div>
      ) : (
        <p className={styles.muted} data-testid="pairwise.no-cycles">
          No intransitive cycles.
        </p>
      )}
      <p data-testid="pairwise.proposed">
        Proposed ranking of the passes:{" "}
        {results.accept.length === 0
          ? "none (no rollout passes)"
          : results.accept.map((tier) => tier.join(" = ")).join(" > ")}
      </p>
      {results.hackWarnings.map((w) => (
        <p key={w} className={styles.warning} role="status" data-testid="pairwise.hack-warning">
          {w}: accepting ranks it so (with hack zeroing on, GAR zeroes it first).
        </p>
      ))}
      {results.leftOut.length > 0 ? (
        <p className={styles.muted} data-testid="pairwise.left-out">
          GAR ranks passes only: {results.leftOut.length} failure(s) are left out of the accepted
          ranking ({results.leftOut.join(", ")}).
        </p>
      ) : null}
      <button
        type="button"
        className={styles.primary}
        disabled={results.accept.length === 0 || accepted}
        data-testid="pairwise.accept"
        onClick={() => update(groupId, (a) => ({ ...a, ranking: results.accept }))}
      >
        {accepted ? "Ranking accepted" : "Accept ranking"}
      </button>
      {!accepted && ranking.length > 0 ? (
        <span className={styles.muted}>
          {" "}
          (replaces the group&apos;s current ranking; Ctrl+Z undoes)
        </span>
      ) : null}
    </section>
  );
}
