/**
 * Import and export of the annotations file (version 1, the format `rollout-studio analyze
 * --annotations` reads). An import replaces the current annotations; ids that name nothing in the
 * loaded data are reported, never dropped silently.
 */
import { lazy, Suspense, useId, useMemo, useState } from "react";
import { ANNOTATIONS_EMPTY, annotationsResolve, type Annotations } from "../../../core/index.ts";
import { formatIssue } from "../../../io/issues.ts";
import { annotationsSync, usePersistStatus, useStore } from "../../../store/index.ts";
import type { ServerSaveState } from "../../../store/persistence/serverAnnotations.ts";
import { useDataset, useLoadedGroups } from "../../../store/hooks.ts";
import styles from "./Annotations.module.css";
import { StatusMessage, type Message } from "../../components/StatusMessage.tsx";

// The agreement report loads with the file to merge, not with the first page.
const MergeReport = lazy(() => import("./MergeReport.tsx"));

/** The download's file name: the data file's name without its extension, plus `.annotations.json`. */
export function annotationsFileName(dataFile: string): string {
  const base = dataFile.replace(/^.*[\\/]/, "").replace(/\.[^.]+$/, "");
  return `${base === "" ? "rollouts" : base}.annotations.json`;
}

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** What the save status says in view mode: the server's file, where they are saved. */
function serverStatusText(server: Exclude<ServerSaveState, { status: "off" }>): string | null {
  switch (server.status) {
    case "reading":
      return `Reading ${server.path}…`;
    case "saved":
      return server.pending ? `Saving to ${server.path}…` : `Saved to ${server.path}`;
    default:
      return null;
  }
}

/**
 * View mode: whether the annotations are on the server (`<state dir>/annotations.json`), with
 * the browser's offline copy as the fallback the messages name.
 */
function ServerSaveStatus({ server }: { server: Exclude<ServerSaveState, { status: "off" }> }) {
  const persist = usePersistStatus((s) => s.persist);
  return (
    <>
      <span
        className={styles.status}
        data-testid="annotations.saved"
        data-status={server.status}
        data-target="server"
        data-pending={server.status === "saved" ? (server.pending ? 1 : 0) : undefined}
        title="A copy is kept in this browser too"
      >
        {serverStatusText(server)}
      </span>
      {server.status === "error" || server.status === "invalid" ? (
        <p className={styles.error} role="alert" data-testid="annotations.persist-error">
          {server.message}
        </p>
      ) : null}
      {persist.status === "error" ? (
        <p className={styles.error} role="alert">
          {persist.message}
        </p>
      ) : null}
    </>
  );
}

/**
 * Whether the annotations are saved in this browser. A component of its own: the status changes
 * twice per save (every ranking keystroke), and only this part of the bar needs to render then.
 */
function SaveStatus() {
  const persist = usePersistStatus((s) => s.persist);
  const server = usePersistStatus((s) => s.server);
  if (server.status !== "off") return <ServerSaveStatus server={server} />;
  return (
    <>
      <span
        className={styles.status}
        data-testid="annotations.saved"
        data-status={persist.status}
        data-pending={persist.status === "saved" ? persist.pending : undefined}
      >
        {persist.status === "saved"
          ? persist.pending > 0
            ? "Saving…"
            : persist.restored > 0
              ? `Saved in this browser (${persist.restored} group(s) restored)`
              : "Saved in this browser"
          : persist.status === "restoring"
            ? "Looking for saved annotations…"
            : persist.status === "off"
              ? "Not saved in this browser"
              : null}
      </span>
      {persist.status === "error" ? (
        <p className={styles.error} role="alert" data-testid="annotations.persist-error">
          {persist.message}
        </p>
      ) : null}
      {persist.status === "saved" && persist.rejected.length > 0 ? (
        <p className={styles.error} role="alert">
          Saved annotations of {persist.rejected.length} group(s) could not be read and were left
          out: {persist.rejected.join(", ")}
        </p>
      ) : null}
    </>
  );
}

