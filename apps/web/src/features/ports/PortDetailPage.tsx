export default function PortDetailPage(_p: Record<string, unknown>) { return <p>todo</p>; }
