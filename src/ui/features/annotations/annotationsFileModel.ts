/**
 * View model of the annotations bar: the export's file name (core's, as the CLI names it), what an
 * import reports (core `annotationsImportProblems`), the save status in the browser and on the
 * server, and the bar's other lines. Pure; AnnotationsFile renders it.
 */
import {
  annotationsImportProblems,
  exportFileName,
  type Annotations,
  type RolloutGroup,
} from "../../../core/index.ts";
import type { PersistState } from "../../../store/persistence/annotationsSync.ts";
import type { ServerSaveState } from "../../../store/persistence/serverAnnotations.ts";
import type { Message } from "../../components/StatusMessage.tsx";

/** The download's file name: the data file's name without its extension, plus `.annotations.json`. */
export function annotationsFileName(dataFile: string): string {
  return exportFileName(dataFile, "annotations");
}

/** "Export the annotations of 3 groups as a file". */
export function exportTitle(count: number): string {
  return `Export the annotations of ${count} group${count === 1 ? "" : "s"} as a file`;
}

/**
 * What an import says: how many groups it brought, and every problem with it against the parsed
 * groups (`knownGroupIds`: every group of the data, parsed or not).
 */
export function importMessage(
  fileName: string,
  annotations: Annotations,
  parsed: readonly RolloutGroup[],
  knownGroupIds: ReadonlySet<string>,
): Message {
  const problems = annotationsImportProblems(parsed, knownGroupIds, annotations);
  const imported = Object.keys(annotations.groups).length;
  return {
    text:
      `Imported annotations of ${imported} group(s) from ${fileName}.` +
      (problems.length > 0
        ? ` ${problems.length} problem(s):\n${problems.map((p) => p.message).join("\n")}`
        : ""),
    error: problems.length > 0,
  };
}

/** An error as the bar says it: its message, or the thrown value itself. */
const errorText = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** A picked file that could not be read at all. */
export function readFailedMessage(fileName: string, error: unknown): Message {
  return { text: `${fileName}: could not be read (${errorText(error)})`, error: true };
}

/** What clearing says once the stored annotations are deleted. */
export const CLEARED_MESSAGE: Message = {
  text: "Deleted this dataset's annotations, here and in this browser's storage.",
  error: false,
};

/** What clearing says when the stored annotations could not be deleted. */
export function clearFailedMessage(error: unknown): Message {
  return { text: `Stored annotations could not be deleted: ${errorText(error)}`, error: true };
}

/** What the save status says in view mode: the server's file, where they are saved. */
export function serverStatusText(
  server: Exclude<ServerSaveState, { status: "off" }>,
): string | null {
  switch (server.status) {
    case "reading":
      return `Reading ${server.path}…`;
    case "saved":
      return server.pending ? `Saving to ${server.path}…` : `Saved to ${server.path}`;
    default:
      return null;
  }
}

/** What the save status says for this browser's copy (an error is shown on its own line). */
export function browserStatusText(persist: PersistState): string | null {
  switch (persist.status) {
    case "saved":
      if (persist.pending > 0) return "Saving…";
      return persist.restored > 0
        ? `Saved in this browser (${persist.restored} group(s) restored)`
        : "Saved in this browser";
    case "restoring":
      return "Looking for saved annotations…";
    case "off":
      return "Not saved in this browser";
    case "error":
      return null;
  }
}

/** Stored groups that failed validation when the dataset opened, or null when none did. */
export function rejectedText(persist: PersistState): string | null {
  if (persist.status !== "saved" || persist.rejected.length === 0) return null;
  return `Saved annotations of ${persist.rejected.length} group(s) could not be read and were left out: ${persist.rejected.join(", ")}`;
}
