import { describe, expect, it } from 'vitest';
import { DebugCollector, parseNcclLogLine, transportKind } from './debug.ts';
import { fixture } from './fixtures.test-helper.ts';
import { parseNcclTestsText } from './index.ts';

function gdrOf(lines: string[]) {
  const c = new DebugCollector();
  lines.forEach((l, i) => c.feed(l, i + 1));
  return c.gdr();
}

describe('GDR verdict', () => {
  it('reports GDR disabled on the multinode run without GPUDirect (~72 GB/s)', () => {
    const { value } = parseNcclTestsText(fixture('all_reduce_perf.gdr-disabled.multinode.good.txt'));
    expect(value.collective).toBe('all_reduce');
    expect(value.collectiveSource).toBe('layout');
    expect(value.gdr.status).toBe('disabled');
    expect(value.gdr.basis).toBe('channels');
    expect(value.gdr.evidence).toEqual([
      { line: 35, text: 'dgx-h100-017:31000:31118 [0] NCCL INFO Channel 00/0 : 15[7] -> 0[0] [receive] via NET/IB/0' },
      { line: 36, text: 'dgx-h100-017:31000:31118 [0] NCCL INFO Channel 01/0 : 15[7] -> 0[0] [receive] via NET/IB/0' },
      { line: 39, text: 'dgx-h100-017:31119:31125 [7] NCCL INFO Channel 00/0 : 7[7] -> 8[0] [send] via NET/IB/7' },
      { line: 40, text: 'dgx-h100-017:31119:31125 [7] NCCL INFO Channel 01/0 : 7[7] -> 8[0] [send] via NET/IB/7' },
    ]);
    expect(value.gdr.counts).toEqual({
      netChannelsGdr: 0,
      netChannelsNoGdr: 4,
      gpuPathsEnabled: 0,
      gpuPathsDisabled: 0,
      hcaEnabled: 0,
      hcaDisabled: 8,
    });
    expect(value.rows.at(-1)?.outOfPlace?.busbwGBs).toBe(71.99);
    expect(value.ncclVersion).toBe('2.19.3');
    expect(value.cudaVersion).toBe('12.2');
    expect(value.nRanks).toBe(16);
    expect(value.ibDevices).toHaveLength(8);
    expect(value.ibDevices[5]).toEqual({ host: 'dgx-h100-017', index: 5, device: 'mlx5_9', port: 1, linkLayer: 'IB' });
    expect(value.transports).toEqual({ kinds: { 'NET/IB': 4, 'P2P/IPC': 2 }, net: 4, p2p: 2, shm: 0, collnet: 0 });
  });

  it('reports GDR enabled on the same fabric with GPUDirect (~380 GB/s)', () => {
    const { value, warnings } = parseNcclTestsText(fixture('all_reduce_perf.gdr-enabled.multinode.good.txt'));
    expect(warnings).toEqual([]);
    expect(value.collectiveSource).toBe('command');
    expect(value.gdr.status).toBe('enabled');
    expect(value.gdr.evidence.map((e) => e.line)).toEqual([37, 38, 41, 42]);
    expect(value.gdr.evidence[0].text).toMatch(/via NET\/IB\/0\/GDRDMA$/);
    expect(value.gdr.counts.hcaEnabled).toBe(8);
    expect(value.rows.at(-1)?.outOfPlace?.busbwGBs).toBe(392.85);
    expect(value.rows.at(-1)?.inPlace?.busbwGBs).toBe(380.1);
    expect(value.avgBusBwGBs).toBe(130.475);
    // The interleaved `NCCL INFO Launch mode Parallel` line inside the table is skipped.
    expect(value.rows).toHaveLength(31);
  });

  it('reads the real gather run (NCCL 2.16) as enabled from its GDRDMA channel lines', () => {
    const { value } = parseNcclTestsText(fixture('gather_perf.nccl-debug-ib.good.txt'));
    expect(value.gdr.status).toBe('enabled');
    expect(value.gdr.basis).toBe('channels');
    expect(value.gdr.evidence[0]).toEqual({
      line: 53,
      text: 'n013:101855:101885 [0] NCCL INFO Channel 00/0 : 1[81000] -> 0[81000] [receive] via NET/IB/1/GDRDMA',
    });
    expect(value.gdr.counts).toMatchObject({ netChannelsGdr: 6, hcaEnabled: 2, gpuPathsEnabled: 10 });
  });

  it('calls a mix of GDRDMA and plain NET channels mixed', () => {
    const gdr = gdrOf([
      'a:1:1 [0] NCCL INFO Channel 00/0 : 1[1] -> 0[0] [receive] via NET/IB/0/GDRDMA',
      'b:2:2 [3] NCCL INFO Channel 00/0 : 3[3] -> 4[0] [send] via NET/IB/3',
    ]);
    expect(gdr.status).toBe('mixed');
    expect(gdr.evidence.map((e) => e.line)).toEqual([1, 2]);
  });

  it('falls back to per-path, then per-HCA lines when there are no NET channels', () => {
    expect(
      gdrOf(['x:1:1 [0] NCCL INFO GPU Direct RDMA Disabled for GPU 81000 / HCA 1 (distance 8 > 7), read 0']),
    ).toMatchObject({ status: 'disabled', basis: 'gpu-paths' });
    expect(
      gdrOf([
        "x:1:1 [0] NCCL INFO NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'",
        "x:1:1 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 5 'mlx5_5'",
      ]),
    ).toMatchObject({ status: 'mixed', basis: 'hca', evidence: [{ line: 1 }, { line: 2 }] });
  });

  it('says disabled for a socket-only network and unknown without evidence', () => {
    expect(
      gdrOf(['h:1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>', 'h:1:1 [0] NCCL INFO Using network Socket']),
    ).toMatchObject({ status: 'disabled', basis: 'network', evidence: [{ line: 1 }, { line: 2 }] });
    expect(gdrOf(['h:1:1 [0] NCCL INFO Channel 00 : 0[0] -> 1[1] via SHM/direct/direct'])).toMatchObject({
      status: 'unknown',
      basis: 'none',
    });
    const { value } = parseNcclTestsText(fixture('all_reduce_perf.multinode.good.txt'));
    expect(value.gdr).toMatchObject({ status: 'unknown', evidence: [] });
  });

  it('caps evidence at 20 lines but counts everything', () => {
    const lines = Array.from(
      { length: 50 },
      (_, i) => `h:1:1 [0] NCCL INFO Channel ${String(i).padStart(2, '0')}/0 : 1[1] -> 0[0] [receive] via NET/IB/0`,
    );
    const gdr = gdrOf(lines);
    expect(gdr.evidence).toHaveLength(20);
    expect(gdr.counts.netChannelsNoGdr).toBe(50);
  });
});

