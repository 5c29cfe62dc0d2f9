/**
 * The annotation panel above the rollout columns (composed by ui/app into the Rollouts tab): the
 * human ranking, the group's notes and the hack taxonomy.
 */
import { memo } from "react";
import { useStore } from "../../../store/index.ts";
import type { GroupView } from "../../../store/hooks.ts";
import HackReasonsEditor from "./HackReasonsEditor.tsx";
import NoteField from "./NoteField.tsx";
import RankingPanel from "./RankingPanel.tsx";
import styles from "./Annotate.module.css";

/**
 * The group's notes and the taxonomy. Apart from the ranking and memoised on the group id: the
 * panel re-renders with every change of the group's analysis (each ranking keystroke), these do
 * not.
 */
const GroupNotes = memo(function GroupNotes({ groupId }: { groupId: string }) {
  const notes = useStore((s) => s.annotations.groups[groupId]?.notes ?? "");
  const setGroupNotes = useStore((s) => s.setGroupNotes);
  return (
    <div className={styles.groupNotes}>
      <NoteField
        value={notes}
        label="Group notes"
        testId="annotate.group-notes"
        onCommit={(text) => setGroupNotes(groupId, text.trim() === "" ? "" : text)}
      />
      <details className={styles.taxonomy}>
        <summary>Hack reasons</summary>
        <HackReasonsEditor />
      </details>
    </div>
  );
});

export default function AnnotatePanel({ parsed }: { parsed: GroupView }) {
  const groupId = parsed.group.id;
  return (
    <div className={styles.annotate} data-testid="annotate.panel">
      <RankingPanel key={groupId} groupId={groupId} parsed={parsed} />
      <GroupNotes groupId={groupId} />
    </div>
  );
}
