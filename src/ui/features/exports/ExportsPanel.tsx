/**
 * The Exports dataset panel: each training file (calibration set, rubrics, rewards, DPO pairs, the
 * annotations), its options, how many rows it has now, and a download. The files are what
 * `rollout-studio export` writes for the same data, annotations, settings and options (the panel
 * shows the command). Lazily loaded by ui/app/datasetPanels.ts.
 */
import { useMemo, useState } from "react";
import { EXPORT_DEFAULTS, type ExportKind } from "../../../core/index.ts";
import { annotationsJsonWriter } from "../../../store/annotationsFile.ts";
import { useStore } from "../../../store/index.ts";
import { useDataset, useSettings } from "../../../store/hooks.ts";
import { downloadBlob } from "../../components/chartExport.ts";
import styles from "./Exports.module.css";
import {
  exportText,
  prepareExports,
  type ExportChoices,
  type ExportEntry,
} from "./prepareExports.ts";
import {
  useVerifierVerdicts,
  VERIFIER_SPEC_FILE_NAME,
} from "../../../store/verifiers/verifierVerdicts.ts";
import { exportCommandLine } from "./commandLine.ts";
import { StatusMessage, type Message } from "../../components/StatusMessage.tsx";
import { KindOptions, MenuSelect, type KindOptionsProps } from "./ExportOptions.tsx";
import {
  countText,
  downloadType,
  failedText,
  savedText,
  settingsNote,
  TRANSCRIPT_OPTIONS,
} from "./exportsPanelModel.ts";

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
        const assignedSplits = out.calibration !== annotations.calibration;
        if (assignedSplits) updateAnnotationExtras(() => ({ calibration: out.calibration }));
        downloadBlob(new Blob([out.text], { type: downloadType(fileName) }), fileName);
        setMessage({ text: savedText(fileName, assignedSplits), error: false });
      })
      .catch((e: unknown) => setMessage({ text: failedText(fileName, e), error: true }));
  };
  const options: Omit<KindOptionsProps, "kind" | "run"> = {
    choices,
    runs: annotations.judgeRuns,
    floorText,
    onChoices: setChoices,
    onFloorText: setFloorText,
  };

  return (
    <section className={styles.panel} aria-label="Exports" data-testid="exports.panel">
      <header>
        <h2 className={styles.title}>Exports</h2>
        <p className={styles.note}>{settingsNote(settings, choices.transcripts)}</p>
        <div className={styles.options}>
          <MenuSelect
            label="Chat transcripts as"
            title="Whole conversations: prompt and completion as message lists in TRL's conversational form, tool calls and tool results included. Final-message text: the prompt as text and the completion as the text judges read (rollout-studio export --text)."
            selectClassName={styles.select}
            testId="exports.transcripts"
            value={choices.transcripts}
            options={TRANSCRIPT_OPTIONS}
            onPick={(transcripts) => setChoices((c) => ({ ...c, transcripts }))}
          />
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
            <ExportItem
              key={entry.kind}
              entry={entry}
              command={exportCommandLine(file, entry.kind, settings, choices, specFile)}
              options={options}
              onDownload={() => download(entry.kind, entry.fileName)}
            />
          ))}
        </ul>
      )}
      <StatusMessage message={message} testId="exports.message" />
    </section>
  );
}

/** One kind: its title, count and download, its options (calibration, rewards), why it cannot be written, and its command. */
function ExportItem({
  entry,
  command,
  options,
  onDownload,
}: {
  entry: ExportEntry;
  /** The same file from the command line. */
  command: string;
  options: Omit<KindOptionsProps, "kind" | "run">;
  onDownload: () => void;
}) {
  return (
    <li
      className={styles.kind}
      data-testid={`exports.kind.${entry.kind}`}
      data-rows={entry.rows ?? undefined}
    >
      <div className={styles.head}>
        <h3 className={styles.kindTitle}>{entry.title}</h3>
        <span className={styles.count} data-testid={`exports.count.${entry.kind}`}>
          {countText(entry)}
        </span>
        <button
          type="button"
          className={styles.button}
          data-testid={`exports.download.${entry.kind}`}
          disabled={entry.rows === null}
          onClick={onDownload}
        >
          Download {entry.fileName}
        </button>
      </div>
      <p className={styles.description}>{entry.description}</p>
      {entry.kind === "calibration" || entry.kind === "rewards" ? (
        <KindOptions kind={entry.kind} run={entry.run} {...options} />
      ) : null}
      {entry.error !== null ? (
        <p className={styles.error} role="alert" data-testid={`exports.error.${entry.kind}`}>
          {entry.error}
        </p>
      ) : null}
      <code
        className={styles.command}
        title="The same file from the command line"
        data-testid={`exports.command.${entry.kind}`}
      >
        {command}
      </code>
    </li>
  );
}
