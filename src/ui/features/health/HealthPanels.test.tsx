/**
 * Covers: the run view's table and detector list as a user meets them. The table's rows carry
 * the test ids and raw-number attributes an e2e spec reads, and a step's button hands the step
 * over (the group browser filters to it); a detector shows its fired steps as buttons doing the
 * same, its alerts with their test ids, and its thresholds as fields of which only a valid value
 * reaches the store.
 */
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ANALYSIS_DEFAULTS,
  HEALTH_DEFAULTS,
  healthDetectors,
  runHealth,
  type RolloutGroup,
} from "../../../core/index.ts";
import { testRollout } from "../../../test/rolloutFixtures.ts";
import DetectorList from "./DetectorList.tsx";
import { detectorRows } from "./detectorModel.ts";
import { healthRows, healthView } from "./healthModel.ts";
import HealthTable from "./HealthTable.tsx";

afterEach(cleanup);

function group(id: string, chars: number): RolloutGroup {
  return {
    id,
    rollouts: [0, 1, 2, 3].map((index) =>
      testRollout({
        id: `${id}/${index}`,
        groupId: id,
        index,
        reward: index % 2,
        completion: `${"w".repeat(chars)} ${index}`,
      }),
    ),
  };
}

/** Ten steps whose completions grow from step 4 while the pass rate stays at a half. */
const RUN = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((step) => ({
  group: group(`${step}/p`, 200 + 90 * Math.max(0, step - 3) + (step % 2) * 9),
  step,
}));
const HEALTH = runHealth(RUN, ANALYSIS_DEFAULTS, { clusterSample: 0 });

describe("the run view's table", () => {
  it("has a row per step with its raw numbers, and a step button", () => {
    const onStep = vi.fn();
    const view = healthView(HEALTH, { indexed: false, summaries: [] }, ANALYSIS_DEFAULTS);
    render(<HealthTable rows={healthRows(view)} onStep={onStep} />);
    const table = screen.getByTestId("health-table");
    const rows = table.querySelectorAll('[data-testid="health-row"]');
    expect(rows).toHaveLength(10);
    expect(rows[3]!.getAttribute("data-step")).toBe("4");
    expect(rows[3]!.getAttribute("data-pass-rate")).toBe("0.5");
    expect(rows[3]!.getAttribute("data-mean-chars")).toBe(String(HEALTH.steps[3]!.meanChars));
    fireEvent.click(screen.getAllByTestId("health-row-step")[3]!);
    expect(onStep).toHaveBeenCalledWith(4);
  });
});

describe("the run view's detectors", () => {
  it("shows where a rule fired, its alerts, and takes only valid thresholds", () => {
    const onStep = vi.fn();
    const onSetting = vi.fn();
    const settings = HEALTH_DEFAULTS;
    const results = healthDetectors(HEALTH, settings);
    render(
      <DetectorList
        rows={detectorRows(results)}
        settings={settings}
        resets={0}
        onSetting={onSetting}
        onStep={onStep}
      />,
    );
    const detectors = screen.getAllByTestId("health-detector");
    expect(detectors.map((d) => d.getAttribute("data-rule"))).toEqual([
      "zero-std",
      "length-drift",
      "diversity-collapse",
      "component-dominance",
      "hack-spread",
    ]);
    const drift = results.find((r) => r.rule === "length-drift")!;
    expect(drift.fired).toEqual([5, 6, 7, 8, 9, 10]);
    expect(drift.alerts.map((a) => a.step)).toEqual([4]);
    expect(detectors[1]!.getAttribute("data-fired")).toBe(drift.fired.join(","));
    const alerts = screen.getAllByTestId("health-alert");
    expect(alerts.map((a) => [a.getAttribute("data-rule"), a.getAttribute("data-step")])).toEqual(
      drift.alerts.map((a) => ["length-drift", String(a.step)]),
    );
    expect(detectors[4]!.textContent).toContain("idle: no rollout is marked as a hack");
    expect(screen.getByText("Length drift").getAttribute("title")).toBe(drift.formula);

    fireEvent.click(screen.getByRole("button", { name: String(drift.fired[0]) }));
    expect(onStep).toHaveBeenCalledWith(drift.fired[0]);

    const window = screen.getByTestId("health-window");
    fireEvent.change(window, { target: { value: "2" } });
    expect(onSetting).not.toHaveBeenCalled();
    fireEvent.change(window, { target: { value: "4" } });
    expect(onSetting).toHaveBeenCalledWith("window", 4);
  });
});
