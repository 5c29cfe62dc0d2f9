/**
 * The Verifiers panel (a dataset panel, loaded on first open): build a reward spec from the
 * GRPO library's verifiers (format gate, exact match, JSON schema, length penalty) and the rubric
 * judge's stored verdicts, apply it (each enabled verifier adds a reward component to every loaded
 * rollout, computed in a worker and shown over the file's data), see how each came out and why,
 * and how each rollout's advantage would change with each component dropped. The spec exports as
 * the JSON `rollout-studio analyze --verifiers` reads, and imports back. Decisions are in
 * ./verifiersPanelModel.ts and ./prepareVerifiers.ts; this composes what they return.
 */
import { useMemo, useState } from "react";
import { VERIFIER_KINDS, verifierSpecProblems, type VerifierSpec } from "../../../core/index.ts";
import { useLoadedGroups, useSettings } from "../../../store/hooks.ts";
import { useStore } from "../../../store/index.ts";
import type { VerifierStatus } from "../../../store/slices/verifierSlice.ts";
import { verifiersCancel } from "../../../store/verifiers/verifierStore.ts";
import { StatusMessage, type Message } from "../../components/StatusMessage.tsx";
import FlipCheck from "./FlipCheck.tsx";
import SpecActions from "./SpecActions.tsx";
import SpecOptions from "./SpecOptions.tsx";
import { useApplyCheck } from "./useApplyCheck.ts";
import VerifierEditor from "./VerifierEditor.tsx";
import { DropTable, OutcomesTable, TallyTable } from "./VerifierResultTables.tsx";
import {
  prepareOutcomes,
  prepareTally,
  VERIFIER_KIND_LABELS,
  verifierNew,
  verifierWrapChoices,
} from "./prepareVerifiers.ts";
import styles from "./Verifiers.module.css";
import {
  verifierDraftFields,
  verifierDropView,
  verifierStatusText,
} from "./verifiersPanelModel.ts";

function StatusLine({ status }: { status: VerifierStatus }) {
  return (
    <div
      className={styles.status}
      data-testid="verifiers.status"
      data-status={status.kind}
      role="status"
    >
      {verifierStatusText(status)}
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
  );
}

/** What the applied spec did over the data views show, and for the selected group. */
function Results() {
  const { spec, results } = useStore((s) => s.verifiers);
  const groups = useLoadedGroups();
  const dataFile = useStore((s) => (s.load.status === "ready" ? s.load.dataset.file : ""));
  const selectedId = useStore((s) => s.selectedGroupId);
  const settings = useSettings();
  const tally = useMemo(
    () => prepareTally(spec, results.names, results.byRollout.values()),
    [spec, results],
  );
  const groupList = useMemo(() => (groups === null ? [] : [...groups.values()]), [groups]);
  const selected = selectedId === null ? null : (groups?.get(selectedId) ?? null);
  const drop = useMemo(
    () => verifierDropView(groupList, selected, settings, spec, results),
    [groupList, selected, settings, spec, results],
  );
  const outcomes = useMemo(
    () => (selected === null ? [] : prepareOutcomes(selected, results.names, results.byRollout)),
    [selected, results],
  );
  return (
    <>
      <TallyTable tally={tally} dataFile={dataFile} />
      {selected !== null ? (
        <OutcomesTable groupId={selected.id} names={results.names} outcomes={outcomes} />
      ) : null}
      {drop !== null && selected !== null ? <DropTable groupId={selected.id} drop={drop} /> : null}
    </>
  );
}

export default function VerifiersPanel() {
  const { spec, draft, results, status, fileComponents } = useStore((s) => s.verifiers);
  const setDraft = useStore((s) => s.setVerifierDraft);
  const applySpec = useStore((s) => s.applyVerifierSpec);
  const groups = useLoadedGroups();
  const judgeRuns = useStore((s) => s.annotations.judgeRuns);
  const annotationGroups = useStore((s) => s.annotations.groups);
  const settings = useSettings();
  const apply = useApplyCheck(applySpec, settings, annotationGroups);
  // Uncontrolled number inputs start over when the draft is replaced (import, revert, removal).
  const [revision, setRevision] = useState(0);
  const [message, setMessage] = useState<Message | null>(null);

  const fields = useMemo(() => verifierDraftFields(groups), [groups]);
  const problems = useMemo(
    () => verifierSpecProblems(draft, fileComponents, judgeRuns),
    [draft, fileComponents, judgeRuns],
  );
  const judgeRunInfos = useMemo(() => judgeRuns.map((r) => r.info), [judgeRuns]);
  const changed = JSON.stringify(draft) !== JSON.stringify(spec);

  const update = (next: VerifierSpec): void => {
    setDraft(next);
    apply.edited();
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
      <StatusLine status={status} />
      <SpecOptions
        draft={draft}
        rule={results.resolution !== null && !changed ? results.resolution.reason : null}
        onChange={update}
      />

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

      <SpecActions
        spec={spec}
        changed={changed}
        problems={problems.length}
        checking={apply.check.kind === "checking"}
        onApply={() => {
          setMessage(null);
          apply.request(draft);
        }}
        onRevert={() => replaceDraft(spec)}
        onImported={(imported, fileName) => {
          replaceDraft(imported);
          apply.request(imported, () => setMessage({ text: `Applied ${fileName}.`, error: false }));
        }}
        onMessage={setMessage}
      />
      <StatusMessage message={message} testId="verifiers.message" />
      {apply.check.kind === "error" ? (
        <StatusMessage
          message={{ text: apply.check.message, error: true }}
          testId="verifiers.check-error"
        />
      ) : null}
      {apply.check.kind === "confirm" || apply.check.kind === "applied" ? (
        <FlipCheck
          view={apply.check.view}
          pending={apply.check.kind === "confirm"}
          onConfirm={apply.confirm}
          onCancel={apply.dismiss}
        />
      ) : null}

      <Results />
    </section>
  );
}
