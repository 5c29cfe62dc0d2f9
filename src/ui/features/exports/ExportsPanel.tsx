/**
 * The Exports dataset panel: each training file (calibration set, rubrics, rewards, DPO pairs, the
 * annotations), its options, how many rows it has now, and a download. The files are what
 * `rollout-studio export` writes for the same data, annotations, settings and options (the panel
 * shows the command). Lazily loaded by ui/app/datasetPanels.ts.
 */
import { useMemo, useState } from "react";
import {
  EXPORT_DEFAULTS,
  REWARD_MODES,
  REWARD_SOURCES,
  TRANSCRIPT_FORMS,
  type Annotations,
  type ExportKind,
  type RewardMode,
  type RewardSource,
  type TranscriptForm,
} from "../../../core/index.ts";
import { formatIssue } from "../../../io/issues.ts";
import { useStore } from "../../../store/index.ts";
import { useDataset, useSettings } from "../../../store/hooks.ts";
import { downloadBlob } from "../../components/chartExport.ts";
import styles from "./Exports.module.css";
import {
  exportRunModes,
  exportText,
  prepareExports,
  prepareRunOptions,
  type ExportChoices,
} from "./prepareExports.ts";
import {
  useVerifierVerdicts,
  VERIFIER_SPEC_FILE_NAME,
} from "../../../store/verifiers/verifierVerdicts.ts";
import { exportCommandLine } from "./commandLine.ts";
import { StatusMessage, type Message } from "../../components/StatusMessage.tsx";

/**
 * The annotations file as the CLI writes it: validated, then serialised from the parsed state. The
 * validator (zod) loads on the first download, as the annotations bar loads it on import.
 */
async function annotationsJsonWriter(fileName: string): Promise<(a: Annotations) => string> {
  const { annotationsParse, annotationsToJson } =
    await import("../../../io/annotations/annotationsFile.ts");
  return (annotations) => {
    const parsed = annotationsParse(fileName, annotationsToJson(annotations));
    if (!parsed.ok) throw new Error(parsed.issues.map(formatIssue).join("\n"));
    return annotationsToJson(parsed.value);
  };
}

const SOURCE_LABEL: Readonly<Record<RewardSource, string>> = {
  human: "human ranking",
  judge: "judge run",
};
const TRANSCRIPT_LABEL: Readonly<Record<TranscriptForm, string>> = {
  messages: "whole conversations (message lists, tool calls included)",
  text: "final-message text (--text)",
};
const MODE_LABEL: Readonly<Record<RewardMode, string>> = {
  advantage: "advantage (GAR, equation 3)",
  reward: "reward (GRS, equation 2)",
};

