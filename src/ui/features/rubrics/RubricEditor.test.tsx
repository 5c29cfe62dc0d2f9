/**
 * The criteria editor from the keyboard: Enter adds a line below and focuses it, Backspace on an
 * empty line removes it and focuses the line above, Alt+Arrow moves a line and keeps the focus on
 * it, plain arrows move the focus, Ctrl+Enter saves; the buttons move and remove lines.
 */
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { criteriaFrom, type CriteriaDraft } from "./criteriaEdit.ts";
import { RubricEditor } from "./RubricEditor.tsx";

function Harness({ onSave }: { onSave: () => void }) {
  const [draft, setDraft] = useState<CriteriaDraft>(() =>
    criteriaFrom({ solution: ["a", "b"], behavior: ["x"] }),
  );
  return <RubricEditor draft={draft} onChange={setDraft} onSave={onSave} />;
}

const inputs = (list: "solution" | "behavior"): HTMLInputElement[] =>
  [...screen.getByTestId(`rubric.list.${list}`).querySelectorAll("input")] as HTMLInputElement[];
const values = (list: "solution" | "behavior") => inputs(list).map((i) => i.value);

afterEach(cleanup);

describe("RubricEditor", () => {
  it("adds, removes, moves and steps through lines from the keyboard", () => {
    const onSave = vi.fn();
    render(<Harness onSave={onSave} />);
    const [a] = inputs("solution");
    a!.focus();
    fireEvent.keyDown(a!, { key: "Enter" });
    expect(values("solution")).toEqual(["a", "", "b"]);
    expect(document.activeElement).toBe(inputs("solution")[1]);

    fireEvent.change(inputs("solution")[1]!, { target: { value: "new" } });
    fireEvent.keyDown(inputs("solution")[1]!, { key: "ArrowDown", altKey: true });
    expect(values("solution")).toEqual(["a", "b", "new"]);
    expect((document.activeElement as HTMLInputElement).value).toBe("new");

    fireEvent.keyDown(document.activeElement!, { key: "ArrowUp" });
    expect((document.activeElement as HTMLInputElement).value).toBe("b");

    fireEvent.keyDown(inputs("solution")[2]!, { key: "Enter" });
    expect(values("solution")).toEqual(["a", "b", "new", ""]);
    fireEvent.keyDown(inputs("solution")[3]!, { key: "Backspace" });
    expect(values("solution")).toEqual(["a", "b", "new"]);
    expect((document.activeElement as HTMLInputElement).value).toBe("new");
    // Backspace on a line with text edits the text, not the list.
    fireEvent.keyDown(inputs("solution")[2]!, { key: "Backspace" });
    expect(values("solution")).toEqual(["a", "b", "new"]);

    fireEvent.keyDown(inputs("solution")[0]!, { key: "Enter", ctrlKey: true });
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(values("solution")).toEqual(["a", "b", "new"]);
  });

  it("moves and removes lines with the buttons; the last line of a list is emptied", () => {
    render(<Harness onSave={() => undefined} />);
    const solution = screen.getByTestId("rubric.list.solution");
    fireEvent.click(solution.querySelectorAll('[data-testid="rubric.criterion.down"]')[0]!);
    expect(values("solution")).toEqual(["b", "a"]);
    expect(
      (solution.querySelectorAll('[data-testid="rubric.criterion.up"]')[0] as HTMLButtonElement)
        .disabled,
    ).toBe(true);
    fireEvent.click(solution.querySelectorAll('[data-testid="rubric.criterion.remove"]')[0]!);
    expect(values("solution")).toEqual(["a"]);
    const behavior = screen.getByTestId("rubric.list.behavior");
    fireEvent.click(behavior.querySelector('[data-testid="rubric.criterion.remove"]')!);
    expect(values("behavior")).toEqual([""]);
    fireEvent.click(screen.getByTestId("rubric.add.behavior"));
    expect(values("behavior")).toEqual(["", ""]);
    expect(document.activeElement).toBe(inputs("behavior")[1]);
  });
});
