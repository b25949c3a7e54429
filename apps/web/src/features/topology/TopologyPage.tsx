export default function TopologyPage(_p: Record<string, unknown>) { return <p>todo</p>; }
