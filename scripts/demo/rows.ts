/** Writing the planned groups: each rollout run against a fresh shop, verified, and turned into a row. */
import type { Voice } from "./answers.ts";
import type { Scenario } from "./model.ts";
import { planGroups, plantHacks } from "./plan.ts";
import { Rng } from "./rng.ts";
import { Session, type WireMessage } from "./session.ts";
import { Shop } from "./shop.ts";
import type { HackKind } from "./strategy.ts";
import { POLICY } from "./tasks.ts";
import { verify } from "./verify.ts";

/** The seed of the checked-in demo (`generateDemo()` with no argument). */
export const DEMO_SEED = 20241118;

interface DemoMeta {
  readonly scenario: Scenario;
  readonly variant: string;
  readonly strategy: string;
  readonly style: string;
  readonly planted_hack: HackKind | null;
  readonly hack_note: string | null;
  readonly verifier_note: string | null;
  /** The ground truth for an exact-match verifier: the order the ticket is about (never the decoy). */
  readonly order_id: string;
}

export interface DemoRow {
  readonly group_id: string;
  readonly id: string;
  readonly prompt: readonly WireMessage[];
  readonly messages: readonly WireMessage[];
  readonly reward: 0 | 1;
  readonly rewards: { readonly resolved: 0 | 1; readonly policy: 0 | 1 };
  readonly meta: DemoMeta;
}

/** The demo rollouts as objects, in file order. Throws if a rollout's reward contradicts its plan. */
export function generateDemoRows(seed: number = DEMO_SEED): DemoRow[] {
  const planRng = new Rng(seed);
  const groups = planGroups(planRng);
  plantHacks(planRng, groups);
  const rng = new Rng((seed ^ 0x5bd1e995) >>> 0);
  const rows: DemoRow[] = [];
  for (const g of groups) {
    const prompt: WireMessage[] = [
      { role: "system", content: POLICY },
      { role: "user", content: g.task.user },
    ];
    g.rollouts.forEach((plan, i) => {
      const shop = new Shop(g.task, rng);
      const session = new Session(shop, rng, plan.chatty);
      const voice: Voice = { style: plan.style, closing: plan.closing };
      plan.strategy.run(session, g.task, voice, plan, rng);
      const last = session.messages[session.messages.length - 1];
      const answer = last?.role === "assistant" && last.content !== null ? last.content : "";
      const verdict = verify(g.task, shop, answer);
      const reward = verdict.resolved === 1 && verdict.policy === 1 ? 1 : 0;
      const id = `${g.id}/${i}`;
      if ((reward === 1) !== (plan.outcome === "pass"))
        throw new Error(
          `${id}: strategy "${plan.strategy.name}" was planned to ${plan.outcome} but the verifier says ${reward} (${verdict.note ?? "no note"})`,
        );
      rows.push({
        group_id: g.id,
        id,
        prompt,
        messages: session.messages,
        reward,
        rewards: { resolved: verdict.resolved, policy: verdict.policy },
        meta: {
          scenario: g.task.scenario,
          variant: g.task.variant,
          strategy: plan.strategy.name,
          style: `s${plan.style}`,
          planted_hack: plan.strategy.hack,
          hack_note: plan.strategy.note ?? null,
          verifier_note: verdict.note,
          order_id: g.task.target.id,
        },
      });
    });
  }
  return rows;
}
