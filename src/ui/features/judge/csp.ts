/**
 * The page's connection policy as public/judge-csp.js set it at load: which judge origin the
 * Content-Security-Policy allows. A new origin is allowed only after a reload, which re-reads the
 * persisted connection.
 */

/** The judge origin the policy allows ("" for none), or null when the page has no such policy. */
export function cspAllowedOrigin(): string | null {
  const meta = document.querySelector(
    'meta[http-equiv="Content-Security-Policy"][data-judge-origin]',
  );
  return meta === null ? null : (meta.getAttribute("data-judge-origin") ?? "");
}

/** Reload the page so the policy allows the newly saved judge origin. */
export function reloadForPolicy(): void {
  window.location.reload();
}
