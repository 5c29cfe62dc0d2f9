import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { teamGroupFacts } from "../../../core/index.ts";
import type { TeamQueueSpecBody, TeamUserReply } from "../../../io/view/teamApi.ts";
import type { TeamLeadWrite } from "../../../store/slices/teamLeadSlice.ts";
import LeadQueueForm from "./LeadQueueForm.tsx";

afterEach(cleanup);

const FACTS = [
  [1, 0, 1],
  [0, 0, 1],
  [1, 1, 1],
  [1, 0, 0],
].map((r, i) => teamGroupFacts(`g${i + 1}`, null, r, 0.5));
const user = (name: string, role: "lead" | "annotator", revokedAt: string | null = null) => ({
  name,
  role,
  createdAt: "2026-12-04T05:00:00Z",
  revokedAt,
});
const USERS: TeamUserReply[] = [
  user("lee", "lead"),
  user("ann", "annotator"),
  user("cat", "annotator", "2026-12-04T05:10:00Z"),
  user("bob", "annotator"),
];

function renderForm(result: TeamLeadWrite = { kind: "done" }) {
  const onCreate = vi.fn<(spec: TeamQueueSpecBody) => Promise<TeamLeadWrite>>(() =>
    Promise.resolve(result),
  );
  render(<LeadQueueForm facts={FACTS} users={USERS} taken={["old"]} onCreate={onCreate} />);
  return onCreate;
}

const byTestId = (id: string) => screen.getByTestId(id);
const annotator = (name: string) =>
  document.querySelector<HTMLInputElement>(
    `[data-testid="team.queue-annotator"][data-user="${name}"]`,
  );

describe("LeadQueueForm", () => {
  it("offers the annotators whose token works, all chosen, and previews core's queue", () => {
    renderForm();
    expect([annotator("ann")?.checked, annotator("bob")?.checked]).toEqual([true, true]);
    expect([annotator("lee"), annotator("cat")]).toEqual([null, null]);
    expect(byTestId("team.queue-preview").textContent).toBe("Name the queue.");
    fireEvent.change(byTestId("team.queue-name"), { target: { value: "first" } });
    fireEvent.click(byTestId("team.queue-mixed"));
    fireEvent.change(byTestId("team.queue-overlap"), { target: { value: "50" } });
    expect(byTestId("team.queue-preview").textContent).toBe(
      "3 groups; 2 to two people; ann 3, bob 2",
    );
    fireEvent.click(annotator("bob")!);
    expect(byTestId("team.queue-preview").textContent).toBe(
      "Cannot assign the queue: an overlap needs at least two annotators.",
    );
    expect((byTestId("team.queue-create") as HTMLButtonElement).disabled).toBe(true);
  });

  it("posts the spec it previewed, then says so", async () => {
    const onCreate = renderForm();
    fireEvent.change(byTestId("team.queue-name"), { target: { value: "first" } });
    fireEvent.change(byTestId("team.queue-overlap"), { target: { value: "0" } });
    fireEvent.click(byTestId("team.queue-blind"));
    fireEvent.click(byTestId("team.queue-create"));
    await waitFor(() => expect(onCreate).toHaveBeenCalledTimes(1));
    expect(onCreate.mock.calls[0]![0]).toMatchObject({
      name: "first",
      blind: false,
      overlap: 0,
      groups: ["g1", "g2", "g3", "g4"],
    });
    await screen.findByText('Queue "first" made: 4 groups; 0 to two people; ann 2, bob 2.');
  });

  it("shows the server's refusal", async () => {
    renderForm({ kind: "error", message: "/api/team/queues: 400 Bad Request: unknown annotator" });
    fireEvent.change(byTestId("team.queue-name"), { target: { value: "first" } });
    fireEvent.click(byTestId("team.queue-create"));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "/api/team/queues: 400 Bad Request: unknown annotator",
    );
  });
});
