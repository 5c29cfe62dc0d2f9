/** Where the group's trajectories part ways. */
export default function DivergenceView({ groupId }: { groupId: string }) {
  return <p>Divergence of group {groupId}</p>;
}
