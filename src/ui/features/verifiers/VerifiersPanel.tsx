/**
 * The Verifiers panel (a dataset panel, loaded on first open): build a reward spec from the
 * GRPO library's verifiers (format gate, exact match, JSON schema, length penalty) and the rubric
 * judge's stored verdicts, apply it (each
 * enabled verifier adds a reward component to every loaded rollout, computed in a worker), see how
 * each came out and why, and how each rollout's advantage would change with each component dropped.
 * The spec exports as the JSON `rollout-studio analyze --verifiers` reads, and imports back.
 */
import { useEffect, useId, useMemo, useRef, useState } from "react";
import {
  COMPLETION_RULES,
  LOGGED_REWARD_RULES,
  type LoggedRewardRule,
  type RolloutGroup,
  componentDropAdvantages,
  verifierFieldPaths,
  verifierSpecProblems,
  VERIFIER_KINDS,
  type VerifierSpec,
} from "../../../core/index.ts";
import { formatIssue } from "../../../io/issues.ts";
import { verifierSpecParse, verifierSpecToJson } from "../../../io/verifiers/specFile.ts";
import { useSettings } from "../../../store/hooks.ts";
import { useStore } from "../../../store/index.ts";
import {
  useVerifierStore,
  verifierComponentNames,
  verifiersCancel,
  verifiersPreview,
} from "../../../store/verifiers/verifierStore.ts";
import type { VerifierStatus } from "../../../store/verifiers/verifierSync.ts";
import { VERIFIER_SPEC_FILE_NAME } from "../../../store/verifiers/verifierVerdicts.ts";
import VerifierEditor from "./VerifierEditor.tsx";
import {
  dropPartLabel,
  prepareDropView,
  prepareFlipView,
  prepareOutcomes,
  prepareTally,
  VERIFIER_KIND_LABELS,
  verifierNew,
  verifierWrapChoices,
} from "./prepareVerifiers.ts";
import styles from "./Verifiers.module.css";
import { StatusMessage, type Message } from "../../components/StatusMessage.tsx";

/** Metadata of this many rollouts is enough to offer the fields a dump has. */
const FIELD_SAMPLE = 500;

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** How each logged-reward rule is offered. */
const LOGGED_REWARD_LABELS: Readonly<Record<LoggedRewardRule, string>> = {
  auto: "auto: multiplied for a 0/1 reward, else added to",
  multiply: "multiplied: the logged reward × the verifiers",
  keep: "kept: the verifiers add to it",
  drop: "dropped: the verifiers alone",
};

/** The check before applying: none, running, or waiting for the user to confirm a flip. */
type ApplyCheck =
  | { readonly kind: "idle" }
  | { readonly kind: "checking" }
  | {
      readonly kind: "confirm" | "applied";
      readonly spec: VerifierSpec;
      readonly view: ReturnType<typeof prepareFlipView>;
      /** What to do once it is applied (the import's message). */
      readonly done?: () => void;
    }
  | { readonly kind: "error"; readonly message: string };

function statusText(status: VerifierStatus): string {
  switch (status.kind) {
    case "off":
      return "No verifier applied: the rollouts have the file's rewards.";
    case "running":
      return `Scoring ${status.rollouts.toLocaleString("en-US")} rollouts in a worker…`;
    case "done":
      return `Applied to ${status.rollouts.toLocaleString("en-US")} rollouts: the components below are in every total, advantage and chart.`;
    case "invalid":
      return "The applied spec does not fit this data, so the rollouts have the file's rewards:";
    case "error":
      return `Not applied: ${status.message}`;
  }
}

