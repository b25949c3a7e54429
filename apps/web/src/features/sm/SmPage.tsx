export default function SmPage(_p: Record<string, unknown>) { return <p>todo</p>; }
