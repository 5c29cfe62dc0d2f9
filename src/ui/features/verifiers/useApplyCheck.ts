/**
 * The check before a spec is applied: its preview runs in a worker of its own, then the spec is
 * applied at once when nobody passes differently (or it does not fit the data, so its status says
 * why), else the panel asks (verifiersPanelModel.ts `verifierApplyDecision`).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { AnalysisSettings, GroupAnnotation, VerifierSpec } from "../../../core/index.ts";
import { verifiersPreview } from "../../../store/verifiers/verifierStore.ts";
import type { FlipView } from "./prepareVerifiers.ts";
import { verifierApplyDecision } from "./verifiersPanelModel.ts";

/** The check before applying: none, running, or waiting for the user to confirm a flip. */
export type ApplyCheck =
  | { readonly kind: "idle" }
  | { readonly kind: "checking" }
  | {
      readonly kind: "confirm" | "applied";
      readonly spec: VerifierSpec;
      readonly view: FlipView;
      /** What to do once it is applied (the import's message). */
      readonly done?: () => void;
    }
  | { readonly kind: "error"; readonly message: string };

export function useApplyCheck(
  applySpec: (spec: VerifierSpec) => void,
  settings: AnalysisSettings,
  annotationGroups: Readonly<Record<string, GroupAnnotation>>,
) {
  const [check, setCheck] = useState<ApplyCheck>({ kind: "idle" });
  const checking = useRef<AbortController | null>(null);
  useEffect(() => () => checking.current?.abort(), []);

  /**
   * Apply a spec once it is known who it makes pass differently: at once when nobody, else after
   * the user confirms the flips listed.
   */
  const request = (next: VerifierSpec, done?: () => void): void => {
    checking.current?.abort();
    const controller = new AbortController();
    checking.current = controller;
    setCheck({ kind: "checking" });
    verifiersPreview(next, settings, controller.signal).then(
      (preview) => {
        if (controller.signal.aborted) return;
        const decision = verifierApplyDecision(preview, annotationGroups);
        if (decision.kind !== "confirm") {
          applySpec(next);
          done?.();
        }
        if (decision.kind === "apply-unfit") setCheck({ kind: "idle" });
        else
          setCheck({
            kind: decision.kind === "apply" ? "applied" : "confirm",
            spec: next,
            view: decision.view,
            done,
          });
      },
      (e: unknown) => {
        if (controller.signal.aborted) return;
        setCheck({
          kind: "error",
          message: `The check of who passes failed, so nothing was applied: ${e instanceof Error ? e.message : String(e)}`,
        });
      },
    );
  };
  const confirm = (): void => {
    if (check.kind !== "confirm") return;
    applySpec(check.spec);
    check.done?.();
    setCheck({ ...check, kind: "applied" });
  };
  const dismiss = useCallback(() => setCheck({ kind: "idle" }), []);
  /** An edit of the draft drops a question about the spec before it. */
  const edited = (): void => {
    if (check.kind === "confirm") setCheck({ kind: "idle" });
  };
  return { check, request, confirm, dismiss, edited };
}
