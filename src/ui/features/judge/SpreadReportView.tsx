/**
 * The spread check's go or no-go, in the core report's words (methods.md 2.5): the header line with
 * the std and the share near the median, then "spread: yes" or the "no spread (…)" line that says
 * what to change.
 */
import type { SpreadReport } from "../../../core/index.ts";
import styles from "./Judge.module.css";

export default function SpreadReportView({
  report,
  heuristic,
}: {
  report: SpreadReport;
  heuristic: boolean;
}) {
  const verdict = report.n < 2 ? "not enough passes" : report.ok ? "go" : "no-go";
  return (
    <div
      className={report.ok ? styles.spreadGo : styles.spreadNo}
      data-testid="judge.spread-report"
      data-verdict={verdict}
    >
      <strong>
        Spread check: {verdict === "go" ? "Go" : verdict === "no-go" ? "No-go" : "No verdict"}
        {heuristic ? " (heuristic grader)" : ""}
      </strong>
      <pre className={styles.pre}>{report.text}</pre>
    </div>
  );
}
