import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ANALYSIS_DEFAULTS, type Rollout, type RolloutGroup } from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import { SETTING_FIELDS } from "./settingFields.ts";
import SettingsPanel from "./SettingsPanel.tsx";
import { testRollout } from "../../../test/rolloutFixtures.ts";

function rollout(id: string, rewards: Record<string, number>): Rollout {
  return testRollout({
    id,
    completion: "c",
    reward: 1,
    rewards,
  });
}

function loadGroups(groups: RolloutGroup[]): void {
  useStore.setState({
    load: {
      status: "ready",
      file: new File([], "f.jsonl"),
      dataset: {} as never,
      groups: new Map(groups.map((g) => [g.id, g])),
    },
  });
}

afterEach(() => {
  cleanup();
  useStore.setState({ settings: ANALYSIS_DEFAULTS, load: { status: "idle" } });
});

describe("SettingsPanel", () => {
  it("lists every setting's default and source, and a change reaches the store", () => {
    render(<SettingsPanel />);
    const sources = screen.getByTestId("settings.sources");
    for (const field of SETTING_FIELDS) expect(sources.textContent).toContain(field.source);
    fireEvent.change(screen.getByTestId("settings-scale"), { target: { value: "none" } });
    expect(useStore.getState().settings.scale).toBe("none");
  });

  it("offers reward weights only when rollouts carry components", () => {
    loadGroups([{ id: "g", rollouts: [rollout("a", {})] }]);
    const { unmount } = render(<SettingsPanel />);
    expect(screen.queryByTestId("settings.weights")).toBeNull();
    unmount();
    loadGroups([{ id: "g", rollouts: [rollout("a", { accuracy: 1, format: 0 })] }]);
    render(<SettingsPanel />);
    fireEvent.click(screen.getByTestId("settings-weights-on"));
    expect(useStore.getState().settings.rewardWeights).toEqual({ accuracy: 1, format: 1 });
    fireEvent.change(screen.getByTestId("settings-weight-format"), { target: { value: "0.25" } });
    expect(useStore.getState().settings.rewardWeights).toEqual({ accuracy: 1, format: 0.25 });
    fireEvent.click(screen.getByTestId("settings-weights-on"));
    expect(useStore.getState().settings.rewardWeights).toBeNull();
  });
});
