import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useStore } from "../../../store/index.ts";
import MappingDialog from "./MappingDialog.tsx";
import { mappingSampleFor } from "./readMappingSample.ts";

// The store's own action: a spy set on the state is copied into every later state by `set`, so
// restoring it on the object it was set on is not enough.
const { loadFile: realLoadFile } = useStore.getState();

// Vitest runs without globals, so RTL cannot register its own afterEach cleanup.
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  useStore.getState().cancelLoad();
  useStore.setState({ presets: [], load: { status: "idle" }, loadFile: realLoadFile });
  localStorage.clear();
});

function wholeBlobStream(blob: Blob): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(new Uint8Array(await blob.arrayBuffer()));
      controller.close();
    },
  });
}

// jsdom's Blob has no stream(); the loader reads files through one (and, with no Worker in jsdom,
// runs on the main thread), so give it the smallest stream that serves the whole blob.
beforeAll(() => {
  if (typeof Blob.prototype.stream === "function") return;
  Object.defineProperty(Blob.prototype, "stream", {
    configurable: true,
    value(this: Blob): ReadableStream<Uint8Array> {
      return wholeBlobStream(this);
    },
  });
});

const CSV = [
  "question,sample,answer_text,score",
  "What is 2+2?,4,4,1",
  "What is 2+2?,5,4,0",
  "Capital of France?,Paris,Paris,1",
  '"Capital of France?","<img src=x onerror=alert(1)>",Paris,0',
].join("\n");

const csvFile = (): File => new File([CSV], "unknown.csv", { type: "text/csv" });

/**
 * Render the dialog and let it read its sample. React retries a suspended `use()` through act's
 * queue in tests, so the read is awaited inside act.
 */
async function show(file: File, onClose: () => void = () => undefined): Promise<void> {
  await act(async () => {
    render(<MappingDialog file={file} onClose={onClose} />);
    await mappingSampleFor(file);
  });
}

async function renderDialog(file = csvFile()) {
  const onClose = vi.fn<() => void>();
  await show(file, onClose);
  const dialog = await screen.findByRole("dialog", { name: "Map fields" });
  await within(dialog).findByTestId("mapping.fields");
  return { dialog, onClose, file };
}

const select = (testId: string): HTMLSelectElement => {
  const el = screen.getByTestId(testId);
  if (!(el instanceof HTMLSelectElement)) throw new Error(`${testId} is not a select`);
  return el;
};

describe("MappingDialog", () => {
  it("shows the sampled fields with their samples, as text", async () => {
    const { dialog } = await renderDialog();
    expect(dialog.getAttribute("aria-modal")).toBe("true");
    const rows = within(dialog).getAllByTestId("mapping.field");
    expect(rows.map((r) => r.textContent)).toEqual([
      "questiontextWhat is 2+2?",
      "samplenumeric text4",
      "answer_textnumeric text4",
      "scorenumeric text1",
    ]);
    expect(screen.getByTestId("mapping.source").textContent).toBe(
      "unknown.csv: CSV; 4 records in the file. Pick the fields that hold each part of a rollout.",
    );
    // Markup in the file is shown as text, never parsed.
    expect(dialog.querySelector("img")).toBeNull();
  });

  it("guesses the picks, focuses the first one, and previews the groups", async () => {
    await renderDialog();
    expect(select("mapping.group").value).toBe("question");
    expect(select("mapping.text").value).toBe("answer_text");
    expect(select("mapping.id").value).toBe("");
    const rewards = screen.getAllByTestId<HTMLInputElement>("mapping.reward");
    expect(rewards.filter((r) => r.checked).map((r) => r.value)).toEqual(["score"]);
    expect(document.activeElement).toBe(select("mapping.group"));
    expect(screen.getByTestId("mapping.preview").textContent).toBe(
      "2 groups of 2 rollouts in the sample",
    );
  });

  it("submits the picks to the store's loadFile as the mapped format, and the file loads", async () => {
    const loadFile = vi.spyOn(useStore.getState(), "loadFile");
    const { file } = await renderDialog();
    fireEvent.change(select("mapping.text"), { target: { value: "sample" } });
    fireEvent.click(screen.getByTestId("mapping.submit"));

    expect(loadFile).toHaveBeenCalledWith(file, {
      format: "mapped",
      options: { groupKey: "question", textKey: "sample", rewardKeys: ["score"] },
    });
    await waitFor(() => expect(useStore.getState().load.status).toBe("ready"));
    const load = useStore.getState().load;
    if (load.status !== "ready") throw new Error("not loaded");
    expect(load.dataset.format).toBe("mapped");
    expect(load.dataset.summaries.map((s) => [s.id, s.rewards])).toEqual([
      ["What is 2+2?", [1, 0]],
      ["Capital of France?", [1, 0]],
    ]);
    expect(load.groups.get("Capital of France?")?.rollouts.map((r) => r.completion)).toEqual([
      "Paris",
      "<img src=x onerror=alert(1)>",
    ]);
  });

  it("cannot submit without a group key", async () => {
    const loadFile = vi.spyOn(useStore.getState(), "loadFile");
    await renderDialog();
    fireEvent.change(select("mapping.group"), { target: { value: "" } });
    const submit = screen.getByTestId<HTMLButtonElement>("mapping.submit");
    expect(submit.disabled).toBe(true);
    expect(screen.getByTestId("mapping.problems").textContent).toContain(
      "Pick the field that names each rollout's group.",
    );
    fireEvent.submit(submit.closest("form")!);
    expect(loadFile).not.toHaveBeenCalled();
  });

  it("sums several reward fields when more than one is checked", async () => {
    await renderDialog();
    const answer = screen.getAllByTestId<HTMLInputElement>("mapping.reward")[1]!;
    expect(answer.value).toBe("answer_text");
    fireEvent.click(answer);
    expect(screen.getByTestId("mapping.rewards").textContent).toContain("the reward is their sum");
  });

  it("closes on Escape and with Cancel", async () => {
    const { dialog, onClose } = await renderDialog();
    fireEvent.keyDown(dialog, { key: "Escape" });
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByTestId("mapping.cancel"));
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it("saves a preset, applies it to another file's picks, and deletes it", async () => {
    await renderDialog();
    expect(screen.getByTestId("mapping.presets-empty")).toBeTruthy();
    fireEvent.change(select("mapping.text"), { target: { value: "sample" } });
    fireEvent.change(screen.getByTestId("mapping.preset-name"), { target: { value: "qa csv" } });
    fireEvent.click(screen.getByTestId("mapping.preset-save"));
    expect(useStore.getState().presets).toEqual([
      {
        name: "qa csv",
        mapping: { groupKey: "question", idKey: "", textKey: "sample", rewardKeys: ["score"] },
      },
    ]);
    expect(screen.getByTestId("mapping.preset").textContent).toContain(
      "qa csv question → sample, reward score",
    );

    cleanup();
    await renderDialog();
    expect(select("mapping.text").value).toBe("answer_text");
    fireEvent.click(screen.getByRole("button", { name: "Apply preset qa csv" }));
    expect(select("mapping.text").value).toBe("sample");
    fireEvent.click(screen.getByRole("button", { name: "Delete preset qa csv" }));
    expect(useStore.getState().presets).toEqual([]);
    expect(screen.getByTestId("mapping.presets-empty")).toBeTruthy();
  });

  it("explains a file the mapping cannot read", async () => {
    await show(new File(['{\n "a": 1\n}'], "doc.json"));
    expect((await screen.findByTestId("mapping.sample-error")).textContent).toContain(
      "one JSON document",
    );
  });
});
