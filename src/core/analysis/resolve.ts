/**
 * Resolve id-based annotations against the loaded groups: ids become indices, and every id that
 * names nothing is reported instead of being silently dropped.
 */
import type { GroupId, RolloutGroup, RolloutId } from "../types.ts";
import type { Annotations, HumanLabel } from "./annotations.ts";

/** Where a group's GAR ranking and hacks come from: a person, an LLM judge's run, or the heuristic grader. */
export type GarSource = "human" | "judge" | "heuristic";

export interface ResolvedAnnotation {
  /** Best-first tiers of indices into the group; duplicates removed (and reported). */
  readonly ranking: readonly (readonly number[])[];
  readonly hacks: readonly number[];
  /** Per index: the human label, or null. */
  readonly labels: readonly (HumanLabel | null)[];
  readonly notes: string;
  /** Who ranked: the ranking and hacks are a judge run's when not "human" (absent: "human"). */
  readonly source?: GarSource;
}

export interface AnnotationProblem {
  readonly groupId: GroupId;
  readonly rolloutId?: RolloutId;
  readonly message: string;
}

export interface ResolvedAnnotations {
  /** By group id; groups without annotations are absent. */
  readonly byGroup: ReadonlyMap<GroupId, ResolvedAnnotation>;
  /** Ids that are not in the data: the annotations belong to another dataset or were edited. */
  readonly unknown: readonly AnnotationProblem[];
  /** Recoverable problems, e.g. an id ranked twice (the first place is kept). */
  readonly warnings: readonly AnnotationProblem[];
}

export function annotationsResolve(
  groups: readonly RolloutGroup[],
  annotations: Annotations,
): ResolvedAnnotations {
  const byId = new Map(groups.map((g) => [g.id, g]));
  const byGroup = new Map<GroupId, ResolvedAnnotation>();
  const unknown: AnnotationProblem[] = [];
  const warnings: AnnotationProblem[] = [];
  for (const [groupId, annotation] of Object.entries(annotations.groups)) {
    const group = byId.get(groupId);
    if (group === undefined) {
      unknown.push({ groupId, message: `group "${groupId}" is not in the data` });
      continue;
    }
    const indexOf = new Map(group.rollouts.map((r, i) => [r.id, i]));
    const lookup = (rolloutId: RolloutId, where: string): number | null => {
      const i = indexOf.get(rolloutId);
      if (i === undefined) {
        unknown.push({
          groupId,
          rolloutId,
          message: `${where} names rollout "${rolloutId}", which is not in group "${groupId}"`,
        });
        return null;
      }
      return i;
    };
    const seen = new Set<number>();
    const ranking = annotation.ranking
      .map((tier) =>
        tier.flatMap((id) => {
          const i = lookup(id, "the ranking");
          if (i === null) return [];
          if (seen.has(i)) {
            warnings.push({
              groupId,
              rolloutId: id,
              message: `rollout "${id}" is ranked twice; its first place is kept`,
            });
            return [];
          }
          seen.add(i);
          return [i];
        }),
      )
      .filter((tier) => tier.length > 0);
    const hacks = [
      ...new Set(
        annotation.hacks.flatMap((id) => {
          const i = lookup(id, "the hacks list");
          return i === null ? [] : [i];
        }),
      ),
    ].sort((a, b) => a - b);
    const labels = new Array<HumanLabel | null>(group.rollouts.length).fill(null);
    for (const [id, label] of Object.entries(annotation.labels)) {
      const i = lookup(id, "the labels");
      if (i !== null) labels[i] = label;
    }
    byGroup.set(groupId, { ranking, hacks, labels, notes: annotation.notes });
  }
  return { byGroup, unknown, warnings };
}

/**
 * What an import into partly parsed data (an indexed file) reports: the annotations resolved
 * against the parsed groups, with a group that is not parsed yet checked by its id alone (its
 * rollouts are not known yet, so they are not reported as missing). Ids of groups the data does
 * not have at all, and every warning, are reported.
 */
export function annotationsImportProblems(
  parsed: readonly RolloutGroup[],
  knownGroupIds: ReadonlySet<GroupId>,
  annotations: Annotations,
): AnnotationProblem[] {
  const resolved = annotationsResolve(parsed, annotations);
  const parsedIds = new Set(parsed.map((g) => g.id));
  return [
    ...resolved.unknown.filter((p) => parsedIds.has(p.groupId) || !knownGroupIds.has(p.groupId)),
    ...resolved.warnings,
  ];
}
