/**
 * One verifier of the draft spec: its name, on/off, weight, and the kind's own settings (the
 * format gate's pattern and preset, exact match's ground-truth field, extraction and normalisation,
 * the JSON schema inline or from a field, what a length penalty wraps and how, the judge run a
 * judge verifier reads). Every change goes to `onChange`; nothing is applied until the panel's Apply.
 */
import { useId, useState, type ReactNode } from "react";
import {
  FORMAT_PRESET_REASONING_ANSWER,
  JSON_SCHEMA_DRAFTS,
  JUDGE_VERIFIER_MODES,
  type AnswerNormalization,
  type JudgeRunInfo,
  type Verifier,
  type VerifierProblem,
} from "../../../core/index.ts";
import { VERIFIER_KIND_LABELS, verifierJudgeRunChoices } from "./prepareVerifiers.ts";
import styles from "./Verifiers.module.css";

export interface VerifierEditorProps {
  readonly verifier: Verifier;
  readonly index: number;
  /** Metadata paths of the loaded rollouts, offered for fields. */
  readonly fields: readonly string[];
  /** What a length penalty may wrap. */
  readonly wrapChoices: readonly string[];
  /** The annotations' judge runs, which a judge verifier picks from. */
  readonly judgeRuns: readonly JudgeRunInfo[];
  readonly problems: readonly VerifierProblem[];
  readonly onChange: (next: Verifier) => void;
  readonly onRemove: () => void;
}

function Field({
  label,
  hint,
  children,
}: {
  label: string;
  hint?: string;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id} title={hint}>
        {label}
      </label>
      {children(id)}
    </div>
  );
}

function numberOr(value: number): number {
  return Number.isFinite(value) ? value : NaN;
}

/** A labelled number input; an empty or invalid entry reads as NaN (the spec's checks say so). */
function NumberField({
  label,
  hint,
  value,
  testId,
  onValue,
  min,
  max,
  step,
}: {
  label: string;
  hint?: string;
  value: number;
  testId: string;
  onValue: (value: number) => void;
  min?: number;
  max?: number;
  step?: number;
}) {
  return (
    <Field label={label} {...(hint === undefined ? {} : { hint })}>
      {(id) => (
        <input
          id={id}
          className={styles.number}
          type="number"
          min={min}
          max={max}
          step={step}
          defaultValue={value}
          data-testid={testId}
          onChange={(e) => onValue(numberOr(e.currentTarget.valueAsNumber))}
        />
      )}
    </Field>
  );
}

const NORMALIZE_LABELS: readonly [keyof AnswerNormalization, string, string][] = [
  ["trim", "trim", "strip surrounding whitespace from both (the library's .strip())"],
  ["ignoreCase", "ignore case", "compare lower-cased"],
  ["collapseWhitespace", "collapse spaces", "every run of whitespace counts as one space"],
  [
    "numeric",
    "as numbers",
    'when both read as decimal numbers, compare them as numbers ("42.0" = "42")',
  ],
];

/** The inline schema as JSON text, parsed on every edit; invalid text is shown, never applied. */
function SchemaText({
  schema,
  onSchema,
}: {
  schema: unknown;
  onSchema: (schema: unknown) => void;
}) {
  const [text, setText] = useState(() => JSON.stringify(schema, null, 2));
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id}>Schema (JSON, one for every row)</label>
      <textarea
        id={id}
        className={styles.code}
        rows={6}
        spellCheck={false}
        value={text}
        data-testid="verifiers.schema"
        onChange={(e) => {
          const next = e.currentTarget.value;
          setText(next);
          try {
            const parsed = JSON.parse(next) as unknown;
            setError(null);
            onSchema(parsed);
          } catch (err) {
            setError(err instanceof Error ? err.message : String(err));
          }
        }}
      />
      {error !== null ? (
        <p className={styles.problem} role="alert">
          Not JSON: {error}
        </p>
      ) : null}
    </div>
  );
}

