/**
 * Schemas of the domain vocabulary of ../types.ts (spelled as the tools spell it), checked at
 * compile time against those types so the two cannot drift.
 */
import type { LinkSpeed, LinkWidth, NodeType, PhysState, PortState, SmState } from '../types.ts';
import { type Same, type Static, same, Str } from './kit.ts';

export const NodeTypeSchema = Str(['switch', 'ca', 'router']);
export const PortStateSchema = Str(['Down', 'Initialize', 'Armed', 'Active', 'Unknown']);
export const PhysStateSchema = Str([
  'NoStateChange',
  'Sleep',
  'Polling',
  'Disabled',
  'PortConfigurationTraining',
  'LinkUp',
  'LinkErrorRecovery',
  'PhyTest',
  'Unknown',
]);
export const LinkWidthSchema = Str(['1X', '2X', '4X', '8X', '12X']);
export const LinkSpeedSchema = Str(['SDR', 'DDR', 'QDR', 'FDR10', 'FDR', 'EDR', 'HDR', 'NDR', 'XDR']);
export const SmStateSchema = Str(['MASTER', 'STANDBY', 'DISCOVERING', 'NOTACTIVE', 'UNKNOWN']);

same<
  [
    Same<Static<typeof NodeTypeSchema>, NodeType>,
    Same<Static<typeof PortStateSchema>, PortState>,
    Same<Static<typeof PhysStateSchema>, PhysState>,
    Same<Static<typeof LinkWidthSchema>, LinkWidth>,
    Same<Static<typeof LinkSpeedSchema>, LinkSpeed>,
    Same<Static<typeof SmStateSchema>, SmState>,
  ][number]
>([]);
