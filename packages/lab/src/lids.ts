/**
 * LID resolution from `ibnetdiscover -p` (one process, SMP-based, no SA needed). We do not use
 * `saquery NR` because under ibsim 0.10 it returned a single NodeRecord instead of all of them.
 */

/** Parses `ibnetdiscover -p` lines into node name -> LID (switch: port-0 LID; CA: port LID). */
export function parsePortsListLids(text: string): Map<string, number> {
  // SW     2 36 0xfc6a1c0301000001 4x HDR - SW     3  4 0xfc6a1c0302000001 ( 'leaf-r0-01' - 'spine-01' )
  // CA     6  1 0xb83fd203ff000201 4x HDR - SW   147  2 0xfc6a1c0301000009 ( 'head-02 mlx5_0' - 'leaf-mgmt-01' )
  const m = new Map<string, number>();
  const side = String.raw`(SW|CA|RT)\s+(\d+)\s+\d+\s+0x[0-9a-f]+`;
  const re = new RegExp(String.raw`^${side}\s.*?-\s+${side}.*\(\s*'(.*)'\s+-\s+'(.*)'\s*\)\s*$`, 'i');
  for (const line of text.split('\n')) {
    const r = re.exec(line.trim());
    if (!r) continue;
    m.set(r[5], Number(r[2]));
    m.set(r[6], Number(r[4]));
  }
  return m;
}
