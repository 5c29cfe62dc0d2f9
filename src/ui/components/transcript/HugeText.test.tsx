/**
 * A 50 MB completion in a transcript (issue 16, point 3): folded with its size, opened in pieces
 * with only the visible rows in the DOM, and searchable to its end.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { testRollout } from "../../../test/rolloutFixtures.ts";
import { HUGE_TEXT_CHARS, PIECE_CHARS } from "./hugeText.ts";
import { Transcript } from "./Transcript.tsx";

afterEach(cleanup);

// jsdom lays nothing out and cannot scroll: scrollTo moves scrollTop and fires "scroll", so the
// virtualiser renders the rows around a match it scrolls to, as a browser does.
beforeAll(() => {
  vi.spyOn(Element.prototype, "clientHeight", "get").mockReturnValue(360);
  vi.spyOn(Element.prototype, "clientWidth", "get").mockReturnValue(640);
  // The virtualiser clamps a scroll to scrollHeight - clientHeight: a piece is far taller.
  vi.spyOn(Element.prototype, "scrollHeight", "get").mockReturnValue(1e7);
  const tops = new WeakMap<Element, number>();
  vi.spyOn(Element.prototype, "scrollTop", "get").mockImplementation(function (this: Element) {
    return tops.get(this) ?? 0;
  });
  vi.spyOn(Element.prototype, "scrollTop", "set").mockImplementation(function (
    this: Element,
    top: number,
  ) {
    tops.set(this, top);
  });
  Object.defineProperty(HTMLElement.prototype, "scrollTo", {
    configurable: true,
    value(this: HTMLElement, options: ScrollToOptions) {
      if (options.top !== undefined) this.scrollTop = options.top;
      this.dispatchEvent(new Event("scroll"));
    },
  });
});

const LINE = "The quick brown fox jumps over the lazy dog, again and again and again.\n";
const MARKER = "LATE-MARKER-7731";

/** ~50 MB of text, with MARKER near its end (and nowhere else). */
function hugeCompletion(): string {
  const body = LINE.repeat(Math.ceil(50_000_000 / LINE.length));
  const at = body.length - 5_000;
  return `${body.slice(0, at)}${MARKER}${body.slice(at)}`;
}

describe("a huge completion in the transcript", () => {
  const completion = hugeCompletion();
  const rollout = testRollout({ id: "g/0", messages: [], completion, reward: 1 });

  it("folds with its size in characters, then bytes, and never renders the whole", async () => {
    const { container } = render(<Transcript rollout={rollout} showPrompt={false} />);
    expect(completion.length).toBeGreaterThan(HUGE_TEXT_CHARS);
    const label = screen.getByTestId("huge-text.label");
    expect(label.textContent).toMatch(/^[\d,]+ characters of text, shown in pieces/);
    await waitFor(() => expect(label.textContent).toMatch(/^50\.0 MB text, shown in pieces/), {
      timeout: 20_000,
    });
    expect(label.textContent).toContain(
      `(${completion.length.toLocaleString("en-US")} characters)`,
    );
    expect(container.textContent.length).toBeLessThan(5_000);
  });

  it("opens in pieces: a bounded number of rows in the DOM", () => {
    const { container } = render(<Transcript rollout={rollout} showPrompt={false} />);
    fireEvent.click(screen.getByTestId("huge-text.toggle"));
    const rows = screen.getAllByTestId("huge-text.row");
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(80);
    expect(rows[0]!.textContent).toBe(LINE.trimEnd());
    expect(container.querySelectorAll("*").length).toBeLessThan(500);
    expect(container.textContent.length).toBeLessThan(20_000);
    const pieces = Math.ceil(completion.length / PIECE_CHARS);
    expect(screen.getByTestId("huge-text.piece").textContent).toContain(`piece 1 of ${pieces}`);
    fireEvent.click(screen.getByTestId("huge-text.piece-next"));
    expect(screen.getByTestId("huge-text.piece").getAttribute("data-piece")).toBe("2");
  });

  it("finds a match near the end of the whole text and scrolls to it", async () => {
    render(<Transcript rollout={rollout} showPrompt={false} />);
    fireEvent.click(screen.getByTestId("huge-text.toggle"));
    const view = screen.getByTestId("huge-text.view");
    fireEvent.change(within(view).getByTestId("huge-text.search"), {
      target: { value: MARKER.toLowerCase() },
    });
    act(() => {
      fireEvent.submit(within(view).getByRole("search"));
    });
    await waitFor(
      () => expect(within(view).getByTestId("huge-text.status").textContent).toBe("1 of 1"),
      { timeout: 30_000 },
    );
    const last = Math.floor(completion.indexOf(MARKER) / PIECE_CHARS) + 1;
    await waitFor(() =>
      expect(within(view).getByTestId("huge-text.piece").getAttribute("data-piece")).toBe(
        String(last),
      ),
    );
    const current = await within(view).findByTestId("huge-text.current");
    expect(current.textContent).toBe(MARKER);
    expect(screen.getAllByTestId("huge-text.row").length).toBeLessThan(80);
  });

  it("says so when nothing matches", async () => {
    render(<Transcript rollout={rollout} showPrompt={false} />);
    fireEvent.click(screen.getByTestId("huge-text.toggle"));
    fireEvent.change(screen.getByTestId("huge-text.search"), { target: { value: "zebra" } });
    fireEvent.submit(screen.getByRole("search"));
    await waitFor(
      () => expect(screen.getByTestId("huge-text.status").textContent).toBe("no match"),
      { timeout: 30_000 },
    );
  });
});
