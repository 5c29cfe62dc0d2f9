/**
 * False on the first render, then true through a transition: what is behind it renders in a
 * concurrent, interruptible render after the first paint, not in the render that mounts it.
 * Transcripts put their markdown behind it: a 64-rollout group has a few hundred messages, and
 * parsing all their markdown in the mounting render was one main-thread task of about 0.5 s on the
 * 2-core machine (bench: a long task at index-done). As a transition the same work yields to input
 * and paint between components, and the plain text stands in meanwhile.
 */
import { startTransition, useEffect, useState } from "react";

export function useDeferredMount(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    startTransition(() => setReady(true));
  }, []);
  return ready;
}
