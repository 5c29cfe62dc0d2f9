/**
 * `spreadOk` is `spreadCheck`'s verdict without the report: the same answer as the rule spelled
 * out (population std >= minStd and at most clusterShare of the scores within band of the median),
 * for any scores and options.
 */
import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { statsMedian, statsStd } from "../util/stats.ts";
import { SPREAD_DEFAULTS, spreadCheck, spreadOk } from "./spread.ts";

const score = fc.oneof(
  fc.constantFrom(0, 0.5, 0.75, 1),
  fc.double({ min: -2, max: 2, noNaN: true, noDefaultInfinity: true }),
);
const options = fc.oneof(
  fc.constant(SPREAD_DEFAULTS),
  fc.record({
    minStd: fc.constantFrom(0, 0.05, 0.5),
    band: fc.constantFrom(0, 0.05, 0.5),
    clusterShare: fc.constantFrom(0, 0.5, 0.9, 1),
  }),
);

test.prop([fc.array(score, { maxLength: 12 }), options])(
  "spreadOk is spreadCheck's verdict and the rule as written",
  (scores, o) => {
    const median = statsMedian(scores);
    const within = scores.filter((v) => Math.abs(v - median) <= o.band).length / scores.length;
    const rule =
      scores.length >= 2 && statsStd(scores, "population") >= o.minStd && within <= o.clusterShare;
    expect(spreadOk(scores, o)).toBe(rule);
    expect(spreadCheck(scores, 1, o).ok).toBe(rule);
  },
);
