import { describe, expect, it } from "vitest";
import { issuesToText, prepareIssueRows } from "./prepareIssues.ts";

describe("issue rows", () => {
  const issues = [
    { file: "a.jsonl", line: 3, field: "reward", message: 'expected a finite number, got "x"' },
    { file: "b.eval", line: 0, member: "samples/1_epoch_1.json", message: "not valid JSON" },
  ];
  it("split where from what", () => {
    expect(prepareIssueRows(issues)).toEqual([
      { key: "0", where: "a.jsonl:3", text: 'reward: expected a finite number, got "x"' },
      { key: "1", where: "b.eval[samples/1_epoch_1.json]", text: "not valid JSON" },
    ]);
  });
  it("export one per line", () => {
    expect(issuesToText(issues)).toBe(
      'a.jsonl:3: reward: expected a finite number, got "x"\nb.eval[samples/1_epoch_1.json]: not valid JSON\n',
    );
  });
});
