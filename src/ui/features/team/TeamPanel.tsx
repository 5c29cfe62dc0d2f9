/**
 * The team panel (team mode, `view RUN --db URL`, issue 18): the toolbar offers it only in team
 * mode (ui/app/datasetPanels.ts, `teamOnly`). Everyone gets the annotator's section (who they are,
 * their queues and the open queue's groups): a lead annotates too. The lead's section (queues for
 * everyone, agreement, resolution to gold) mounts below it, for a lead only.
 */
import { useTeamMode } from "../../../store/team/teamHooks.ts";
import AnnotatorSection from "./AnnotatorSection.tsx";
import { TeamLeadSection } from "./TeamLeadSection.tsx";
import styles from "./Team.module.css";

export default function TeamPanel() {
  const mode = useTeamMode();
  if (mode === null)
    return (
      <p className={styles.note}>
        Team mode only: open the studio served by <code>rollout-studio view RUN --db URL</code> with
        your own token.
      </p>
    );
  return (
    <>
      <AnnotatorSection mode={mode} />
      {mode.team.role === "lead" ? <TeamLeadSection /> : null}
    </>
  );
}
