import { describe, expect, it } from 'vitest';
import {
  chooseNcclProfile,
  DEFAULT_NCCL_PROFILES,
  ncclHardware,
  parseNcclTargets,
  profileTarget,
} from './nccl-targets.ts';

const target = (gpu: string, nics: number, collective: string) =>
  profileTarget(DEFAULT_NCCL_PROFILES.find((p) => p.gpu === gpu && p.nicsPerNode === nics)!, collective, 'multi-node')
    ?.minBusBwGBs;

describe('the default target table', () => {
  it('follows the rule: 90 % of node NIC bandwidth (all_reduce), 85 % (gather/scatter), 80 % of one NIC', () => {
    expect(target('H100', 8, 'all_reduce')).toBe(360);
    expect(target('H200', 8, 'all_reduce')).toBe(360);
    expect(target('H100', 8, 'all_gather')).toBe(340);
    expect(target('H100', 8, 'sendrecv')).toBe(40);
    expect(target('A100', 8, 'all_reduce')).toBe(180);
    expect(target('A100', 4, 'all_reduce')).toBe(90);
    expect(target('A100', 4, 'reduce_scatter')).toBe(85);
    expect(target('H100', 8, 'broadcast')).toBeUndefined();
  });
});

describe('chooseNcclProfile()', () => {
  it('prefers a configured profile over a default one that also fits', () => {
    const mine = parseNcclTargets('H100:8:8x400=380');
    const c = chooseNcclProfile({ gpuModel: 'NVIDIA H100 80GB HBM3', gpusPerNode: 8 }, [
      ...mine,
      ...DEFAULT_NCCL_PROFILES,
    ]);
    expect(c.profile?.source).toBe('IBWATCH_NCCL_TARGETS');
    expect(profileTarget(c.profile!, 'all_reduce', 'multi-node')?.minBusBwGBs).toBe(380);
  });

  it('refuses a profile whose NIC rate the log contradicts', () => {
    const c = chooseNcclProfile(
      { gpuModel: 'NVIDIA H100 80GB HBM3', gpusPerNode: 8, nicsPerNode: 8, nicGbps: 200 },
      DEFAULT_NCCL_PROFILES,
    );
    expect(c.reason).toBe(
      'no target for this hardware: NVIDIA H100 80GB HBM3, 8x per node, 8 NICs at 200 Gb/s; ' +
        'set IBWATCH_NCCL_TARGETS to judge',
    );
  });
});

describe('ncclHardware()', () => {
  it('reads GPU model, GPUs per host, NICs per host and their rate from the log', () => {
    const devices = ['a', 'a', 'b', 'b'].map((host) => ({ host, gpu: 'NVIDIA A100-SXM4-80GB' }));
    const ibDevices = ['a', 'b'].flatMap((host) =>
      ['mlx5_0', 'mlx5_1'].map((device) => ({ host, device, speedMbps: 200000 })),
    );
    expect(ncclHardware({ devices, ibDevices })).toEqual({
      gpuModel: 'NVIDIA A100-SXM4-80GB',
      gpusPerNode: 2,
      nicsPerNode: 2,
      nicGbps: 200,
    });
  });

  it('falls back to the labels only where the log is silent, and keeps mixed models apart', () => {
    expect(ncclHardware({ devices: [], ibDevices: [], labels: { gpuModel: 'H100', hcaCount: 8 } })).toEqual({
      gpuModel: 'H100',
      nicsPerNode: 8,
    });
    const mixed = ncclHardware({
      devices: [
        { host: 'a', gpu: 'NVIDIA H100 80GB HBM3' },
        { host: 'b', gpu: 'NVIDIA A100-SXM4-80GB' },
      ],
      ibDevices: [],
      labels: { gpuModel: 'H100' },
    });
    expect(mixed.gpuModel).toBeUndefined();
    expect(mixed.gpuModels).toHaveLength(2);
  });
});

describe('parseNcclTargets()', () => {
  it('reads profiles separated by ";" with an optional all_reduce figure', () => {
    expect(parseNcclTargets(' MI300X:1:1x400 ; A100:8:4x200=95 ')).toEqual([
      { gpu: 'MI300X', gpusPerNode: 1, nicsPerNode: 1, nicGbps: 400, source: 'IBWATCH_NCCL_TARGETS' },
      { gpu: 'A100', gpusPerNode: 8, nicsPerNode: 4, nicGbps: 200, allReduceGBs: 95, source: 'IBWATCH_NCCL_TARGETS' },
    ]);
  });

  it('names the bad entry', () => {
    expect(() => parseNcclTargets('H100:8:8x400;A100:8')).toThrow(/"A100:8": expected GPU:GPUS_PER_NODE:NICSxGBPS/);
    expect(() => parseNcclTargets('H100:0:8x400')).toThrow(/"H100:0:8x400": GPUs and NICs per node 1-64/);
  });
});
