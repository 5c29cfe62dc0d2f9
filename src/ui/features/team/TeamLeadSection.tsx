/**
 * The lead's part of the team panel (issue 18; shown only to a lead): the queues with each
 * person's progress and the form for a new one, the live agreement over a queue's overlap or every
 * group, the disagreements, and the resolution of one of them side by side. It follows the team:
 * everything is read again on every `team` event (store/slices/teamLeadSlice.ts), and the
 * agreement is core's function of what was read (store/teamLead.ts).
 */
import { useEffect, useMemo, useState } from "react";
import { GROUP_ANNOTATION_EMPTY, type GroupAnnotation } from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import { useLoadedGroups } from "../../../store/hooks.ts";
import { selectTeamMode, teamModeKey } from "../../../store/team/teamSelectors.ts";
import { teamGoldSuggestionOf, useTeamAgreement, useTeamFacts } from "../../../store/teamLead.ts";
import { LeadAgreementTable, LeadDisagreements } from "./LeadAgreement.tsx";
import LeadQueueForm from "./LeadQueueForm.tsx";
import LeadQueues from "./LeadQueues.tsx";
import LeadResolve from "./LeadResolve.tsx";
import type { DisagreementGroup } from "./leadAgreementModel.ts";
import styles from "./TeamLead.module.css";

/** The open resolution: a group and the pair whose annotations are compared. */
interface Opened {
  readonly key: string;
  readonly groupId: string;
  readonly users: readonly [string, string];
}

/** Follow the team while a lead's page shows this (one subscription per session). */
function useLeadFollow(): boolean {
  const lead = useStore((s) => selectTeamMode(s)?.team.role === "lead");
  const sessionKey = useStore((s) => teamModeKey(selectTeamMode(s)));
  const follow = useStore((s) => s.teamLeadFollow);
  useEffect(() => (lead && sessionKey !== null ? follow() : undefined), [lead, sessionKey, follow]);
  return lead;
}

export function TeamLeadSection() {
  const lead = useLeadFollow();
  const state = useStore((s) => s.teamLead);
  const createQueue = useStore((s) => s.teamLeadCreateQueue);
  const saveGold = useStore((s) => s.teamLeadSaveGold);
  const selectGroup = useStore((s) => s.selectGroup);
  const facts = useTeamFacts();
  const groups = useLoadedGroups();
  const { data } = state;
  const queueNames = useMemo(() => data.queues.map((q) => q.name), [data.queues]);
  const [scope, setScope] = useState<string | null>(null);
  const agreement = useTeamAgreement(scope);
  const [opened, setOpened] = useState<Opened | null>(null);
  if (!lead) return null;

  const open = (g: DisagreementGroup): void => {
    setOpened({ key: g.key, groupId: g.groupId, users: [g.first, g.second] });
    selectGroup(g.groupId);
  };
  const annotationOf = (user: string, groupId: string): GroupAnnotation => {
    const person = data.people.find((p) => p.user === user);
    const g = person?.annotations.groups;
    return g !== undefined && Object.hasOwn(g, groupId) ? g[groupId]! : GROUP_ANNOTATION_EMPTY;
  };
  const gold = data.gold;
  const savedGold = (groupId: string): GroupAnnotation | null =>
    gold !== null && Object.hasOwn(gold.annotations.groups, groupId)
      ? gold.annotations.groups[groupId]!
      : null;

  return (
    <section
      className={styles.lead}
      aria-label="The team's work"
      data-testid="team.lead"
      data-reads={state.reads}
      data-status={state.status}
    >
      <h3 className={styles.title}>Lead: the team&apos;s work</h3>
      {state.status === "reading" ? <p className={styles.muted}>Reading the team…</p> : null}
      {state.message !== null ? (
        <p className={styles.error} role="alert" data-testid="team.lead-error">
          {state.message}
        </p>
      ) : null}
      <section className={styles.section} aria-label="Queues">
        <h4 className={styles.heading}>Queues</h4>
        <LeadQueues queues={data.queues} progress={data.progress} />
        <details className={styles.section} open={data.queues.length === 0}>
          <summary className={styles.formSummary}>New queue</summary>
          {facts === null ? (
            <p className={styles.muted}>The run is loading.</p>
          ) : (
            <LeadQueueForm
              facts={facts}
              users={data.users}
              taken={queueNames}
              onCreate={createQueue}
            />
          )}
        </details>
      </section>
      <LeadAgreementTable
        agreement={agreement}
        queues={queueNames}
        queue={scope}
        onQueue={setScope}
      />
      <LeadDisagreements
        agreement={agreement}
        resolvedBy={gold?.resolvedBy ?? {}}
        open={opened?.key ?? null}
        onOpen={open}
      />
      {opened === null ? null : (
        <LeadResolve
          key={opened.key}
          groupId={opened.groupId}
          users={opened.users}
          sides={[
            annotationOf(opened.users[0], opened.groupId),
            annotationOf(opened.users[1], opened.groupId),
          ]}
          rolloutIds={groups?.get(opened.groupId)?.rollouts.map((r) => r.id) ?? []}
          saved={savedGold(opened.groupId)}
          resolvedBy={
            gold !== null && Object.hasOwn(gold.resolvedBy, opened.groupId)
              ? gold.resolvedBy[opened.groupId]!
              : null
          }
          suggestion={teamGoldSuggestionOf(data.people, opened.groupId, opened.users)}
          onSave={(annotation) => saveGold(opened.groupId, annotation)}
          onClose={() => setOpened(null)}
        />
      )}
    </section>
  );
}

export default TeamLeadSection;
