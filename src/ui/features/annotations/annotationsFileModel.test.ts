import { describe, expect, it } from "vitest";
import {
  ANNOTATIONS_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  type RolloutGroup,
} from "../../../core/index.ts";
import { testRollout } from "../../../test/rolloutFixtures.ts";
import {
  browserStatusText,
  clearFailedMessage,
  exportTitle,
  importMessage,
  readFailedMessage,
  rejectedText,
  serverStatusText,
} from "./annotationsFileModel.ts";

const open: RolloutGroup = {
  id: "open",
  rollouts: [testRollout({ id: "open/0", groupId: "open", index: 0 })],
};
const saved = { status: "saved", at: 0, restored: 0, rejected: [], pending: 0 } as const;

describe("annotations bar", () => {
  it("says how many groups an export holds", () => {
    expect(exportTitle(1)).toBe("Export the annotations of 1 group as a file");
    expect(exportTitle(4)).toBe("Export the annotations of 4 groups as a file");
  });

  it("reports an import's groups, and its problems as an error", () => {
    const clean = { ...ANNOTATIONS_EMPTY, groups: { open: GROUP_ANNOTATION_EMPTY } };
    expect(importMessage("a.json", clean, [open], new Set(["open"]))).toEqual({
      text: "Imported annotations of 1 group(s) from a.json.",
      error: false,
    });
    const stray = {
      ...ANNOTATIONS_EMPTY,
      groups: {
        open: { ...GROUP_ANNOTATION_EMPTY, hacks: ["open/7"] },
        // Not parsed yet (an indexed file): known by id, its rollouts are not checked.
        later: { ...GROUP_ANNOTATION_EMPTY, hacks: ["later/3"] },
      },
    };
    expect(importMessage("b.json", stray, [open], new Set(["open", "later"]))).toEqual({
      text:
        "Imported annotations of 2 group(s) from b.json. 1 problem(s):\n" +
        'the hacks list names rollout "open/7", which is not in group "open"',
      error: true,
    });
  });

  it("says why a file could not be read or the annotations deleted", () => {
    expect(readFailedMessage("c.json", new Error("denied"))).toEqual({
      text: "c.json: could not be read (denied)",
      error: true,
    });
    expect(clearFailedMessage("blocked").text).toBe(
      "Stored annotations could not be deleted: blocked",
    );
  });

  it("says where the annotations are saved", () => {
    expect(browserStatusText({ status: "off" })).toBe("Not saved in this browser");
    expect(browserStatusText({ status: "restoring" })).toBe("Looking for saved annotations…");
    expect(browserStatusText(saved)).toBe("Saved in this browser");
    expect(browserStatusText({ ...saved, restored: 3 })).toBe(
      "Saved in this browser (3 group(s) restored)",
    );
    expect(browserStatusText({ ...saved, restored: 3, pending: 1 })).toBe("Saving…");
    expect(browserStatusText({ status: "error", message: "full" })).toBeNull();
    expect(serverStatusText({ status: "reading", path: "s/a.json" })).toBe("Reading s/a.json…");
    expect(serverStatusText({ status: "saved", path: "s/a.json", pending: true })).toBe(
      "Saving to s/a.json…",
    );
    expect(serverStatusText({ status: "saved", path: "s/a.json", pending: false })).toBe(
      "Saved to s/a.json",
    );
    expect(serverStatusText({ status: "error", path: "s/a.json", message: "x" })).toBeNull();
  });

  it("names the stored groups that could not be read", () => {
    expect(rejectedText(saved)).toBeNull();
    expect(rejectedText({ status: "off" })).toBeNull();
    expect(rejectedText({ ...saved, rejected: ["g1", "g2"] })).toBe(
      "Saved annotations of 2 group(s) could not be read and were left out: g1, g2",
    );
  });
});
