import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import DropZone from "./DropZone.tsx";
import type { PickedFile } from "./droppedFiles.ts";

// Vitest runs without globals, so RTL cannot register its own afterEach cleanup.
afterEach(cleanup);

function rolloutFile(name = "rollouts.jsonl"): File {
  return new File(['{"group":"g1","reward":1}\n'], name, { type: "application/jsonl" });
}

describe("DropZone", () => {
  it("calls onFiles with the file chosen through the labelled input", () => {
    const onFiles = vi.fn<(files: PickedFile[]) => void>();
    render(<DropZone onFiles={onFiles} />);
    const file = rolloutFile();

    fireEvent.change(screen.getByLabelText("Choose file"), { target: { files: [file] } });

    expect(onFiles).toHaveBeenCalledTimes(1);
    expect(onFiles).toHaveBeenCalledWith([{ file, path: "rollouts.jsonl" }]);
  });

  it("gives a folder's files their paths in the folder", () => {
    const onFiles = vi.fn<(files: PickedFile[]) => void>();
    render(<DropZone onFiles={onFiles} />);
    const file = rolloutFile("1.jsonl");
    Object.defineProperty(file, "webkitRelativePath", { value: "run/1.jsonl" });

    fireEvent.change(screen.getByLabelText("Choose folder"), { target: { files: [file] } });

    expect(onFiles).toHaveBeenCalledWith([{ file, path: "run/1.jsonl" }]);
  });

  it("calls onFiles with dropped files", async () => {
    const onFiles = vi.fn<(files: PickedFile[]) => void>();
    render(<DropZone onFiles={onFiles} />);
    const files = [rolloutFile("a.jsonl"), rolloutFile("b.jsonl")];

    fireEvent.drop(screen.getByTestId("drop-zone.root"), {
      // No entries (as in a synthetic drop): the plain file list, each file by its name.
      dataTransfer: { files, items: [], types: ["Files"] },
    });

    await waitFor(() =>
      expect(onFiles).toHaveBeenCalledWith([
        { file: files[0], path: "a.jsonl" },
        { file: files[1], path: "b.jsonl" },
      ]),
    );
  });

  it("does not call onFiles when the selection is empty", () => {
    const onFiles = vi.fn<(files: PickedFile[]) => void>();
    render(<DropZone onFiles={onFiles} />);

    fireEvent.change(screen.getByTestId("file-input"), { target: { files: [] } });

    expect(onFiles).not.toHaveBeenCalled();
  });
});
