/** A hook that turns true once the page is first idle after the component mounts. */
import { useEffect, useState } from "react";

/**
 * False until the page is first idle after the component mounts: work that waits for it (the
 * metadata field discovery, up to DISCOVERY_ROLLOUTS rollouts) stays out of the group browser's
 * mounting render (T8).
 */
export function useIdle(): boolean {
  const [idle, setIdle] = useState(false);
  // The idle callback is an external system (the browser's scheduler).
  useEffect(() => {
    if (typeof requestIdleCallback === "function") {
      const handle = requestIdleCallback(() => setIdle(true), { timeout: 1000 });
      return () => cancelIdleCallback(handle);
    }
    const handle = setTimeout(() => setIdle(true), 0);
    return () => clearTimeout(handle);
  }, []);
  return idle;
}