describe('NCCL log lines', () => {
  it('decodes INFO, WARN with source location and timestamp, and the bare version line', () => {
    expect(parseNcclLogLine('n013:101855:101885 [0] NCCL INFO Using network IB')).toEqual({
      host: 'n013',
      level: 'INFO',
      message: 'Using network IB',
    });
    expect(
      parseNcclLogLine('[2025-05-01 10:00:00] gpu1:5:6 [2] transport/net_ib.cc:100 NCCL WARN NET/IB : Got async event'),
    ).toMatchObject({
      host: 'gpu1',
      level: 'WARN',
    });
    expect(parseNcclLogLine('NCCL version 2.16.5+cuda11.8')).toEqual({
      level: 'INFO',
      message: 'NCCL version 2.16.5+cuda11.8',
    });
    expect(parseNcclLogLine('     8     2   float')).toBeUndefined();
  });

  it('names transport kinds', () => {
    expect(transportKind('NET/IB/1/GDRDMA/Shared')).toBe('NET/IB');
    expect(transportKind('NET/IB/0(8)/GDRDMA')).toBe('NET/IB');
    expect(transportKind('P2P/CUMEM/read')).toBe('P2P/CUMEM');
    expect(transportKind('SHM/direct/direct')).toBe('SHM/direct');
  });
});

describe('NIC rate', () => {
  it('gives each HCA of the Using line the speed its NET/IB per-HCA line printed (NCCL 2.27 shape)', () => {
    const c = new DebugCollector();
    [
      'gpu-a:177790:177790 [3] NCCL INFO NET/IB: [0] mlx5_0:uverbs0:1/IB provider=Mlx5 speed=400000 ' +
        'context=0x5563d0080110 pciPath=/sys/devices/pci0000:37/0000:38:00.0 ar=0',
      'gpu-a:177790:177790 [3] NCCL INFO NET/IB: [1] mlx5_1:uverbs1:1/IB provider=Mlx5 speed=400000 ' +
        'context=0x5563d0080220 pciPath=/sys/devices/pci0000:37/0000:39:00.0 ar=0',
      'gpu-a:177790:177790 [3] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB eth0:10.0.0.1<0>',
      'gpu-b:177791:177791 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB eth0:10.0.0.2<0>',
    ].forEach((l, i) => c.feed(l, i + 1));
    expect(c.ibDevices.map((d) => [d.host, d.device, d.speedMbps])).toEqual([
      ['gpu-a', 'mlx5_0', 400000],
      ['gpu-a', 'mlx5_1', 400000],
      ['gpu-b', 'mlx5_0', undefined],
    ]);
  });
});

describe('hardware fixtures', () => {
  it('reads the A100 4x HDR200 SHARP run: 4 hosts x 8 A100, 4 HCAs, GDR on', () => {
    const { value } = parseNcclTestsText(fixture('all_reduce_perf.a100-hdr200-sharp.good.txt'));
    expect(value.gpuModels).toEqual(['NVIDIA A100-SXM4-80GB']);
    expect(value.hosts).toHaveLength(4);
    expect(value.nRanks).toBe(32);
    expect(value.ibDevices.map((d) => d.device)).toEqual(['mlx5_0', 'mlx5_1', 'mlx5_2', 'mlx5_3']);
    expect(value.gdr.status).toBe('enabled');
  });

  it('reads the rccl-tests run with one MI300X per node and no NCCL_DEBUG lines', () => {
    const { value } = parseNcclTestsText(fixture('all_reduce_perf.rccl-one-gpu-per-node.good.txt'));
    expect(value.devices.map((d) => [d.host, d.gpu])).toEqual([
      ['mi300-a07', 'AMD Instinct MI300X'],
      ['mi300-b12', 'AMD Instinct MI300X'],
    ]);
    expect(value.gdr.status).toBe('unknown');
    expect(value.truncated).toBe(false);
  });
});
