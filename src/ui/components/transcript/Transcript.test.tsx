import { cleanup, fireEvent, render, screen } from "@testing-library/react";
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
});
