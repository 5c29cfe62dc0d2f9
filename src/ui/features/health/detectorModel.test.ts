/**
 * Covers: the run view's detectors (detectorModel.ts). Every health setting of core's schema is
 * offered once, either with the rule it belongs to or among the shared ones; each rule's row says
 * whether it fired (its steps, comma-joined for data-fired), stayed quiet, or is idle and why,
 * and, in an indexed file, that it reads the parsed groups only; an idle rule marks no step on
 * the charts.
 */
import { describe, expect, it } from "vitest";
import {
  HEALTH_DEFAULTS,
  HEALTH_RULES,
  HEALTH_SETTING_SCHEMA,
  type DetectorResult,
} from "../../../core/index.ts";
import {
  detectorRows,
  firedSteps,
  healthFields,
  RULE_HEALTH_SETTINGS,
  SHARED_HEALTH_SETTINGS,
} from "./detectorModel.ts";

function result(over: Partial<DetectorResult> & Pick<DetectorResult, "rule">): DetectorResult {
  return {
    label: over.rule,
    formula: `formula of ${over.rule}`,
    threshold: 0.5,
    fired: [],
    alerts: [],
    idle: null,
    ...over,
  };
}

describe("the detectors' settings", () => {
  it("offers every health setting of core's schema exactly once", () => {
    const offered = [
      ...SHARED_HEALTH_SETTINGS,
      ...HEALTH_RULES.flatMap((r) => RULE_HEALTH_SETTINGS[r]),
    ];
    expect([...offered].sort()).toEqual(HEALTH_SETTING_SCHEMA.map((d) => d.key).sort());
    expect(new Set(offered).size).toBe(offered.length);
  });

  it("derives each field from its declaration", () => {
    const [window] = healthFields(["window"]);
    expect(window).toMatchObject({
      key: "window",
      control: "number",
      default: HEALTH_DEFAULTS.window,
      testId: "health-window",
    });
    expect(healthFields(RULE_HEALTH_SETTINGS["length-drift"]).map((f) => f.key)).toEqual([
      "lengthRise",
      "passFlat",
    ]);
  });
});

describe("detectorRows", () => {
  const alert = {
    rule: "length-drift" as const,
    step: 8,
    value: 0.3,
    threshold: 0.2,
    message: "completion length rises from step 8",
  };
  const results = [
    result({ rule: "hack-spread", idle: "no rollout is marked as a hack" }),
    result({ rule: "length-drift", fired: [9, 10, 16], alerts: [alert] }),
    result({ rule: "zero-std" }),
    result({ rule: "diversity-collapse", fired: [4] }),
    result({ rule: "component-dominance" }),
  ];

  it("lists the rules in core's order with their status", () => {
    const rows = detectorRows(results);
    expect(rows.map((r) => r.rule)).toEqual([...HEALTH_RULES]);
    const byRule = new Map(rows.map((r) => [r.rule, r]));
    expect(byRule.get("length-drift")).toMatchObject({
      status: "fired",
      statusText: "fired at 3 steps",
      firedAttribute: "9,10,16",
      alerts: [alert],
      formula: "formula of length-drift",
    });
    expect(byRule.get("diversity-collapse")!.statusText).toBe("fired at 1 step");
    expect(byRule.get("zero-std")).toMatchObject({ status: "quiet", firedAttribute: "" });
    expect(byRule.get("hack-spread")).toMatchObject({
      status: "idle",
      statusText: "idle: no rollout is marked as a hack",
    });
    expect(byRule.get("hack-spread")!.fields.map((f) => f.key)).toEqual(["hackSpreadMax"]);
  });

  it("says which rules read only the parsed groups of an indexed file", () => {
    const note = "over the 20 of 480 groups parsed";
    const rows = new Map(detectorRows(results, note).map((r) => [r.rule, r.over]));
    expect(rows.get("zero-std")).toBeNull();
    expect(rows.get("length-drift")).toBe(note);
    expect(rows.get("hack-spread")).toBe(note);
    expect(detectorRows(results).every((r) => r.over === null)).toBe(true);
  });

  it("marks no step of an idle rule on the charts", () => {
    const idle = [result({ rule: "length-drift", fired: [3], idle: "needs 5 steps" })];
    expect(firedSteps(idle, "length-drift")).toEqual([]);
    expect(firedSteps(results, "length-drift")).toEqual([9, 10, 16]);
    expect(firedSteps([], "zero-std")).toEqual([]);
  });
});
