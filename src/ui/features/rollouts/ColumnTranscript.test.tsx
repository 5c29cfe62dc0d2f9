import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { afterEach, describe, expect, it } from "vitest";
import { testMessage, testRollout } from "../../../test/rolloutFixtures.ts";
import ColumnTranscript, { EAGER_OVERSCAN, eagerTranscript } from "./ColumnTranscript.tsx";

// Vitest runs without globals, so RTL cannot register its own afterEach cleanup.
afterEach(cleanup);

const rollout = testRollout({
  id: "g/7",
  messages: [testMessage("assistant", "the answer is 42")],
  completion: null,
});

describe("eagerTranscript", () => {
  it("mounts the visible columns, the overscan and pinned ones with the group", () => {
    const eager = Array.from({ length: 64 }, (_, i) => eagerTranscript(i, 4, i === 40));
    expect(eager.filter(Boolean)).toHaveLength(4 + EAGER_OVERSCAN + 1);
    expect(eager.slice(0, 4 + EAGER_OVERSCAN).every(Boolean)).toBe(true);
    expect(eager[40]).toBe(true);
    expect(eager[63]).toBe(false);
  });
});

describe("ColumnTranscript", () => {
  it("eager: the transcript is in the first render", () => {
    render(<ColumnTranscript rollout={rollout} showPrompt={false} eager />);
    expect(screen.getByText("the answer is 42")).toBeTruthy();
    expect(screen.queryByTestId("rollout-column.pending")).toBeNull();
  });

  it("deferred: a placeholder first, the transcript once the transition has rendered", async () => {
    // Outside act, so that the first commit is observable before the effect's transition runs.
    const g = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    const actEnvironment = g.IS_REACT_ACT_ENVIRONMENT;
    g.IS_REACT_ACT_ENVIRONMENT = false;
    const host = document.createElement("div");
    document.body.append(host);
    const root = createRoot(host);
    try {
      flushSync(() =>
        root.render(<ColumnTranscript rollout={rollout} showPrompt={false} eager={false} />),
      );
      expect(host.querySelector('[data-testid="rollout-column.pending"]')).not.toBeNull();
      expect(host.textContent).not.toContain("the answer is 42");
      await waitFor(() => expect(host.textContent).toContain("the answer is 42"));
      expect(host.querySelector('[data-testid="rollout-column.pending"]')).toBeNull();
    } finally {
      root.unmount();
      host.remove();
      g.IS_REACT_ACT_ENVIRONMENT = actEnvironment;
    }
  });
});
