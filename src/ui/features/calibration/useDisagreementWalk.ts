/**
 * The calibration panel's walk through the disagreements: which one is open, selecting its group
 * and revealing its rollout (revealRollout), the note when it cannot be shown, and stopping the
 * reveal when the walk ends or the panel closes.
 */
import { useEffect, useRef, useState } from "react";
import { useStore } from "../../../store/index.ts";
import { revealNote } from "./calibrationPanelModel.ts";
import type { DisagreementView } from "./prepareCalibration.ts";
import { revealClear, revealRollout } from "./revealRollout.ts";

export interface DisagreementWalk {
  /** The position asked for (prepareDisagreements clamps it), or null while no walk is open. */
  readonly walk: number | null;
  readonly note: string;
  /** Opens the disagreement at `index`: selects its group and reveals its rollout. */
  readonly open: (item: DisagreementView, index: number) => void;
  readonly stop: () => void;
}

export function useDisagreementWalk(): DisagreementWalk {
  const selectGroup = useStore((s) => s.selectGroup);
  const [walk, setWalk] = useState<number | null>(null);
  const [note, setNote] = useState("");
  const revealing = useRef<AbortController | null>(null);
  // The reveal waits on the DOM (an external system): stop it and unmark when the panel closes.
  useEffect(
    () => () => {
      revealing.current?.abort();
      revealClear();
    },
    [],
  );

  const open = (item: DisagreementView, index: number): void => {
    setWalk(index);
    setNote("");
    revealing.current?.abort();
    const controller = new AbortController();
    revealing.current = controller;
    selectGroup(item.groupId);
    revealRollout(item.rolloutId, controller.signal)
      .then((shown) => {
        if (controller.signal.aborted) return;
        setNote(revealNote(item, shown));
      })
      .catch((error: unknown) => console.error("could not show the rollout", error));
  };
  const stop = (): void => {
    revealing.current?.abort();
    revealClear();
    setWalk(null);
    setNote("");
  };
  return { walk, note, open, stop };
}
