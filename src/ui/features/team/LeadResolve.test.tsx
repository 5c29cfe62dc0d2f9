import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  GROUP_ANNOTATION_EMPTY,
  teamSuggestGold,
  type GroupAnnotation,
} from "../../../core/index.ts";
import type { TeamLeadWrite } from "../../../store/slices/teamLeadSlice.ts";
import LeadResolve, { type LeadResolveProps } from "./LeadResolve.tsx";

afterEach(cleanup);
// jsdom lays nothing out, so it has no scrollIntoView; the view calls it when it opens.
beforeAll(() => {
  Element.prototype.scrollIntoView = () => undefined;
});

const ann: GroupAnnotation = {
  ...GROUP_ANNOTATION_EMPTY,
  labels: { "g/0": "pass", "g/1": "fail" },
  ranking: [["g/0"], ["g/1"]],
  notes: "ann thinks 1 is wrong",
};
const bob: GroupAnnotation = {
  ...GROUP_ANNOTATION_EMPTY,
  labels: { "g/0": "pass", "g/1": "pass" },
  hacks: ["g/1"],
  ranking: [["g/1"], ["g/0"]],
};
const suggestion = teamSuggestGold("g", [
  { user: "ann", groupId: "g", annotation: ann, submitted: true },
  { user: "bob", groupId: "g", annotation: bob, submitted: true },
]);

function renderResolve(over: Partial<LeadResolveProps> = {}) {
  const onSave = vi.fn<(a: GroupAnnotation | null) => Promise<TeamLeadWrite>>(() =>
    Promise.resolve({ kind: "done" }),
  );
  render(
    <LeadResolve
      groupId="g"
      users={["ann", "bob"]}
      sides={[ann, bob]}
      rolloutIds={["g/0", "g/1", "g/2"]}
      saved={null}
      resolvedBy={null}
      suggestion={suggestion}
      onSave={onSave}
      onClose={() => undefined}
      {...over}
    />,
  );
  return onSave;
}

const cell = (user: string, rollout: string) =>
  document.querySelector(
    `[data-testid="team.resolve-cell"][data-user="${user}"][data-rollout-id="${rollout}"]`,
  )!;
const goldLabel = (rollout: string) =>
  document.querySelector<HTMLSelectElement>(
    `[data-testid="team.resolve-label"][data-rollout-id="${rollout}"]`,
  )!;

describe("LeadResolve", () => {
  it("shows both annotations side by side, the draft opening with what both agree on", () => {
    renderResolve();
    expect(cell("ann", "g/1").getAttribute("data-label")).toBe("fail");
    expect(cell("bob", "g/1").getAttribute("data-label")).toBe("pass");
    expect(cell("bob", "g/1").getAttribute("data-hack")).toBe("true");
    expect(cell("ann", "g/2").getAttribute("data-label")).toBe("");
    expect(screen.getByText("ann thinks 1 is wrong")).toBeTruthy();
    expect(screen.getByText("1 > 0")).toBeTruthy();
    expect([goldLabel("g/0").value, goldLabel("g/1").value]).toEqual(["pass", ""]);
    expect(screen.getByText(/open: 1 label\(s\), 1 hack mark\(s\), the ranking/)).toBeTruthy();
  });

  it("takes a side, edits a label and saves the draft as the gold", async () => {
    const onSave = renderResolve();
    fireEvent.click(screen.getByRole("button", { name: "Take bob's" }));
    expect(goldLabel("g/1").value).toBe("pass");
    fireEvent.change(goldLabel("g/1"), { target: { value: "fail" } });
    fireEvent.click(screen.getByTestId("team.resolve-save"));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]![0]).toEqual({
      ...GROUP_ANNOTATION_EMPTY,
      labels: { "g/0": "pass", "g/1": "fail" },
      hacks: ["g/1"],
      ranking: bob.ranking,
    });
    await screen.findByText("Saved as the gold of g.");
  });

  it("a stale save says so and keeps the draft", async () => {
    const onSave = renderResolve({
      onSave: vi.fn(() =>
        Promise.resolve<TeamLeadWrite>({ kind: "stale", message: "the gold of g moved" }),
      ),
    });
    fireEvent.click(screen.getByRole("button", { name: "Take ann's" }));
    fireEvent.click(screen.getByTestId("team.resolve-save"));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toMatch(/the gold of g moved\nThe gold was read again/);
    expect(goldLabel("g/1").value).toBe("fail");
    expect(onSave).not.toHaveBeenCalled();
  });

  it("opens with the saved gold and says who resolved it", () => {
    renderResolve({ saved: bob, resolvedBy: "lee" });
    expect(screen.getByTestId("team.resolved").textContent).toBe("resolved by lee");
    expect(goldLabel("g/1").value).toBe("pass");
  });

  it("says when both ranked alike", () => {
    renderResolve({ sides: [ann, { ...bob, ranking: ann.ranking }] });
    fireEvent.click(screen.getByRole("button", { name: "Take bob's" }));
    expect(screen.getByText("0 > 1 (ann and bob ranked alike)")).toBeTruthy();
  });
});
