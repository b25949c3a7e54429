export default function WorklistPage(_p: Record<string, unknown>) { return <p>todo</p>; }
