/**
 * The lead's form for a new queue (issue 18): name, filter (mixed groups, zero-std groups, a step
 * range), every group the filter keeps or a seeded sample of N, the overlap share in percent,
 * blind mode and the annotators. The preview under it is the queue core builds from the loaded
 * run as the form stands; Create posts exactly that queue.
 */
import { useMemo, useState, type ReactNode } from "react";
import type { TeamGroupFacts } from "../../../core/index.ts";
import type { TeamUserReply } from "../../../io/view/teamApi.ts";
import type { TeamLeadWrite } from "../../../store/slices/teamLeadSlice.ts";
import type { TeamQueueSpecBody } from "../../../io/view/teamApi.ts";
import { StatusMessage, type Message } from "../../components/StatusMessage.tsx";
import {
  assignableAnnotators,
  planQueue,
  QUEUE_FORM_DEFAULT,
  type QueueForm,
} from "./leadQueueModel.ts";
import styles from "./TeamLead.module.css";

export interface LeadQueueFormProps {
  readonly facts: readonly TeamGroupFacts[];
  readonly users: readonly TeamUserReply[];
  /** Names of the queues that exist (a new one needs another). */
  readonly taken: readonly string[];
  readonly onCreate: (spec: TeamQueueSpecBody) => Promise<TeamLeadWrite>;
}

function Field({
  label,
  children,
  className,
}: {
  label: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <label className={className === undefined ? styles.field : `${styles.field} ${className}`}>
      {label}
      {children}
    </label>
  );
}

/** Which groups: the filter and the selection. */
function GroupFields({
  form,
  set,
}: {
  form: QueueForm;
  set: <K extends keyof QueueForm>(key: K, value: QueueForm[K]) => void;
}) {
  return (
    <fieldset className={styles.fieldset}>
      <legend>Groups</legend>
      <Field label="">
        <input
          type="checkbox"
          data-testid="team.queue-mixed"
          checked={form.mixedOnly}
          onChange={(e) => set("mixedOnly", e.target.checked)}
        />
        mixed only
      </Field>
      <Field label="">
        <input
          type="checkbox"
          data-testid="team.queue-zero-std"
          checked={form.zeroStdOnly}
          onChange={(e) => set("zeroStdOnly", e.target.checked)}
        />
        zero std only
      </Field>
      <Field label="steps">
        <input
          className={styles.number}
          data-testid="team.queue-step-from"
          aria-label="From step"
          placeholder="first"
          value={form.stepFrom}
          onChange={(e) => set("stepFrom", e.target.value)}
        />
        to
        <input
          className={styles.number}
          data-testid="team.queue-step-to"
          aria-label="To step"
          placeholder="last"
          value={form.stepTo}
          onChange={(e) => set("stepTo", e.target.value)}
        />
      </Field>
      <Field label="take">
        <select
          data-testid="team.queue-selection"
          value={form.selection}
          onChange={(e) => set("selection", e.target.value === "sample" ? "sample" : "all")}
        >
          <option value="all">every group</option>
          <option value="sample">a sample of</option>
        </select>
        {form.selection === "sample" ? (
          <input
            className={styles.number}
            data-testid="team.queue-sample-size"
            aria-label="Sample size"
            value={form.sampleSize}
            onChange={(e) => set("sampleSize", e.target.value)}
          />
        ) : null}
      </Field>
      <Field label="seed">
        <input
          className={styles.number}
          data-testid="team.queue-seed"
          value={form.seed}
          onChange={(e) => set("seed", e.target.value)}
        />
      </Field>
    </fieldset>
  );
}

export default function LeadQueueForm({ facts, users, taken, onCreate }: LeadQueueFormProps) {
  const people = useMemo(() => assignableAnnotators(users), [users]);
  const [form, setForm] = useState<QueueForm>(QUEUE_FORM_DEFAULT);
  // Until the lead picks, every annotator is chosen (in the order the server lists them).
  const [picked, setPicked] = useState<readonly string[] | null>(null);
  const annotators = useMemo(
    () => (picked ?? people).filter((p) => people.includes(p)),
    [picked, people],
  );
  const plan = useMemo(
    () => planQueue({ ...form, annotators }, facts, taken),
    [form, annotators, facts, taken],
  );
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message | null>(null);

  const set = <K extends keyof QueueForm>(key: K, value: QueueForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const toggle = (name: string, on: boolean) =>
    setPicked(people.filter((p) => (p === name ? on : annotators.includes(p))));

  const create = (): void => {
    if (!plan.ok) return;
    setBusy(true);
    setMessage(null);
    onCreate(plan.spec).then(
      (result) => {
        setBusy(false);
        if (result.kind === "done") {
          setMessage({ text: `Queue "${plan.spec.name}" made: ${plan.preview}.`, error: false });
          setForm((f) => ({ ...f, name: "" }));
        } else setMessage({ text: result.message, error: true });
      },
      (e: unknown) => {
        setBusy(false);
        setMessage({ text: String(e), error: true });
      },
    );
  };

  return (
    <form
      className={styles.form}
      aria-label="New queue"
      data-testid="team.queue-form"
      onSubmit={(e) => {
        e.preventDefault();
        create();
      }}
    >
      <div className={styles.fields}>
        <Field label="Name" className={styles.name}>
          <input
            data-testid="team.queue-name"
            value={form.name}
            placeholder="first pass"
            onChange={(e) => set("name", e.target.value)}
          />
        </Field>
      </div>
      <GroupFields form={form} set={set} />
      <fieldset className={styles.fieldset}>
        <legend>Annotators</legend>
        {people.length === 0 ? (
          <span className={styles.muted}>
            No annotator yet: add one with{" "}
            <code>rollout-studio users add NAME --role annotator</code>.
          </span>
        ) : (
          people.map((name) => (
            <Field key={name} label="">
              <input
                type="checkbox"
                data-testid="team.queue-annotator"
                data-user={name}
                checked={annotators.includes(name)}
                onChange={(e) => toggle(name, e.target.checked)}
              />
              {name}
            </Field>
          ))
        )}
      </fieldset>
      <div className={styles.fields}>
        <Field label="overlap %">
          <input
            className={styles.number}
            data-testid="team.queue-overlap"
            title="The share of the queue's groups given to two annotators: their agreement is measured there."
            value={form.overlapPercent}
            onChange={(e) => set("overlapPercent", e.target.value)}
          />
        </Field>
        <Field label="">
          <input
            type="checkbox"
            data-testid="team.queue-blind"
            checked={form.blind}
            onChange={(e) => set("blind", e.target.checked)}
          />
          blind (rewards and judge verdicts hidden until each annotator submits)
        </Field>
      </div>
      <p
        className={plan.ok ? styles.preview : styles.error}
        data-testid="team.queue-preview"
        data-ok={plan.ok}
        role="status"
      >
        {plan.ok ? plan.preview : plan.problem}
      </p>
      <div className={styles.actions}>
        <button
          type="submit"
          className={styles.primary}
          data-testid="team.queue-create"
          disabled={!plan.ok || busy}
        >
          {busy ? "Creating…" : "Create queue"}
        </button>
      </div>
      <StatusMessage message={message} testId="team.queue-message" />
    </form>
  );
}
