import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import MarkdownRenderer from "./MarkdownRenderer.tsx";

// Vitest runs without globals, so RTL cannot register its own afterEach cleanup.
afterEach(cleanup);

describe("links in transcripts (issue 13, finding 11)", () => {
  it("leaves a bare URL, www address and e-mail address as text", () => {
    const { container } = render(
      <MarkdownRenderer text="See https://evil.example/x?a=1, www.evil.example and bob@evil.example now." />,
    );
    expect(container.querySelector("a")).toBeNull();
    expect(screen.queryByTestId("transcript.link")).toBeNull();
    expect(container.textContent).toBe(
      "See https://evil.example/x?a=1, www.evil.example and bob@evil.example now.",
    );
  });

  it("shows a written link's full target and has no live href on the page", () => {
    const { container } = render(
      <MarkdownRenderer text="Read [the docs](https://evil.example/phish) or <https://evil.example/auto>." />,
    );
    expect(container.querySelector("a[href]")).toBeNull();
    const links = screen.getAllByTestId("transcript.link");
    expect(links.map((l) => l.getAttribute("data-href"))).toEqual([
      "https://evil.example/phish",
      "https://evil.example/auto",
    ]);
    expect(links[0]!.textContent).toBe("the docs ⟨https://evil.example/phish⟩");
  });

  it("opens a link only from a confirmation that shows the whole URL", () => {
    render(<MarkdownRenderer text="[click](https://evil.example/phish)" />);
    expect(screen.queryByTestId("link-confirm")).toBeNull();
    fireEvent.click(within(screen.getByTestId("transcript.link")).getByRole("button"));
    const dialog = screen.getByTestId("link-confirm");
    expect(screen.getByTestId("link-confirm.url").textContent).toBe("https://evil.example/phish");
    const open = screen.getByTestId("link-confirm.open");
    expect(open.getAttribute("href")).toBe("https://evil.example/phish");
    expect(open.getAttribute("rel")).toBe("noopener noreferrer nofollow");
    expect(open.getAttribute("target")).toBe("_blank");
    // The dialog is in the body, outside the paragraph the link sits in.
    expect(dialog.closest("p")).toBeNull();
  });

  it("keeps an unsafe link text without a target", () => {
    const { container } = render(<MarkdownRenderer text="[x](javascript:alert(1))" />);
    expect(screen.queryByTestId("transcript.link")).toBeNull();
    expect(container.textContent).toBe("x");
  });
});
