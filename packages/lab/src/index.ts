/**
 * @ibwatch/lab — simulated InfiniBand lab: fat-tree generator, ibsim + OpenSM runner, fault
 * injection and status, on the real Debian ibsim, opensm and infiniband-diags.
 */
export * from './topology.ts';
export * from './generator.ts';
export * from './netfile.ts';
export * from './node-name-map.ts';
export * from './console.ts';
export * from './tools.ts';
export * from './proc.ts';
export * from './state.ts';
export * from './sm.ts';
export * from './lids.ts';
export * from './lab.ts';
export * from './runner.ts';
export * from './teardown.ts';
export * from './faults.ts';
export * from './fault-log.ts';
export * from './sm-control.ts';
export * from './rogue-sm.ts';
export { bringUpPair, joinStandby, sweptAfterTrap } from './sm-pair.ts';
export * from './status.ts';
export * from './scenario.ts';
export * from './demo-history.ts';
export * from './demo.ts';
export * from './traffic.ts';
