import { describe, expect, it } from 'vitest';
import {
  eventHolds,
  eventWindowMs,
  findingNature,
  isBrokenNow,
  resolveClears,
  shownState,
  SM_FAILOVER_WINDOW_MS,
  worseSeverity,
  type LifecycleFacts,
} from './finding-lifecycle.ts';

const H = 3_600_000;
const NOW = Date.UTC(2026, 11, 6, 1, 0);

describe('findingNature()', () => {
  it('calls flaps, link downs and SM failovers events, and observed states conditions', () => {
    expect(['link-flapping', 'link-downed', 'sm-failover'].map(findingNature)).toEqual(['event', 'event', 'event']);
    expect(
      ['link-degraded-width', 'symbol-errors', 'sm-not-seen', 'sm-no-standby', 'link-down'].map(findingNature),
    ).toEqual(['condition', 'condition', 'condition', 'condition', 'condition']);
  });
});

describe('eventWindowMs() and eventHolds()', () => {
  it('holds a flap for the configured flap window after it last happened, then not', () => {
    expect(eventWindowMs('link-flapping')).toBe(24 * H);
    expect(eventWindowMs('link-flapping', { flaps: { windowHours: 6 } })).toBe(6 * H);
    expect(eventHolds('link-flapping', NOW - 23 * H, NOW)).toBe(true);
    expect(eventHolds('link-flapping', NOW - 24 * H, NOW)).toBe(false);
  });

  it('holds a failover a day; a single link-down only for the sweep that saw it; never a condition', () => {
    expect(eventWindowMs('sm-failover')).toBe(SM_FAILOVER_WINDOW_MS);
    expect(eventHolds('sm-failover', NOW - H, NOW)).toBe(true);
    expect(eventHolds('link-downed', NOW - 35_000, NOW)).toBe(false);
    expect(eventHolds('symbol-errors', NOW - 1, NOW, 24 * H)).toBe(false);
  });
});

describe('isBrokenNow()', () => {
  const f = (over: Partial<LifecycleFacts>): LifecycleFacts => ({
    kind: 'link-flapping',
    severity: 'major',
    state: 'open',
    lastSeen: NOW - H,
    clearedAt: null,
    acknowledgedAt: null,
    ...over,
  });
  it('is broken while current and minor or worse', () => {
    expect(isBrokenNow(f({}))).toBe(true);
    expect(isBrokenNow(f({ clearedAt: NOW }))).toBe(false);
    expect(isBrokenNow(f({ severity: 'info' }))).toBe(false);
  });
  it('lets an acknowledgement end an event that did not happen again since, but not a condition', () => {
    expect(isBrokenNow(f({ state: 'acknowledged', acknowledgedAt: NOW - 10 }))).toBe(false);
    expect(isBrokenNow(f({ state: 'acknowledged', acknowledgedAt: NOW - 2 * H }))).toBe(true);
    expect(isBrokenNow(f({ kind: 'link-down', state: 'acknowledged', acknowledgedAt: NOW - 10 }))).toBe(true);
  });
});

describe('resolveClears()', () => {
  it('clears events and nccl run findings when marked fixed; a condition waits for its next scan', () => {
    expect(['link-flapping', 'sm-failover', 'nccl-below-target'].map(resolveClears)).toEqual([true, true, true]);
    expect(resolveClears('link-degraded-width')).toBe(false);
  });
});

describe('shownState()', () => {
  it('shows cleared for an open or acknowledged finding no longer observed, else its lifecycle state', () => {
    expect(shownState('open', 5)).toBe('cleared');
    expect(shownState('acknowledged', '2026-12-06T00:00:00Z')).toBe('cleared');
    expect(shownState('resolved', 5)).toBe('resolved');
    expect(shownState('open', null)).toBe('open');
    expect(shownState('acknowledged', undefined)).toBe('acknowledged');
  });
});

describe('worseSeverity()', () => {
  it('keeps the worst of two', () => {
    expect(worseSeverity('major', 'critical')).toBe('critical');
    expect(worseSeverity('critical', 'minor')).toBe('critical');
  });
});
