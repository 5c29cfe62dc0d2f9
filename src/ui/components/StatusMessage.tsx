/**
 * The outcome of a panel's action (an import, an export, a spec applied): a status line, or an
 * alert when it failed. Multi-line problem lists keep their line breaks.
 */
import styles from "./StatusMessage.module.css";

/** What a panel keeps in its state to show here. */
export interface Message {
  readonly text: string;
  readonly error: boolean;
}

export function StatusMessage({ message, testId }: { message: Message | null; testId: string }) {
  if (message === null) return null;
  return (
    <pre
      className={message.error ? styles.error : styles.message}
      role={message.error ? "alert" : "status"}
      data-testid={testId}
    >
      {message.text}
    </pre>
  );
}
