import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ChatMessage, Rollout } from "../../../core/index.ts";
import { FOLD_MAX_CHARS, MESSAGE_PAGE } from "./prepareTranscript.ts";
import { Transcript } from "./Transcript.tsx";
import { testRollout } from "../../../test/rolloutFixtures.ts";

// Vitest runs without globals, so RTL cannot register its own afterEach cleanup.
afterEach(cleanup);

function msg(role: string, content: string, over: Partial<ChatMessage> = {}): ChatMessage {
  return { role, content, toolCalls: [], toolCallId: null, name: null, ...over };
}

function rollout(messages: ChatMessage[]): Rollout {
  return testRollout({
    id: "g/0",
    messages,
    completion: null,
    reward: 1,
  });
}

describe("Transcript", () => {
  it("renders a long transcript a page of messages at a time", () => {
    const messages = Array.from({ length: 250 }, (_, i) =>
      msg(i % 2 ? "assistant" : "user", `message ${i}`),
    );
    render(<Transcript rollout={rollout(messages)} showPrompt={false} />);
    expect(screen.getAllByTestId("transcript.turn")).toHaveLength(MESSAGE_PAGE);
    fireEvent.click(screen.getByTestId("transcript.more"));
    expect(screen.getAllByTestId("transcript.turn")).toHaveLength(2 * MESSAGE_PAGE);
  });

  it("folds a 20,000-character text to its head until asked", () => {
    const long = "lorem ipsum ".repeat(1700);
    const { container } = render(
      <Transcript rollout={rollout([msg("assistant", long)])} showPrompt={false} />,
    );
    expect(container.textContent.length).toBeLessThan(FOLD_MAX_CHARS + 200);
    const toggle = screen.getByTestId("fold-toggle");
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(toggle);
    expect(container.textContent.length).toBeGreaterThan(long.length - 100);
  });

  it("folds tool results to a preview and expands them", () => {
    const r = rollout([
      msg("assistant", "", {
        toolCalls: [{ id: "c1", name: "get_order", arguments: '{"order_id":"W1"}' }],
      }),
      msg("tool", '{"status":"shipped","carrier":"UPS"}', { toolCallId: "c1" }),
    ]);
    render(<Transcript rollout={r} showPrompt={false} />);
    expect(screen.getByTestId("transcript.tool-call").textContent).toContain('"order_id": "W1"');
    const result = screen.getByTestId("transcript.tool-result");
    expect(result.textContent).toContain("get_order");
    expect(result.textContent).not.toContain('"carrier": "UPS"');
    fireEvent.click(screen.getByTestId("tool-result-toggle"));
    expect(result.textContent).toContain('"carrier": "UPS"');
  });

  it("shows bidi controls and zero-width characters as named markers, in every kind of text", async () => {
    const r = rollout([
      msg("assistant", "rename to invoice\u202Etxt.exe and zero\u200Bwidth", {
        toolCalls: [{ id: "c1", name: "run\u202Ekcus", arguments: '{"path":"a\u2066b"}' }],
      }),
      msg("tool", "done \u202Eevil", { toolCallId: "c1" }),
    ]);
    const { container } = render(<Transcript rollout={r} showPrompt={false} />);
    fireEvent.click(screen.getByTestId("tool-result-toggle"));
    // The markdown turn renders once the lazy renderer has loaded; the code once it has too.
    // (The lazy import can take over a second on a loaded machine: waitFor's default.)
    await waitFor(() => expect(screen.getAllByTestId("markdown")).toHaveLength(2), {
      timeout: 5000,
    });
    const markers = screen.getAllByTestId("transcript.invisible");
    const codes = markers.map((m) => m.getAttribute("data-code"));
    // The turn's two, the tool name's (on the call and on its result), the arguments', the result's.
    expect(codes.sort()).toEqual(["U+200B", "U+202E", "U+202E", "U+202E", "U+202E", "U+2066"]);
    const text = container.textContent;
    expect(text).toContain("invoice⟨U+202E⟩txt.exe");
    expect(text).toContain("zero⟨U+200B⟩width");
    expect(text).toContain("run⟨U+202E⟩kcus");
    expect(text).toContain("done ⟨U+202E⟩evil");
    // None of them is left to act on the text around it.
    expect(/[\u202E\u200B\u2066]/u.test(text)).toBe(false);
    expect(markers[0]!.getAttribute("title")).toMatch(
      /^U\+\w+ [a-z :-]+ \(invisible; shown here\)$/,
    );
  });
});

describe("a patch", () => {
  it("renders as code with its lines, never as markdown lists", async () => {
    const patch =
      "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n- a = 1\n+ a = 2\n";
    const r = testRollout({ id: "g/0", messages: [msg("user", "fix x")], completion: patch });
    const { container } = render(<Transcript rollout={r} showPrompt={false} />);
    await waitFor(() => expect(container.querySelector("pre code")).not.toBeNull());
    expect(container.querySelector("ul, li")).toBeNull();
    expect(container.querySelector("pre code")!.textContent).toContain("- a = 1\n+ a = 2");
  });
});
