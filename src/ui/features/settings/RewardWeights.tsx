/**
 * Reward weights per component (TRL `reward_weights`): with weights set, a rollout's reward is the
 * weighted sum of its components (NaN ones skipped, missing weights 1); without, the reward the
 * dump logged. Shown only when the rollouts carry reward components.
 */
import { useDeferredValue, useId, useMemo } from "react";
import { rewardComponentNames } from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import { useLoadedGroups, useSettings } from "../../../store/hooks.ts";
import styles from "./Settings.module.css";

function WeightInput({ name, weight }: { name: string; weight: number }) {
  const id = useId();
  const setSetting = useStore((s) => s.setSetting);
  const weights = useSettings().rewardWeights;
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label} title={`Weight of the reward component ${name}`}>
        {name}
      </label>
      <input
        id={id}
        className={styles.number}
        type="number"
        step={0.1}
        defaultValue={weight}
        key={`${weights === null ? "logged" : "weighted"}`}
        data-testid={`settings-weight-${name}`}
        onChange={(e) => {
          const value = e.currentTarget.valueAsNumber;
          if (Number.isFinite(value)) setSetting("rewardWeights", { ...weights, [name]: value });
        }}
      />
    </div>
  );
}

export default function RewardWeights() {
  const loaded = useLoadedGroups();
  // Every rollout is read for its component names (400k for a 100k-group file): in a render of
  // its own after a load, so the group list and the open group show first.
  const groups = useDeferredValue(loaded);
  const settings = useSettings();
  const setSetting = useStore((s) => s.setSetting);
  const names = useMemo(() => (groups ? rewardComponentNames(groups.values()) : []), [groups]);
  if (names.length === 0) return null;
  const weights = settings.rewardWeights;
  return (
    <fieldset className={styles.weights} data-testid="settings.weights">
      <legend title="TRL reward_weights: R = sum of w_k * r_k over the components (NaN skipped)">
        Reward weights
      </legend>
      <label className={styles.field}>
        <input
          type="checkbox"
          checked={weights !== null}
          data-testid="settings-weights-on"
          onChange={(e) =>
            setSetting(
              "rewardWeights",
              e.currentTarget.checked ? Object.fromEntries(names.map((n) => [n, 1])) : null,
            )
          }
        />
        weighted sum of components (off: the logged reward)
      </label>
      {weights !== null
        ? names.map((name) => <WeightInput key={name} name={name} weight={weights[name] ?? 1} />)
        : null}
    </fieldset>
  );
}
