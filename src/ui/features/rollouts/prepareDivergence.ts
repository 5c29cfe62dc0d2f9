/**
 * View model of the divergence view: the group's common prefix, then its branches side by side,
 * each with its members (id, reward, cluster) and the step that sets it apart. Pure; built from
 * core's divergence tree and the group's analysis.
 */
import type {
  DivergenceNode,
  DivergenceStep,
  GroupAnalysis,
  RolloutGroup,
} from "../../../core/index.ts";
import { plainNumber } from "../../components/numbers.ts";
import { prettyJson } from "../../components/transcript/prepareTranscript.ts";

export interface DivergenceStepView {
  /** 1-based position in the trajectory. */
  readonly number: number;
  readonly kind: DivergenceStep["kind"];
  /** "assistant", "call", "result", "tool error". */
  readonly label: string;
  /** The tool's name for a call or a result, when known. */
  readonly tool: string | null;
  /** The text, the pretty-printed arguments, or the result (pretty-printed when JSON). */
  readonly text: string;
}

export interface DivergenceMemberView {
  readonly id: string;
  readonly reward: string;
  readonly passed: boolean;
  readonly cluster: number;
  readonly clusterSize: number;
}

export interface DivergenceBranchView {
  readonly key: string;
  readonly members: readonly DivergenceMemberView[];
  /** Of the members, how many pass. */
  readonly passes: number;
  /** The step that differs from the sibling branches; null when the members' trajectories end there. */
  readonly first: DivergenceStepView | null;
  /** The steps the members go on sharing after `first`, before they split again or end. */
  readonly rest: readonly DivergenceStepView[];
  readonly branches: readonly DivergenceBranchView[];
}

export interface DivergenceView {
  readonly rollouts: number;
  readonly prefix: readonly DivergenceStepView[];
  /** 1-based number of the first step at which the rollouts differ; null when they never do. */
  readonly split: number | null;
  readonly branches: readonly DivergenceBranchView[];
  readonly summary: string;
}

/**
 * Characters of a step's text shown (clamped to a few lines by the style sheet, the rest in its
 * tooltip): a step of a huge text would otherwise put its whole prefix into the DOM twice.
 */
export const STEP_TEXT_CHARS = 4000;

/** A step's text as shown: at most STEP_TEXT_CHARS, with an ellipsis where it was cut. */
function shown(text: string, cut: boolean): string {
  return text.length > STEP_TEXT_CHARS
    ? `${text.slice(0, STEP_TEXT_CHARS)}…`
    : cut
      ? `${text}…`
      : text;
}

export function prepareStep(step: DivergenceStep, index: number): DivergenceStepView {
  const number = index + 1;
  switch (step.kind) {
    case "turn":
      return {
        number,
        kind: step.kind,
        label: step.role,
        tool: null,
        text: shown(step.text, step.cut),
      };
    case "call":
      return {
        number,
        kind: step.kind,
        label: "call",
        tool: step.name,
        text: shown(step.argsValid ? (prettyJson(step.args) ?? step.args) : step.args, step.cut),
      };
    case "result":
      return {
        number,
        kind: step.kind,
        label: step.error ? "tool error" : "result",
        tool: step.name,
        text: shown(step.cut ? step.text : (prettyJson(step.text) ?? step.text), step.cut),
      };
  }
}

function steps(node: DivergenceNode, from: number): DivergenceStepView[] {
  return node.steps.slice(from).map((s, i) => prepareStep(s, node.start + from + i));
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function prepareDivergence(
  group: RolloutGroup,
  analysis: GroupAnalysis,
  tree: DivergenceNode,
): DivergenceView {
  const member = (i: number): DivergenceMemberView => {
    const s = analysis.rollouts[i]!;
    return {
      id: group.rollouts[i]!.id,
      reward: plainNumber(s.reward),
      passed: s.passed,
      cluster: s.cluster,
      clusterSize: s.clusterSize,
    };
  };
  const branch = (node: DivergenceNode): DivergenceBranchView => {
    const members = node.members.map(member);
    return {
      key: node.members.join(","),
      members,
      passes: members.filter((m) => m.passed).length,
      first: node.steps.length === 0 ? null : prepareStep(node.steps[0]!, node.start),
      rest: steps(node, 1),
      branches: node.branches.map(branch),
    };
  };
  const n = group.rollouts.length;
  const k = tree.steps.length;
  const split = tree.branches.length === 0 ? null : k + 1;
  const summary =
    n < 2
      ? "One rollout: nothing to compare."
      : split === null
        ? `All ${n} rollouts take the same ${plural(k, "step")}: they never diverge.`
        : k === 0
          ? `The ${n} rollouts differ from the first step, in ${plural(tree.branches.length, "branch", "branches")}.`
          : `All ${n} rollouts share the first ${k === 1 ? "step" : `${k} steps`}; at step ${split} they split into ${tree.branches.length} branches.`;
  return {
    rollouts: n,
    prefix: steps(tree, 0),
    split,
    branches: tree.branches.map(branch),
    summary,
  };
}