export default function AnnotationsFile() {
  const dataset = useDataset();
  const groups = useLoadedGroups();
  // The count only: the file is read from the store when exported, so a ranking keystroke
  // does not re-render this bar.
  const count = useStore((s) => Object.keys(s.annotations.groups).length);
  const setAnnotations = useStore((s) => s.setAnnotations);
  const [message, setMessage] = useState<Message | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [merging, setMerging] = useState<{ fileName: string; other: Annotations } | null>(null);
  const inputId = useId();
  const mergeId = useId();
  const parsedGroups = useMemo(() => (groups === null ? [] : [...groups.values()]), [groups]);
  if (dataset === null || groups === null) return null;

  const importFile = async (file: File): Promise<void> => {
    // The file validator brings zod: loaded when a file is imported, not with the first page.
    const { annotationsParse } = await import("../../../io/annotations/annotationsFile.ts");
    const parsed = annotationsParse(file.name, await file.text());
    if (!parsed.ok) {
      setMessage({ text: parsed.issues.map(formatIssue).join("\n"), error: true });
      return;
    }
    setAnnotations(parsed.value);
    const resolved = annotationsResolve([...groups.values()], parsed.value);
    const imported = Object.keys(parsed.value.groups).length;
    // An indexed file's unparsed groups cannot be checked rollout by rollout yet: only their ids.
    const known = new Set(dataset.summaries.map((g) => g.id));
    const problems = [
      ...resolved.unknown.filter((p) => groups.has(p.groupId) || !known.has(p.groupId)),
      ...resolved.warnings,
    ];
    setMessage({
      text:
        `Imported annotations of ${imported} group(s) from ${file.name}.` +
        (problems.length > 0
          ? ` ${problems.length} problem(s):\n${problems.map((p) => p.message).join("\n")}`
          : ""),
      error: problems.length > 0,
    });
  };

  const mergeFile = async (file: File): Promise<void> => {
    const { annotationsParse } = await import("../../../io/annotations/annotationsFile.ts");
    const parsed = annotationsParse(file.name, await file.text());
    if (!parsed.ok) {
      setMerging(null);
      setMessage({ text: parsed.issues.map(formatIssue).join("\n"), error: true });
      return;
    }
    setMessage(null);
    setMerging({ fileName: file.name, other: parsed.value });
  };

  return (
    <div
      className={styles.bar}
      role="group"
      aria-label="Annotations"
      data-testid="annotations.file"
    >
      <span className={styles.status}>Annotations</span>
      <input
        id={inputId}
        className={styles.input}
        type="file"
        accept=".json,application/json"
        data-testid="annotations-import"
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = "";
          if (file !== undefined)
            importFile(file).catch((err: unknown) =>
              setMessage({
                text: `${file.name}: could not be read (${err instanceof Error ? err.message : String(err)})`,
                error: true,
              }),
            );
        }}
      />
      <label
        htmlFor={inputId}
        className={styles.button}
        title="Import an annotations file (version 1, what the CLI reads with --annotations)"
      >
        Import
      </label>
      <button
        type="button"
        className={styles.button}
        data-testid="annotations-export"
        disabled={count === 0}
        title={`Export the annotations of ${count} group${count === 1 ? "" : "s"} as a file`}
        onClick={() =>
          download(
            annotationsFileName(dataset.file),
            `${JSON.stringify(useStore.getState().annotations, null, 2)}\n`,
          )
        }
      >
        Export ({count})
      </button>
      <input
        id={mergeId}
        className={styles.input}
        type="file"
        accept=".json,application/json"
        data-testid="annotations-merge"
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = "";
          if (file !== undefined)
            mergeFile(file).catch((err: unknown) =>
              setMessage({
                text: `${file.name}: could not be read (${err instanceof Error ? err.message : String(err)})`,
                error: true,
              }),
            );
        }}
      />
      <label
        htmlFor={mergeId}
        className={styles.button}
        title="Compare another annotator's file with these annotations (agreement), then merge it"
      >
        Merge…
      </label>
      {count > 0 && !confirming ? (
        <button
          type="button"
          className={styles.button}
          data-testid="annotations-clear"
          onClick={() => setConfirming(true)}
        >
          Clear…
        </button>
      ) : null}
      {confirming ? (
        <span role="group" aria-label="Confirm clearing" className={styles.confirm}>
          Delete the annotations of {count} group(s) of this dataset, here and in this
          browser&apos;s storage?{" "}
          <button
            type="button"
            className={styles.danger}
            data-testid="annotations-clear-confirm"
            onClick={() => {
              setConfirming(false);
              if (annotationsSync === null) setAnnotations(ANNOTATIONS_EMPTY);
              else
                annotationsSync.clear().then(
                  () =>
                    setMessage({
                      text: "Deleted this dataset's annotations, here and in this browser's storage.",
                      error: false,
                    }),
                  (e: unknown) =>
                    setMessage({
                      text: `Stored annotations could not be deleted: ${e instanceof Error ? e.message : String(e)}`,
                      error: true,
                    }),
                );
            }}
          >
            Delete
          </button>{" "}
          <button type="button" className={styles.button} onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </span>
      ) : null}
      <SaveStatus />
      {merging !== null ? (
        <Suspense fallback={<span className={styles.status}>Comparing…</span>}>
          <MergeReport
            fileName={merging.fileName}
            other={merging.other}
            groups={parsedGroups}
            onClose={() => setMerging(null)}
          />
        </Suspense>
      ) : null}
      <StatusMessage message={message} testId="annotations.message" />
    </div>
  );
}
