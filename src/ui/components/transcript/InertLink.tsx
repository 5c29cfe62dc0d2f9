/**
 * A link written in an untrusted transcript, made inert (issue 13, finding 11): its text, then its
 * full target in view, and no `<a href>` on the page. A click (or Enter) asks first: a dialog shows
 * the whole URL, with "Open in a new tab" (the only live link, `noopener noreferrer`), "Copy" and
 * "Cancel". So a click on text a policy wrote never opens the policy's page by itself.
 */
import { memo, useState, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { useModalDialog } from "../useModalDialog.ts";
import styles from "./Transcript.module.css";

function LinkDialog({ href, onClose }: { href: string; onClose: () => void }) {
  const ref = useModalDialog();
  const [copied, setCopied] = useState<"no" | "yes" | "failed">("no");
  return (
    <dialog
      ref={ref}
      className={styles.linkDialog}
      aria-label="Open a link from the transcript"
      data-testid="link-confirm"
      onClose={onClose}
    >
      <p className={styles.linkDialogTitle}>Open a link from the transcript?</p>
      <p className={styles.linkDialogNote}>
        The transcript is model output: the link goes where the model wrote, shown in full here.
      </p>
      <code className={styles.linkDialogUrl} data-testid="link-confirm.url">
        {href}
      </code>
      <div className={styles.linkDialogActions}>
        <a
          className={styles.linkDialogOpen}
          href={href}
          target="_blank"
          rel="noopener noreferrer nofollow"
          data-testid="link-confirm.open"
          onClick={() => ref.current?.close()}
        >
          Open in a new tab
        </a>
        <button
          type="button"
          data-testid="link-confirm.copy"
          onClick={() => {
            navigator.clipboard.writeText(href).then(
              () => setCopied("yes"),
              () => setCopied("failed"),
            );
          }}
        >
          {copied === "yes" ? "Copied" : copied === "failed" ? "Copy failed" : "Copy"}
        </button>
        <button
          type="button"
          data-testid="link-confirm.cancel"
          onClick={() => ref.current?.close()}
        >
          Cancel
        </button>
      </div>
    </dialog>
  );
}

const InertLink = memo(function InertLink({
  href,
  className,
  children,
}: {
  href: string;
  className: string;
  children: ReactNode;
}) {
  const [asking, setAsking] = useState(false);
  return (
    <span className={`${styles.link} ${className}`} data-testid="transcript.link" data-href={href}>
      <button
        type="button"
        className={styles.linkText}
        title={`Link to ${href}: opens only after you confirm`}
        onClick={() => setAsking(true)}
      >
        {children}
      </button>{" "}
      <span className={styles.linkTarget} data-testid="transcript.link-target">
        ⟨{href}⟩
      </span>
      {/* In the body, not in the paragraph the link sits in (a dialog may not be in a <p>). */}
      {asking
        ? createPortal(<LinkDialog href={href} onClose={() => setAsking(false)} />, document.body)
        : null}
    </span>
  );
});

export default InertLink;