export default function ExportsPanel() {
  const dataset = useDataset();
  const settings = useSettings();
  const annotations = useStore((s) => s.annotations);
  const updateAnnotationExtras = useStore((s) => s.updateAnnotationExtras);
  // With a reward spec applied the rollouts carry its components: the CLI needs the spec too.
  const specFile = useVerifierVerdicts((s) => (s.applied ? VERIFIER_SPEC_FILE_NAME : null));
  const [choices, setChoices] = useState<ExportChoices>({
    calibrationRun: null,
    rewards: EXPORT_DEFAULTS,
    transcripts: EXPORT_DEFAULTS.transcripts,
  });
  const [floorText, setFloorText] = useState(String(EXPORT_DEFAULTS.floor));
  const [message, setMessage] = useState<Message | null>(null);

  const groups = dataset?.groups;
  const file = dataset?.file ?? "";
  const indexed = dataset?.indexed ?? false;
  const entries = useMemo(
    () =>
      groups === undefined || indexed
        ? null
        : prepareExports(file, groups, annotations, settings, choices),
    [file, groups, indexed, annotations, settings, choices],
  );
  if (dataset === null) return null;

  const rewards = choices.rewards;
  const setRewards = (patch: Partial<ExportChoices["rewards"]>): void =>
    setChoices((c) => ({ ...c, rewards: { ...c.rewards, ...patch } }));

  const download = (kind: ExportKind, fileName: string): void => {
    annotationsJsonWriter(fileName)
      .then((annotationsJson) => {
        const out = exportText(
          kind,
          dataset.groups,
          annotations,
          settings,
          choices,
          annotationsJson,
        );
        if (out.calibration !== annotations.calibration)
          updateAnnotationExtras(() => ({ calibration: out.calibration }));
        const type = fileName.endsWith(".jsonl") ? "application/x-ndjson" : "application/json";
        downloadBlob(new Blob([out.text], { type }), fileName);
        setMessage({
          text:
            `Saved ${fileName}.` +
            (out.calibration !== annotations.calibration
              ? " Labelled rollouts that had no calibration split now have one, kept with the annotations."
              : ""),
          error: false,
        });
      })
      .catch((e: unknown) =>
        setMessage({
          text: `${fileName} could not be written: ${e instanceof Error ? e.message : String(e)}`,
          error: true,
        }),
      );
  };

  const runSelect = (kind: "calibration" | "rewards", value: string | null) => (
    <label className={styles.option}>
      Judge run{" "}
      <select
        data-testid={`exports.judge-run.${kind}`}
        value={value ?? ""}
        onChange={(e) => {
          const v = e.currentTarget.value === "" ? null : e.currentTarget.value;
          if (kind === "calibration") setChoices((c) => ({ ...c, calibrationRun: v }));
          else setRewards({ judgeRunId: v });
        }}
      >
        {prepareRunOptions(
          annotations.judgeRuns,
          exportRunModes(kind, choices),
          kind === "calibration",
        ).map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <section className={styles.panel} aria-label="Exports" data-testid="exports.panel">
      <header>
        <h2 className={styles.title}>Exports</h2>
        <p className={styles.note}>
          Under the current settings: pass threshold {settings.passThreshold}, GAR cap{" "}
          {settings.cap}, min factor {settings.minFactor}, hack zeroing{" "}
          {settings.hackZero ? "on" : "off"}
          {choices.transcripts === "text" ? `, completion text ${settings.completionRule}` : ""}.
        </p>
        <div className={styles.options}>
          <label className={styles.option}>
            Chat transcripts as{" "}
            <select
              data-testid="exports.transcripts"
              value={choices.transcripts}
              onChange={(e) => {
                const form = TRANSCRIPT_FORMS.find((f) => f === e.currentTarget.value);
                if (form !== undefined) setChoices((c) => ({ ...c, transcripts: form }));
              }}
            >
              {TRANSCRIPT_FORMS.map((f) => (
                <option key={f} value={f}>
                  {TRANSCRIPT_LABEL[f]}
                </option>
              ))}
            </select>
          </label>
        </div>
      </header>
      {entries === null ? (
        <p className={styles.note} data-testid="exports.indexed">
          {file} is read a group at a time (a large file), so the studio does not hold every rollout
          at once. Export its annotations from the annotations bar, then write any file with{" "}
          <code>{exportCommandLine(file, "calibration", settings, choices, specFile)}</code>.
        </p>
      ) : (
        <ul className={styles.list}>
          {entries.map((entry) => (
            <li
              key={entry.kind}
              className={styles.kind}
              data-testid={`exports.kind.${entry.kind}`}
              data-rows={entry.rows ?? undefined}
            >
              <div className={styles.head}>
                <h3 className={styles.kindTitle}>{entry.title}</h3>
                <span className={styles.count} data-testid={`exports.count.${entry.kind}`}>
                  {entry.rows === null
                    ? "–"
                    : `${entry.rows.toLocaleString("en-US")} ${entry.unit}`}
                </span>
                <button
                  type="button"
                  className={styles.button}
                  data-testid={`exports.download.${entry.kind}`}
                  disabled={entry.rows === null}
                  onClick={() => download(entry.kind, entry.fileName)}
                >
                  Download {entry.fileName}
                </button>
              </div>
              <p className={styles.description}>{entry.description}</p>
              {entry.kind === "calibration" || entry.kind === "rewards" ? (
                <div className={styles.options}>
                  {entry.kind === "rewards" ? (
                    <>
                      <label className={styles.option}>
                        Source{" "}
                        <select
                          data-testid="exports.source"
                          value={rewards.source}
                          onChange={(e) => {
                            const source = REWARD_SOURCES.find((s) => s === e.currentTarget.value);
                            if (source !== undefined)
                              setRewards({
                                source,
                                judgeRunId: null,
                                ...(source === "human" ? { mode: "advantage" as const } : {}),
                              });
                          }}
                        >
                          {REWARD_SOURCES.map((s) => (
                            <option key={s} value={s}>
                              {SOURCE_LABEL[s]}
                            </option>
                          ))}
                        </select>
                      </label>
                      <label className={styles.option}>
                        Mode{" "}
                        <select
                          data-testid="exports.mode"
                          value={rewards.mode}
                          onChange={(e) => {
                            const mode = REWARD_MODES.find((m) => m === e.currentTarget.value);
                            if (mode !== undefined)
                              setRewards({
                                mode,
                                judgeRunId: null,
                                ...(mode === "reward" ? { source: "judge" as const } : {}),
                              });
                          }}
                        >
                          {REWARD_MODES.map((m) => (
                            <option key={m} value={m}>
                              {MODE_LABEL[m]}
                            </option>
                          ))}
                        </select>
                      </label>
                      {rewards.source === "judge" ? runSelect("rewards", rewards.judgeRunId) : null}
                      {rewards.mode === "reward" ? (
                        <label className={styles.option}>
                          Floor{" "}
                          <input
                            type="number"
                            min={0}
                            max={0.99}
                            step={0.05}
                            className={styles.number}
                            data-testid="exports.floor"
                            value={floorText}
                            onChange={(e) => {
                              const text = e.currentTarget.value;
                              setFloorText(text);
                              const floor = text.trim() === "" ? NaN : Number(text);
                              setRewards({ floor });
                            }}
                          />
                        </label>
                      ) : null}
                    </>
                  ) : (
                    runSelect("calibration", choices.calibrationRun)
                  )}
                  {entry.run !== null ? (
                    <span className={styles.note} data-testid={`exports.run.${entry.kind}`}>
                      reads {entry.run}
                    </span>
                  ) : null}
                </div>
              ) : null}
              {entry.error !== null ? (
                <p
                  className={styles.error}
                  role="alert"
                  data-testid={`exports.error.${entry.kind}`}
                >
                  {entry.error}
                </p>
              ) : null}
              <code
                className={styles.command}
                title="The same file from the command line"
                data-testid={`exports.command.${entry.kind}`}
              >
                {exportCommandLine(file, entry.kind, settings, choices, specFile)}
              </code>
            </li>
          ))}
        </ul>
      )}
      <StatusMessage message={message} testId="exports.message" />
    </section>
  );
}
