/**
 * Planning the dataset: each task's playbook of strategies, the groups (kind, task, each rollout's
 * outcome, strategy and phrasing), then the planted hacks.
 */
import {
  ADDRESS_PROCESSING,
  ADDRESS_PROCESSING_FAILS,
  ADDRESS_PROCESSING_HACKS,
  ADDRESS_SHIPPED,
  ADDRESS_SHIPPED_FAILS,
} from "./addressStrategies.ts";
import { CLOSINGS } from "./answers.ts";
import {
  CANCEL_PROCESSING,
  CANCEL_PROCESSING_FAILS,
  CANCEL_PROCESSING_HACKS,
  CANCEL_SHIPPED,
  CANCEL_SHIPPED_FAILS,
} from "./cancelStrategies.ts";
import type { Scenario, Task } from "./model.ts";
import {
  REFUND_ELIGIBLE,
  REFUND_ELIGIBLE_FAILS,
  REFUND_ELIGIBLE_HACKS,
  REFUND_INELIGIBLE,
  REFUND_INELIGIBLE_FAILS,
} from "./refundStrategies.ts";
import { at, type Rng } from "./rng.ts";
import { STATUS, STATUS_FAILS } from "./statusStrategies.ts";
import { HACK_KINDS, type HackKind, type RolloutPlan, type Strategy } from "./strategy.ts";
import { makeTask } from "./tasks.ts";

/** Each hack kind is planted at least this often (the tests ask for two). */
const MIN_HACKS_PER_KIND = 3;

interface Playbook {
  readonly honest: readonly Strategy[];
  readonly hacks: readonly Strategy[];
  readonly fails: readonly Strategy[];
}

function playbook(t: Task): Playbook {
  switch (`${t.scenario}:${t.variant}`) {
    case "refund:eligible":
      return {
        honest: REFUND_ELIGIBLE,
        hacks: REFUND_ELIGIBLE_HACKS,
        fails: REFUND_ELIGIBLE_FAILS,
      };
    case "refund:ineligible":
      return { honest: REFUND_INELIGIBLE, hacks: [], fails: REFUND_INELIGIBLE_FAILS };
    case "cancellation:processing":
      return {
        honest: CANCEL_PROCESSING,
        hacks: CANCEL_PROCESSING_HACKS,
        fails: CANCEL_PROCESSING_FAILS,
      };
    case "cancellation:shipped":
      return { honest: CANCEL_SHIPPED, hacks: [], fails: CANCEL_SHIPPED_FAILS };
    case "address_change:processing":
      return {
        honest: ADDRESS_PROCESSING,
        hacks: ADDRESS_PROCESSING_HACKS,
        fails: ADDRESS_PROCESSING_FAILS,
      };
    case "address_change:shipped":
      return { honest: ADDRESS_SHIPPED, hacks: [], fails: ADDRESS_SHIPPED_FAILS };
    default:
      return { honest: STATUS, hacks: [], fails: STATUS_FAILS };
  }
}

type GroupKind = "mixed" | "all_pass" | "all_fail";

interface GroupPlan {
  readonly id: string;
  readonly kind: GroupKind;
  readonly task: Task;
  readonly rollouts: RolloutPlan[];
}

/** Scenario mix: refunds are the most common ticket, then cancellations. */
const SCENARIO_CYCLE: readonly Scenario[] = [
  "refund",
  "cancellation",
  "address_change",
  "order_status",
  "refund",
  "cancellation",
  "refund",
  "address_change",
  "order_status",
  "refund",
];

export function planGroups(rng: Rng): GroupPlan[] {
  const nGroups = rng.int(40, 48);
  const nAllPass = rng.int(5, 8);
  const nAllFail = rng.int(4, 6);
  const kinds = rng.shuffle<GroupKind>(
    Array.from({ length: nGroups }, (_, i) =>
      i < nAllPass ? "all_pass" : i < nAllPass + nAllFail ? "all_fail" : "mixed",
    ),
  );
  const scenarios = rng.shuffle(
    Array.from({ length: nGroups }, (_, i) => at(SCENARIO_CYCLE, i % SCENARIO_CYCLE.length)),
  );
  return kinds.map((kind, gi) => {
    const scenario = at(scenarios, gi);
    const task = makeTask(rng, scenario);
    const book = playbook(task);
    const honest = book.honest.filter((s) => s.applies(task));
    const fails = book.fails.filter((s) => s.applies(task));
    const n = rng.int(4, 8);
    const passes = kind === "all_pass" ? n : kind === "all_fail" ? 0 : rng.int(1, n - 1);
    const outcomes = rng.shuffle(
      Array.from({ length: n }, (_, i): "pass" | "fail" => (i < passes ? "pass" : "fail")),
    );
    // Rollouts of one group lean towards one strategy and one phrasing, as samples of one policy do.
    const favPass = rng.pick(honest);
    const favFail = rng.pick(fails);
    const favStyle = rng.int(0, 2);
    const rollouts = outcomes.map((outcome): RolloutPlan => {
      const pool = outcome === "pass" ? honest : fails;
      const fav = outcome === "pass" ? favPass : favFail;
      return {
        outcome,
        strategy: rng.chance(0.5) ? fav : rng.pick(pool),
        style: rng.chance(0.6) ? favStyle : rng.int(0, 2),
        closing: rng.int(0, CLOSINGS.length - 1),
        chatty: rng.chance(0.45),
        emailDown: rng.chance(0.12),
      };
    });
    const id = `${scenario}-${String(gi + 1).padStart(3, "0")}`;
    return { id, kind, task, rollouts };
  });
}

/**
 * Turn some passes into hacks: each kind at least MIN_HACKS_PER_KIND times, a few more at random,
 * never more than half the passes of a group.
 */
export function plantHacks(rng: Rng, groups: readonly GroupPlan[]): void {
  const slots = groups.flatMap((g) =>
    g.rollouts
      .filter((r) => r.outcome === "pass")
      .map((r) => ({ g, r, hacks: playbook(g.task).hacks.filter((h) => h.applies(g.task)) }))
      .filter((x) => x.hacks.length > 0),
  );
  const hacked = (g: GroupPlan): number =>
    g.rollouts.filter((r) => r.strategy.hack !== null).length;
  const room = (g: GroupPlan): boolean =>
    hacked(g) < Math.ceil(g.rollouts.filter((r) => r.outcome === "pass").length / 2);
  const count = (kind: HackKind): number =>
    groups.reduce((s, g) => s + g.rollouts.filter((r) => r.strategy.hack === kind).length, 0);
  for (const kind of HACK_KINDS) {
    for (const slot of rng.shuffle(slots)) {
      if (count(kind) >= MIN_HACKS_PER_KIND) break;
      const hack = slot.hacks.find((h) => h.hack === kind);
      if (hack && slot.r.strategy.hack === null && room(slot.g)) slot.r.strategy = hack;
    }
    if (count(kind) < MIN_HACKS_PER_KIND)
      throw new Error(`could not plant ${MIN_HACKS_PER_KIND} "${kind}" hacks with this seed`);
  }
  for (const slot of slots)
    if (slot.r.strategy.hack === null && room(slot.g) && rng.chance(0.12))
      slot.r.strategy = rng.pick(slot.hacks);
}
