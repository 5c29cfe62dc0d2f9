/**
 * The first page's only link to the verifiers: when this browser has a saved reward spec, load the
 * verifier store (which starts scoring the data with it); otherwise nothing loads until the
 * Verifiers panel opens.
 */

/** The localStorage key of the applied reward spec. */
export const VERIFIER_SPEC_STORAGE_KEY = "rollout-studio.verifiers";

export function verifiersBoot(): void {
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(VERIFIER_SPEC_STORAGE_KEY);
  } catch {
    return; // storage refused (privacy mode): nothing was saved
  }
  if (saved !== null)
    import("./verifierStore.ts").catch((e: unknown) => {
      console.error("The verifiers could not be loaded.", e);
    });
}
