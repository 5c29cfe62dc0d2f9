import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import DropZone from "./DropZone.tsx";

// Vitest runs without globals, so RTL cannot register its own afterEach cleanup.
afterEach(cleanup);

function rolloutFile(name = "rollouts.jsonl"): File {
  return new File(['{"group":"g1","reward":1}\n'], name, { type: "application/jsonl" });
}

describe("DropZone", () => {
  it("calls onFiles with the file chosen through the labelled input", () => {
    const onFiles = vi.fn<(files: File[]) => void>();
    render(<DropZone onFiles={onFiles} />);
    const file = rolloutFile();

    fireEvent.change(screen.getByLabelText("Choose file"), { target: { files: [file] } });

    expect(onFiles).toHaveBeenCalledTimes(1);
    expect(onFiles).toHaveBeenCalledWith([file]);
  });

  it("calls onFiles with dropped files", () => {
    const onFiles = vi.fn<(files: File[]) => void>();
    render(<DropZone onFiles={onFiles} />);
    const files = [rolloutFile("a.jsonl"), rolloutFile("b.jsonl")];

    fireEvent.drop(screen.getByTestId("drop-zone.root"), {
      dataTransfer: { files, types: ["Files"] },
    });

    expect(onFiles).toHaveBeenCalledWith(files);
  });

  it("does not call onFiles when the selection is empty", () => {
    const onFiles = vi.fn<(files: File[]) => void>();
    render(<DropZone onFiles={onFiles} />);

    fireEvent.change(screen.getByTestId("file-input"), { target: { files: [] } });

    expect(onFiles).not.toHaveBeenCalled();
  });
});
