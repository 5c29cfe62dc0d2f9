/** Issue lines for display and export: "file[member]:line: field: message", in file order. */
import { formatIssue, type ParseIssue } from "../../../store/datasetInfo.ts";

export interface IssueRow {
  readonly key: string;
  readonly where: string;
  readonly text: string;
}

export function prepareIssueRows(issues: readonly ParseIssue[]): IssueRow[] {
  return issues.map((issue, i) => {
    const full = formatIssue(issue);
    const file = issue.member ? `${issue.file}[${issue.member}]` : issue.file;
    const where = issue.line > 0 ? `${file}:${issue.line}` : file;
    return { key: `${i}`, where, text: full.slice(where.length + 2) };
  });
}

/** The text a user exports: one issue per line. */
export function issuesToText(issues: readonly ParseIssue[]): string {
  return issues.map((i) => `${formatIssue(i)}\n`).join("");
}