export default function VerifiersPanel() {
  const spec = useVerifierStore((s) => s.spec);
  const draft = useVerifierStore((s) => s.draft);
  const status = useVerifierStore((s) => s.status);
  const results = useVerifierStore((s) => s.results);
  const fileComponents = useVerifierStore((s) => s.fileComponents);
  const setDraft = useVerifierStore((s) => s.setDraft);
  const applySpec = useVerifierStore((s) => s.applySpec);
  const groups = useStore((s) => (s.load.status === "ready" ? s.load.groups : null));
  const dataFile = useStore((s) => (s.load.status === "ready" ? s.load.dataset.file : ""));
  const selectedId = useStore((s) => s.selectedGroupId);
  const judgeRuns = useStore((s) => s.annotations.judgeRuns);
  const settings = useSettings();
  const annotationGroups = useStore((s) => s.annotations.groups);
  const [check, setCheck] = useState<ApplyCheck>({ kind: "idle" });
  const checking = useRef<AbortController | null>(null);
  useEffect(() => () => checking.current?.abort(), []);
  // Uncontrolled number inputs start over when the draft is replaced (import, revert, removal).
  const [revision, setRevision] = useState(0);
  const [message, setMessage] = useState<Message | null>(null);
  const importId = useId();
  const textId = useId();
  const loggedId = useId();

  const fields = useMemo(() => {
    if (groups === null) return [];
    const metas = [];
    for (const g of groups.values()) {
      for (const r of g.rollouts) {
        metas.push(r.meta);
        if (metas.length >= FIELD_SAMPLE) break;
      }
      if (metas.length >= FIELD_SAMPLE) break;
    }
    const paths = verifierFieldPaths(metas);
    // The format's own answer field (native `answer`), which the exact match reads after the metadata.
    const hasAnswer = [...groups.values()].some((g) => g.rollouts.some((r) => r.answer !== null));
    return hasAnswer && !paths.includes("answer") ? ["answer", ...paths] : paths;
  }, [groups]);
  const problems = useMemo(
    () => verifierSpecProblems(draft, fileComponents, judgeRuns),
    [draft, fileComponents, judgeRuns],
  );
  const judgeRunInfos = useMemo(() => judgeRuns.map((r) => r.info), [judgeRuns]);
  const changed = JSON.stringify(draft) !== JSON.stringify(spec);

  const tally = useMemo(
    () => prepareTally(spec, results.names, results.byRollout.values()),
    [spec, results],
  );
  const groupList = useMemo(() => (groups === null ? [] : [...groups.values()]), [groups]);
  const selected: RolloutGroup | null =
    selectedId === null ? null : (groups?.get(selectedId) ?? null);
  const drop = useMemo(() => {
    if (selected === null) return null;
    const index = groupList.indexOf(selected);
    const table = componentDropAdvantages(groupList, settings, {
      added: verifierComponentNames(spec),
      loggedReward:
        results.resolution?.rule ?? (spec.loggedReward === "auto" ? "keep" : spec.loggedReward),
      logged: results.logged,
    });
    return prepareDropView(table, index, selected);
  }, [groupList, selected, settings, spec, results]);
  const outcomes = useMemo(
    () => (selected === null ? [] : prepareOutcomes(selected, results.names, results.byRollout)),
    [selected, results],
  );

  const update = (next: VerifierSpec): void => {
    setDraft(next);
    if (check.kind === "confirm") setCheck({ kind: "idle" });
  };
  /**
   * Apply a spec once it is known who it makes pass differently: at once when nobody, else after
   * the user confirms the flips listed (a spec that does not fit the data is applied, and the
   * status says why it is not in force).
   */
  const requestApply = (next: VerifierSpec, done?: () => void): void => {
    checking.current?.abort();
    const controller = new AbortController();
    checking.current = controller;
    setCheck({ kind: "checking" });
    verifiersPreview(next, settings, controller.signal).then(
      (preview) => {
        if (controller.signal.aborted) return;
        if (preview.kind === "invalid") {
          setCheck({ kind: "idle" });
          applySpec(next);
          done?.();
          return;
        }
        const view = prepareFlipView(preview.report, preview.resolution, annotationGroups);
        if (view.none) {
          applySpec(next);
          done?.();
        }
        setCheck({ kind: view.none ? "applied" : "confirm", spec: next, view, done });
      },
      (e: unknown) => {
        if (controller.signal.aborted) return;
        setCheck({
          kind: "error",
          message: `The check of who passes failed, so nothing was applied: ${e instanceof Error ? e.message : String(e)}`,
        });
      },
    );
  };
  const replaceDraft = (next: VerifierSpec): void => {
    setDraft(next);
    setRevision((r) => r + 1);
  };

  return (
    <section className={styles.panel} data-testid="verifiers" aria-label="Verifiers">
      <p className={styles.intro}>
        Reward functions from the GRPO reward-function library, run over every loaded rollout in a
        worker. Each enabled verifier adds a named reward component (weight × score); with reward
        weights off, the logged reward is multiplied by them (auto, for a 0/1 reward), added to or
        dropped. Apply says first who would pass differently. Inspect them against your labels
        before any training run: the calibration view lists each verifier as a judge.
      </p>
      <div
        className={styles.status}
        data-testid="verifiers.status"
        data-status={status.kind}
        role="status"
      >
        {statusText(status)}
        {status.kind === "running" ? (
          <button
            type="button"
            className={styles.button}
            onClick={verifiersCancel}
            data-testid="verifiers.stop"
          >
            Stop
          </button>
        ) : null}
        {status.kind === "invalid" ? (
          <ul className={styles.problems}>
            {status.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        ) : null}
      </div>

      <div className={styles.row}>
        <div className={styles.field}>
          <label htmlFor={textId} title="which text of a chat transcript the verifiers read">
            Text read
          </label>
          <select
            id={textId}
            value={draft.text}
            data-testid="verifiers.text"
            onChange={(e) =>
              update({
                ...draft,
                text: COMPLETION_RULES.find((r) => r === e.currentTarget.value) ?? draft.text,
              })
            }
          >
            {COMPLETION_RULES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
        <div className={styles.field}>
          <label htmlFor={loggedId}>Logged reward</label>
          <select
            id={loggedId}
            value={draft.loggedReward}
            data-testid="verifiers.logged"
            onChange={(e) =>
              update({
                ...draft,
                loggedReward:
                  LOGGED_REWARD_RULES.find((r) => r === e.currentTarget.value) ??
                  draft.loggedReward,
              })
            }
          >
            {LOGGED_REWARD_RULES.map((r) => (
              <option key={r} value={r}>
                {LOGGED_REWARD_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        {results.resolution !== null && !changed ? (
          <p className={styles.muted} data-testid="verifiers.rule">
            {results.resolution.reason}
          </p>
        ) : null}
      </div>

      {draft.verifiers.map((v, i) => (
        <VerifierEditor
          key={`${revision}:${i}:${v.kind}`}
          verifier={v}
          index={i}
          fields={fields}
          wrapChoices={verifierWrapChoices(draft, fileComponents, v.name)}
          judgeRuns={judgeRunInfos}
          problems={problems.filter((p) => p.index === i)}
          onChange={(next) =>
            update({ ...draft, verifiers: draft.verifiers.map((w, j) => (j === i ? next : w)) })
          }
          onRemove={() =>
            replaceDraft({ ...draft, verifiers: draft.verifiers.filter((_, j) => j !== i) })
          }
        />
      ))}

      <div className={styles.row}>
        {VERIFIER_KINDS.map((kind) => (
          <button
            key={kind}
            type="button"
            className={styles.button}
            data-testid={`verifiers.add.${kind}`}
            onClick={() =>
              update({
                ...draft,
                verifiers: [...draft.verifiers, verifierNew(kind, draft, fileComponents, fields)],
              })
            }
          >
            + {VERIFIER_KIND_LABELS[kind]}
          </button>
        ))}
      </div>

      <div className={styles.row}>
        <button
          type="button"
          className={`${styles.button} ${styles.primary}`}
          disabled={!changed || problems.length > 0 || check.kind === "checking"}
          title={
            problems.length > 0
              ? "fix the problems above first"
              : "checks who would pass differently first, and asks when anyone would"
          }
          data-testid="verifiers.apply"
          onClick={() => {
            setMessage(null);
            requestApply(draft);
          }}
        >
          {check.kind === "checking" ? "Checking who passes…" : "Apply"}
        </button>
        <button
          type="button"
          className={styles.button}
          disabled={!changed}
          data-testid="verifiers.revert"
          onClick={() => replaceDraft(spec)}
        >
          Revert to the applied spec
        </button>
        <button
          type="button"
          className={styles.button}
          data-testid="verifiers.export"
          onClick={() => download(VERIFIER_SPEC_FILE_NAME, verifierSpecToJson(spec))}
          title="the applied spec, as rollout-studio analyze --verifiers reads it"
        >
          Export spec
        </button>
        <input
          id={importId}
          className={styles.fileInput}
          type="file"
          accept=".json,application/json"
          data-testid="verifiers.import"
          onChange={(e) => {
            const input = e.currentTarget;
            const file = input.files?.[0];
            input.value = "";
            if (file === undefined) return;
            file.text().then(
              (text) => {
                const parsed = verifierSpecParse(file.name, text);
                if (!parsed.ok) {
                  setMessage({ text: parsed.issues.map(formatIssue).join("\n"), error: true });
                  return;
                }
                setDraft(parsed.value);
                setRevision((r) => r + 1);
                requestApply(parsed.value, () =>
                  setMessage({ text: `Applied ${file.name}.`, error: false }),
                );
              },
              (err: unknown) =>
                setMessage({
                  text: `${file.name} could not be read: ${err instanceof Error ? err.message : String(err)}`,
                  error: true,
                }),
            );
          }}
        />
        <label htmlFor={importId} className={styles.button}>
          Import spec…
        </label>
        {changed ? <span className={styles.muted}>Changes not applied yet.</span> : null}
      </div>
      <StatusMessage message={message} testId="verifiers.message" />
      {check.kind === "error" ? (
        <StatusMessage
          message={{ text: check.message, error: true }}
          testId="verifiers.check-error"
        />
      ) : null}
      {check.kind === "confirm" || check.kind === "applied" ? (
        <FlipCheck
          view={check.view}
          pending={check.kind === "confirm"}
          onConfirm={() => {
            applySpec(check.spec);
            check.done?.();
            setCheck({ ...check, kind: "applied" });
          }}
          onCancel={() => setCheck({ kind: "idle" })}
        />
      ) : null}

      {tally.length > 0 ? (
        <table className={styles.table} data-testid="verifiers.tally">
          <caption>How each verifier came out{dataFile === "" ? "" : ` on ${dataFile}`}</caption>
          <thead>
            <tr>
              <th scope="col">verifier</th>
              <th scope="col">pass</th>
              <th scope="col">fail</th>
              <th scope="col" title="rows it does not apply to (no ground truth, no schema)">
                n/a
              </th>
              <th scope="col">pass rate</th>
              <th scope="col">first n/a reason</th>
            </tr>
          </thead>
          <tbody>
            {tally.map((t) => (
              <tr key={t.name} data-testid="verifiers.tally.row" data-name={t.name}>
                <th scope="row">
                  {t.name}
                  {t.role === "input" ? (
                    <span className={styles.muted}> (input of a penalty)</span>
                  ) : null}
                </th>
                <td data-testid="verifiers.tally.pass">{t.pass}</td>
                <td data-testid="verifiers.tally.fail">{t.fail}</td>
                <td>{t.notApplicable}</td>
                <td>{t.passRate}</td>
                <td className={styles.note}>{t.note}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}

      {selected !== null && outcomes.length > 0 && results.names.length > 0 ? (
        <table className={styles.table} data-testid="verifiers.outcomes">
          <caption>What each verifier said about group {selected.id}</caption>
          <thead>
            <tr>
              <th scope="col">rollout</th>
              {results.names.map((n) => (
                <th key={n} scope="col">
                  {n}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {outcomes.map((row) => (
              <tr key={row.id} data-testid="verifiers.outcomes.row" data-rollout-id={row.id}>
                <th scope="row">{row.id}</th>
                {row.cells.map((c) => (
                  <td
                    key={c.name}
                    data-verdict={c.pass === null ? "n/a" : c.pass ? "pass" : "fail"}
                    title={c.note}
                  >
                    {c.value === "" ? "n/a" : c.value}
                    {c.note !== "" ? <span className={styles.note}> {c.note}</span> : null}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}

      {drop !== null && selected !== null ? (
        <div data-testid="verifiers.drop">
          <h3 className={styles.heading}>If a component were dropped: group {selected.id}</h3>
          {drop.parts.length === 0 ? (
            <p className={styles.muted}>{drop.empty}</p>
          ) : (
            <table className={styles.table}>
              <caption>
                Each rollout's advantage under the current settings, and the change without each
                part (a sign flip is marked)
              </caption>
              <thead>
                <tr>
                  <th scope="col">rollout</th>
                  <th scope="col">advantage</th>
                  {drop.parts.map((p) => (
                    <th key={p} scope="col">
                      without {dropPartLabel(p)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {drop.rows.map((row) => (
                  <tr key={row.id} data-testid="verifiers.drop.row" data-rollout-id={row.id}>
                    <th scope="row">{row.id}</th>
                    <td data-testid="verifiers.drop.advantage">{row.advantage}</td>
                    {row.cells.map((c) => (
                      <td
                        key={c.part}
                        data-part={c.part}
                        data-flips={c.flips ? "true" : undefined}
                        className={c.flips ? styles.flip : undefined}
                        title={`${c.without} without ${dropPartLabel(c.part)}`}
                      >
                        {c.delta}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      ) : null}
    </section>
  );
}

/**
 * Who a spec makes pass differently, shown before it is applied (pending: Apply anyway or go back)
 * and kept in view after.
 */
function FlipCheck({
  view,
  pending,
  onConfirm,
  onCancel,
}: {
  view: ReturnType<typeof prepareFlipView>;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <section
      className={view.none ? styles.flipsNone : styles.flips}
      data-testid="verifiers.flips"
      data-state={pending ? "pending" : "applied"}
      data-count={view.rows.length}
      aria-label="Who passes differently"
      role={pending ? "alertdialog" : "status"}
    >
      <p className={styles.flipsHeadline} data-testid="verifiers.flips.summary">
        {view.headline}
        {!pending && !view.none ? " Applied." : ""}
      </p>
      <p className={styles.muted} data-testid="verifiers.flips.rule">
        {view.rule}
      </p>
      {view.againstLabels > 0 ? (
        <p className={styles.flipsWarn} data-testid="verifiers.flips.labels">
          {view.againstLabels} of them go against your pass/fail label.
        </p>
      ) : null}
      {pending ? (
        <div className={styles.row}>
          <button
            type="button"
            className={`${styles.button} ${styles.primary}`}
            data-testid="verifiers.flips.confirm"
            onClick={onConfirm}
          >
            Apply anyway ({view.rows.length} change{view.rows.length === 1 ? "" : "s"} pass/fail)
          </button>
          <button
            type="button"
            className={styles.button}
            data-testid="verifiers.flips.cancel"
            onClick={onCancel}
          >
            Back to editing
          </button>
        </div>
      ) : null}
      {view.groups.length > 0 ? (
        <div
          className={styles.flipsScroll}
          role="region"
          aria-label="Passes per group"
          // A scrolling region must be reachable from the keyboard.
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
          tabIndex={0}
        >
          <table className={styles.table}>
            <caption>Passes per group, before → after</caption>
            <thead>
              <tr>
                <th scope="col">group</th>
                <th scope="col">passes</th>
                <th scope="col">your ranking</th>
              </tr>
            </thead>
            <tbody>
              {view.groups.map((g) => (
                <tr key={g.id} data-testid="verifiers.flips.group" data-group-id={g.id}>
                  <th scope="row">{g.id}</th>
                  <td data-testid="verifiers.flips.passes">{g.passes}</td>
                  <td className={styles.note}>{g.ranking}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {view.rows.length > 0 ? (
        <details open={view.rows.length <= 12}>
          <summary>Each rollout, and why</summary>
          <ul className={styles.flipList}>
            {view.rows.map((r) => (
              <li
                key={r.id}
                data-testid="verifiers.flips.row"
                data-rollout-id={r.id}
                data-direction={r.direction}
                data-against-label={r.againstLabel ? "true" : undefined}
              >
                <strong>{r.id}</strong> {r.change}: {r.why}
                {r.label !== null ? (
                  <span className={r.againstLabel ? styles.flipsWarn : styles.muted}>
                    {" "}
                    (your label: {r.label})
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
