/** Covers: the verifier editor's markup per kind: labels tied to controls, and what an edit sends. */
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { VERIFIER_SPEC_EMPTY, type Verifier } from "../../../core/index.ts";
import VerifierEditor from "./VerifierEditor.tsx";
import { verifierNew } from "./prepareVerifiers.ts";

afterEach(cleanup);

function setup(verifier: Verifier) {
  const onChange = vi.fn<(next: Verifier) => void>();
  const onRemove = vi.fn<() => void>();
  render(
    <VerifierEditor
      verifier={verifier}
      index={0}
      fields={["answer", "meta.schema"]}
      wrapChoices={["exact_match"]}
      judgeRuns={[]}
      problems={[{ index: 0, field: "wraps", message: "nothing to wrap" }]}
      onChange={onChange}
      onRemove={onRemove}
    />,
  );
  return { onChange, onRemove };
}

const fresh = (kind: Verifier["kind"]): Verifier => verifierNew(kind, VERIFIER_SPEC_EMPTY, [], []);

describe("VerifierEditor", () => {
  it("shows the legend, the common fields by label, and the problems", () => {
    const { onChange, onRemove } = setup(fresh("format"));
    expect(screen.getByText("1. Format gate")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "gate" } });
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ name: "gate" }));
    fireEvent.change(screen.getByLabelText("Weight"), { target: { value: "" } });
    expect(onChange.mock.lastCall?.[0].weight).toBeNaN();
    fireEvent.click(screen.getByTestId("verifiers.remove"));
    expect(onRemove).toHaveBeenCalledOnce();
    expect(screen.getByTestId("verifiers.item-problems").textContent).toBe(
      "wraps: nothing to wrap",
    );
  });

  it("a length penalty lists what it may wrap after its current (empty) wrap", () => {
    const { onChange } = setup(fresh("length-penalty"));
    const wraps = screen.getByLabelText("Wraps");
    expect([...wraps.querySelectorAll("option")].map((o) => o.textContent)).toEqual([
      "(pick one)",
      "exact_match",
    ]);
    fireEvent.change(wraps, { target: { value: "exact_match" } });
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ wraps: "exact_match" }));
    fireEvent.change(screen.getByLabelText("Unit"), { target: { value: "characters" } });
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ unit: "characters" }));
  });

  it("inline schema text that is not JSON is shown, never sent", () => {
    const { onChange } = setup(fresh("json-schema"));
    const text = screen.getByLabelText("Schema (JSON, one for every row)");
    fireEvent.change(text, { target: { value: "{" } });
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByRole("alert").textContent).toMatch(/^Not JSON: /);
    fireEvent.change(text, { target: { value: '{"type": "string"}' } });
    expect(onChange).toHaveBeenLastCalledWith(
      expect.objectContaining({ schema: { from: "inline", schema: { type: "string" } } }),
    );
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("a judge says when no run of its mode exists, and a new mode reads the newest run", () => {
    const judge = fresh("judge");
    if (judge.kind !== "judge") throw new Error(`verifierNew gave ${judge.kind}`);
    const { onChange } = setup({ ...judge, run: "old" });
    expect(screen.getByTestId("verifiers.judge-missing").textContent).toContain("No rubric judge");
    fireEvent.change(screen.getByLabelText("Judge mode"), { target: { value: "gar" } });
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ mode: "gar", run: null }));
  });
});
