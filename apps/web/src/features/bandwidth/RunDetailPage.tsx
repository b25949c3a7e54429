export default function RunDetailPage(_p: Record<string, unknown>) { return <p>todo</p>; }