export default function VerifierEditor({
  verifier: v,
  index,
  fields,
  wrapChoices,
  judgeRuns,
  problems,
  onChange,
  onRemove,
}: VerifierEditorProps) {
  const listId = useId();
  const fieldInput = (id: string, value: string, set: (field: string) => void, testId: string) => (
    <>
      <input
        id={id}
        className={styles.text}
        list={listId}
        value={value}
        placeholder="e.g. answer, reward_model.ground_truth"
        data-testid={testId}
        onChange={(e) => set(e.currentTarget.value)}
      />
      <datalist id={listId}>
        {fields.map((f) => (
          <option key={f} value={f} />
        ))}
      </datalist>
    </>
  );
  return (
    <fieldset
      className={styles.item}
      data-testid="verifiers.item"
      data-name={v.name}
      data-kind={v.kind}
    >
      <legend>
        {index + 1}. {VERIFIER_KIND_LABELS[v.kind]}
      </legend>
      <div className={styles.row}>
        <Field label="Name" hint="the reward component's name">
          {(id) => (
            <input
              id={id}
              className={styles.text}
              value={v.name}
              data-testid="verifiers.name"
              onChange={(e) => onChange({ ...v, name: e.currentTarget.value })}
            />
          )}
        </Field>
        <label className={styles.check}>
          <input
            type="checkbox"
            checked={v.enabled}
            data-testid="verifiers.enabled"
            onChange={(e) => onChange({ ...v, enabled: e.currentTarget.checked })}
          />
          on
        </label>
        <NumberField
          label="Weight"
          hint="the component's value is weight x score (the library's correctness reward is exact match with weight 2)"
          value={v.weight}
          testId="verifiers.weight"
          step={0.1}
          onValue={(x) => onChange({ ...v, weight: x })}
        />
        <button
          type="button"
          className={styles.button}
          data-testid="verifiers.remove"
          onClick={onRemove}
        >
          Remove
        </button>
      </div>

      {v.kind === "format" ? (
        <div className={styles.row}>
          <Field
            label="Pattern"
            hint="searched in the stripped text; anchor with ^ and $ to require the whole text"
          >
            {(id) => (
              <input
                id={id}
                className={`${styles.text} ${styles.wide}`}
                value={v.pattern}
                spellCheck={false}
                data-testid="verifiers.pattern"
                onChange={(e) => onChange({ ...v, pattern: e.currentTarget.value })}
              />
            )}
          </Field>
          <Field
            label="Flags"
            hint="any of i (case), m (multiline), s (dot matches newlines), u (Unicode)"
          >
            {(id) => (
              <input
                id={id}
                className={styles.flags}
                value={v.flags}
                data-testid="verifiers.flags"
                onChange={(e) => onChange({ ...v, flags: e.currentTarget.value })}
              />
            )}
          </Field>
          <button
            type="button"
            className={styles.button}
            data-testid="verifiers.preset"
            title={`${FORMAT_PRESET_REASONING_ANSWER.pattern} (flags ${FORMAT_PRESET_REASONING_ANSWER.flags})`}
            onClick={() => onChange({ ...v, ...FORMAT_PRESET_REASONING_ANSWER })}
          >
            &lt;reasoning&gt;…&lt;answer&gt; preset
          </button>
        </div>
      ) : null}

      {v.kind === "exact-match" ? (
        <>
          <div className={styles.row}>
            <Field label="Ground truth field" hint="a path into each rollout's metadata">
              {(id) =>
                fieldInput(id, v.field, (field) => onChange({ ...v, field }), "verifiers.field")
              }
            </Field>
            <Field
              label="Answer pattern"
              hint="the first capture group is the answer (else the whole match); empty: <answer>(.*?)</answer>"
            >
              {(id) => (
                <input
                  id={id}
                  className={`${styles.text} ${styles.wide}`}
                  value={v.pattern ?? ""}
                  placeholder="<answer>(.*?)</answer>"
                  spellCheck={false}
                  data-testid="verifiers.pattern"
                  onChange={(e) => {
                    const pattern = e.currentTarget.value;
                    onChange({ ...v, pattern: pattern === "" ? null : pattern });
                  }}
                />
              )}
            </Field>
            <Field label="Flags">
              {(id) => (
                <input
                  id={id}
                  className={styles.flags}
                  value={v.flags}
                  disabled={v.pattern === null}
                  data-testid="verifiers.flags"
                  onChange={(e) => onChange({ ...v, flags: e.currentTarget.value })}
                />
              )}
            </Field>
          </div>
          <div className={styles.row} role="group" aria-label="Normalisation">
            {NORMALIZE_LABELS.map(([key, label, hint]) => (
              <label key={key} className={styles.check} title={hint}>
                <input
                  type="checkbox"
                  checked={v.normalize[key]}
                  data-testid={`verifiers.normalize.${key}`}
                  onChange={(e) =>
                    onChange({
                      ...v,
                      normalize: { ...v.normalize, [key]: e.currentTarget.checked },
                    })
                  }
                />
                {label}
              </label>
            ))}
          </div>
        </>
      ) : null}

      {v.kind === "json-schema" ? (
        <>
          <div className={styles.row}>
            <Field label="Schema from">
              {(id) => (
                <select
                  id={id}
                  value={v.schema.from}
                  data-testid="verifiers.schema-source"
                  onChange={(e) =>
                    onChange({
                      ...v,
                      schema:
                        e.currentTarget.value === "field"
                          ? { from: "field", field: "" }
                          : { from: "inline", schema: { type: "object" } },
                    })
                  }
                >
                  <option value="inline">one schema for every row</option>
                  <option value="field">each row's field</option>
                </select>
              )}
            </Field>
            <Field label="Draft">
              {(id) => (
                <select
                  id={id}
                  value={v.draft}
                  data-testid="verifiers.draft"
                  onChange={(e) =>
                    onChange({
                      ...v,
                      draft: JSON_SCHEMA_DRAFTS.find((d) => d === e.currentTarget.value) ?? v.draft,
                    })
                  }
                >
                  {JSON_SCHEMA_DRAFTS.map((d) => (
                    <option key={d} value={d}>
                      {d}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {v.schema.from === "field" ? (
              <Field
                label="Schema field"
                hint="a metadata path holding a schema object, or JSON text of one"
              >
                {(id) =>
                  fieldInput(
                    id,
                    v.schema.from === "field" ? v.schema.field : "",
                    (field) => onChange({ ...v, schema: { from: "field", field } }),
                    "verifiers.schema-field",
                  )
                }
              </Field>
            ) : null}
          </div>
          {v.schema.from === "inline" ? (
            <SchemaText
              schema={v.schema.schema}
              onSchema={(schema) => onChange({ ...v, schema: { from: "inline", schema } })}
            />
          ) : null}
        </>
      ) : null}

      {v.kind === "length-penalty" ? (
        <div className={styles.row}>
          <Field label="Wraps" hint="the component it penalises and replaces">
            {(id) => (
              <select
                id={id}
                value={v.wraps}
                data-testid="verifiers.wraps"
                onChange={(e) => onChange({ ...v, wraps: e.currentTarget.value })}
              >
                {wrapChoices.includes(v.wraps) ? null : (
                  <option value={v.wraps}>{v.wraps || "(pick one)"}</option>
                )}
                {wrapChoices.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <NumberField
            label="Target length"
            value={v.target}
            testId="verifiers.target"
            min={0}
            onValue={(x) => onChange({ ...v, target: x })}
          />
          <NumberField
            label="Penalty per unit past it"
            value={v.penaltyPerUnit}
            testId="verifiers.per-unit"
            min={0}
            step={0.001}
            onValue={(x) => onChange({ ...v, penaltyPerUnit: x })}
          />
          <Field label="Unit" hint="words (the library's proxy for tokens) or characters">
            {(id) => (
              <select
                id={id}
                value={v.unit}
                data-testid="verifiers.unit"
                onChange={(e) =>
                  onChange({
                    ...v,
                    unit: e.currentTarget.value === "characters" ? "characters" : "words",
                  })
                }
              >
                <option value="words">words</option>
                <option value="characters">characters</option>
              </select>
            )}
          </Field>
        </div>
      ) : null}

      {v.kind === "judge" ? (
        <>
          <div className={styles.row}>
            <Field
              label="Judge mode"
              hint="whose verdicts: the rubric scorer (pass when solution x behavior reaches the score), the group grader (a hack fails) or the pairwise judge (wins at least half)"
            >
              {(id) => (
                <select
                  id={id}
                  value={v.mode}
                  data-testid="verifiers.judge-mode"
                  onChange={(e) =>
                    onChange({
                      ...v,
                      mode: JUDGE_VERIFIER_MODES.find((m) => m === e.currentTarget.value) ?? v.mode,
                      run: null,
                    })
                  }
                >
                  {JUDGE_VERIFIER_MODES.map((m) => (
                    <option key={m} value={m}>
                      {m}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field
              label="Judge run"
              hint="the stored run whose verdicts score the rollouts; the newest one follows new runs"
            >
              {(id) => (
                <select
                  id={id}
                  value={v.run ?? ""}
                  data-testid="verifiers.judge-run"
                  onChange={(e) => {
                    const run = e.currentTarget.value;
                    onChange({ ...v, run: run === "" ? null : run });
                  }}
                >
                  {verifierJudgeRunChoices(judgeRuns, v.mode, v.run).map((c) => (
                    <option key={c.value} value={c.value}>
                      {c.label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <NumberField
              label="Pass threshold"
              hint="a rollout whose file reward is below this is a fail whatever the judge says (as the judge's own calibration)"
              value={v.passThreshold}
              testId="verifiers.judge-threshold"
              step={0.1}
              onValue={(x) => onChange({ ...v, passThreshold: x })}
            />
            {v.mode === "rubric" ? (
              <NumberField
                label="Rubric pass score"
                hint="solution x behavior needed for a pass, in [0, 1]"
                value={v.rubricPassScore}
                testId="verifiers.judge-score"
                min={0}
                max={1}
                step={0.05}
                onValue={(x) => onChange({ ...v, rubricPassScore: x })}
              />
            ) : null}
          </div>
          {!judgeRuns.some((r) => r.mode === v.mode) ? (
            <p className={styles.problem} role="alert" data-testid="verifiers.judge-missing">
              No {v.mode} judge run yet: run the judge first (the LLM judge panel, with an endpoint
              or the offline heuristic grader). This verifier reads stored runs; it never calls a
              judge.
            </p>
          ) : null}
        </>
      ) : null}

      {problems.length > 0 ? (
        <ul className={styles.problems} data-testid="verifiers.item-problems">
          {problems.map((p, i) => (
            <li key={i}>
              {p.field}: {p.message}
            </li>
          ))}
        </ul>
      ) : null}
    </fieldset>
  );
}
