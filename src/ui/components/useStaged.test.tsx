import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { useStaged } from "./useStaged.ts";

afterEach(cleanup);
beforeEach(() => {
  vi.useFakeTimers({
    toFake: ["setTimeout", "clearTimeout", "requestAnimationFrame", "cancelAnimationFrame"],
  });
  return () => vi.useRealTimers();
});

function Parts({ total, group }: { total: number; group: string }) {
  const shown = useStaged(total, group);
  return <p data-testid="shown">{`${group}:${shown}`}</p>;
}

const shown = () => screen.getByTestId("shown").textContent;
const oneTask = async (): Promise<void> => {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(20);
  });
};

describe("useStaged", () => {
  it("shows one part, then one more per task, up to the total", async () => {
    render(<Parts total={3} group="a" />);
    expect(shown()).toBe("a:1");
    await oneTask();
    expect(shown()).toBe("a:2");
    await oneTask();
    expect(shown()).toBe("a:3");
    await oneTask();
    await oneTask();
    expect(shown()).toBe("a:3");
  });

  it("starts over for another key and follows a changed total", async () => {
    const view = render(<Parts total={4} group="a" />);
    await oneTask();
    await oneTask();
    expect(shown()).toBe("a:3");
    view.rerender(<Parts total={4} group="b" />);
    expect(shown()).toBe("b:1");
    await oneTask();
    expect(shown()).toBe("b:2");
    view.rerender(<Parts total={1} group="b" />);
    expect(shown()).toBe("b:1");
    view.rerender(<Parts total={0} group="b" />);
    expect(shown()).toBe("b:0");
  });
});
