/**
 * The annotations bar's save status: in this browser (IndexedDB), or in view mode on the server's
 * file with the browser's copy as the fallback. Its lines come from annotationsFileModel.
 */
import { usePersistStatus } from "../../../store/index.ts";
import type { ServerSaveState } from "../../../store/persistence/serverAnnotations.ts";
import { browserStatusText, rejectedText, serverStatusText } from "./annotationsFileModel.ts";
import styles from "./Annotations.module.css";

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
export default function SaveStatus() {
  const persist = usePersistStatus((s) => s.persist);
  const server = usePersistStatus((s) => s.server);
  if (server.status !== "off") return <ServerSaveStatus server={server} />;
  const rejected = rejectedText(persist);
  return (
    <>
      <span
        className={styles.status}
        data-testid="annotations.saved"
        data-status={persist.status}
        data-pending={persist.status === "saved" ? persist.pending : undefined}
      >
        {browserStatusText(persist)}
      </span>
      {persist.status === "error" ? (
        <p className={styles.error} role="alert" data-testid="annotations.persist-error">
          {persist.message}
        </p>
      ) : null}
      {rejected === null ? null : (
        <p className={styles.error} role="alert">
          {rejected}
        </p>
      )}
    </>
  );
}
