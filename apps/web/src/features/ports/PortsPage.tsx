export default function PortsPage(_p: Record<string, unknown>) { return <p>todo</p>; }
