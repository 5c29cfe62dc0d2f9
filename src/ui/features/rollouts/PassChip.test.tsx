/**
 * One chip for the reward's verdict and the human label (issue 13, finding 1): agreement says so,
 * disagreement is a warning naming both, a defer is said beside the verdict.
 */
import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import PassChip, { passLabelAgreement } from "./PassChip.tsx";

describe("passLabelAgreement", () => {
  it("compares the verdict with a pass or fail label", () => {
    expect(passLabelAgreement(true, null)).toBe("none");
    expect(passLabelAgreement(true, "pass")).toBe("agrees");
    expect(passLabelAgreement(false, "fail")).toBe("agrees");
    expect(passLabelAgreement(true, "fail")).toBe("disagrees");
    expect(passLabelAgreement(false, "pass")).toBe("disagrees");
    expect(passLabelAgreement(false, "defer")).toBe("deferred");
  });
});

describe("PassChip", () => {
  const chip = (passed: boolean, label: string | null) => {
    const { container } = render(<PassChip passed={passed} label={label} hint="reward >= 0.5" />);
    const all = container.querySelectorAll('[data-testid="column.pass"]');
    expect(all).toHaveLength(1);
    return all[0]!;
  };

  it("is one chip in every case", () => {
    expect(chip(false, null).textContent).toBe("fail");
    expect(chip(false, "fail").textContent).toBe("fail · human agrees");
    expect(chip(true, "fail").textContent).toBe("reward: pass · human: fail");
    expect(chip(false, "pass").textContent).toBe("reward: fail · human: pass");
    expect(chip(true, "defer").textContent).toBe("pass · human deferred");
  });

  it("marks a disagreement for styles and tests, with both sides in the tooltip", () => {
    const c = chip(true, "fail");
    expect(c.getAttribute("data-agreement")).toBe("disagrees");
    expect(c.getAttribute("title")).toBe(
      "The reward says pass; your label says fail. reward >= 0.5",
    );
  });

  it("says unscored, never fail, for a rollout without a reward", () => {
    const { container } = render(
      <PassChip passed={false} scored={false} label={null} hint="reward >= 0.5" />,
    );
    const c = container.querySelector('[data-testid="column.pass"]')!;
    expect(c.textContent).toBe("unscored");
    expect(c.getAttribute("data-verdict")).toBe("unscored");
    const labelled = render(
      <PassChip passed={false} scored={false} label="pass" hint="reward >= 0.5" />,
    ).container.querySelector('[data-testid="column.pass"]')!;
    expect(labelled.textContent).toBe("unscored · human: pass");
  });
});
