/** Every problem found while loading, with where it is, and an export of the list. */
import { useDataset, useIssues } from "../../../store/hooks.ts";
import styles from "./Loader.module.css";
import { issuesToText, prepareIssueRows } from "./prepareIssues.ts";

const SHOWN = 500;

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

export default function IssuesPanel() {
  const result = useDataset();
  const issues = useIssues();
  if (result === null || issues.length === 0) return null;
  const rows = prepareIssueRows(issues);
  return (
    <section className={styles.issues} aria-label="Load issues" data-testid="issues.panel">
      <header className={styles.issuesHeader}>
        <h2 className={styles.title}>
          {rows.length.toLocaleString("en-US")} issue{rows.length === 1 ? "" : "s"} in {result.file}
        </h2>
        <button
          type="button"
          className={styles.button}
          onClick={() => download(`${result.file}.issues.txt`, issuesToText(issues))}
          data-testid="issues.export"
        >
          Export list
        </button>
      </header>
      <ol className={styles.issueList} data-testid="issues.list">
        {rows.slice(0, SHOWN).map((r) => (
          <li key={r.key} data-testid="issues.item">
            <code>{r.where}</code> {r.text}
          </li>
        ))}
      </ol>
      {rows.length > SHOWN ? (
        <p className={styles.muted}>
          {SHOWN} of {rows.length.toLocaleString("en-US")} shown; export the list for all of them.
        </p>
      ) : null}
    </section>
  );
}
