import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import {
  ANALYSIS_DEFAULTS,
  ANNOTATIONS_EMPTY,
  analysisAdvantages,
  analyzeGroup,
  annotationsResolve,
  metricFormulas,
  type RolloutGroup,
} from "../../../core/index.ts";
import { testRollout } from "../../../test/rolloutFixtures.ts";
import MetricsTable from "./MetricsTable.tsx";
import { prepareMetricsTable } from "./prepareMetricsTable.ts";

afterEach(cleanup);

function tableOf(n: number) {
  const group: RolloutGroup = {
    id: "g",
    rollouts: Array.from({ length: n }, (_, i) =>
      testRollout({
        id: `g/${i}`,
        index: i,
        completion: `answer ${i}`,
        reward: i % 3 === 0 ? 1 : 0,
      }),
    ),
  };
  const resolved = annotationsResolve([group], ANNOTATIONS_EMPTY).byGroup.get("g");
  const advantages = analysisAdvantages([group], ANALYSIS_DEFAULTS)[0]!;
  const analysis = analyzeGroup(group, ANALYSIS_DEFAULTS, advantages, resolved);
  return prepareMetricsTable(analysis, metricFormulas(ANALYSIS_DEFAULTS), ANALYSIS_DEFAULTS, {
    column: "index",
    descending: false,
  });
}

describe("MetricsTable", () => {
  it("shows the first rows of a long table in its order, and every row on Show all", () => {
    const model = tableOf(200);
    let all = false;
    const view = render(
      <MetricsTable
        model={model}
        sort={{ column: "index", descending: false }}
        onSort={() => undefined}
        clustersPending={false}
        rowLimit={128}
        onShowAll={() => (all = true)}
      />,
    );
    const ids = () => screen.getAllByTestId("metrics.row").map((r) => r.dataset.rolloutId);
    expect(ids()).toEqual(model.rows.slice(0, 128).map((r) => r.id));
    expect(screen.getByTestId("metrics.rows-hidden").textContent).toContain("first 128 of 200");
    fireEvent.click(screen.getByTestId("metrics.show-all"));
    expect(all).toBe(true);
    view.rerender(
      <MetricsTable
        model={model}
        sort={{ column: "index", descending: false }}
        onSort={() => undefined}
        clustersPending={false}
      />,
    );
    expect(ids()).toHaveLength(200);
    expect(screen.queryByTestId("metrics.rows-hidden")).toBeNull();
  });
});
