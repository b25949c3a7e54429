export default function FindingsPage(_p: Record<string, unknown>) { return <p>todo</p>; }
