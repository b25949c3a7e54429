export default function BandwidthPage(_p: Record<string, unknown>) { return <p>todo</p>; }
