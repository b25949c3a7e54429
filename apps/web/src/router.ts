/**
 * A tiny URL-state router: `history.pushState` + `popstate`, no library. The pure parts
 * (route matching, query parse/serialise) are tested in router.test.ts; the hooks at the
 * bottom only subscribe React to location changes.
 */
import type { QueryString } from '@ibwatch/fabric';
import { useSyncExternalStore } from 'react';

export type Route =
  | { name: 'overview' }
  | { name: 'topology' }
  | { name: 'ports' }
  | { name: 'port'; guid: string; port: number }
  | { name: 'worklist' }
  | { name: 'sm' }
  | { name: 'bandwidth' }
  | { name: 'run'; id: number }
  | { name: 'scans' }
  | { name: 'findings' }
  | { name: 'firmware' }
  | { name: 'watch' }
  | { name: 'validation' }
  | { name: 'fleet' }
  | { name: 'traffic' }
  | { name: 'not-found'; path: string };

/** Map a pathname to a route. Trailing slashes are ignored; unknown paths are `not-found`. */
export function matchRoute(pathname: string): Route {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const parts = path.split('/').filter(Boolean).map(safeDecode);
  const [a, b, c, d] = parts;
  if (parts.length === 0) return { name: 'overview' };
  if (a === 'topology' && parts.length === 1) return { name: 'topology' };
  if (a === 'ports' && parts.length === 1) return { name: 'ports' };
  if (a === 'ports' && parts.length === 3 && /^\d+$/.test(c)) return { name: 'port', guid: b, port: Number(c) };
  if (a === 'worklist' && parts.length === 1) return { name: 'worklist' };
  if (a === 'sm' && parts.length === 1) return { name: 'sm' };
  if (a === 'bandwidth' && parts.length === 1) return { name: 'bandwidth' };
  if (a === 'bandwidth' && b === 'runs' && parts.length === 3 && /^\d+$/.test(c)) return { name: 'run', id: Number(c) };
  if (a === 'scans' && parts.length === 1) return { name: 'scans' };
  if (a === 'findings' && parts.length === 1) return { name: 'findings' };
  if (a === 'firmware' && parts.length === 1) return { name: 'firmware' };
  if (a === 'watch' && parts.length === 1) return { name: 'watch' };
  if (a === 'validation' && parts.length === 1) return { name: 'validation' };
  if (a === 'fleet' && parts.length === 1) return { name: 'fleet' };
  if (a === 'traffic' && parts.length === 1) return { name: 'traffic' };
  void d;
  return { name: 'not-found', path: pathname };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Query values as the app uses them: one string per key, empty values dropped. */
export type Query = Record<string, string>;

export function parseQuery(search: string): Query {
  const out: Query = {};
  for (const [k, v] of new URLSearchParams(search)) if (v !== '') out[k] = v;
  return out;
}

/**
 * Serialise a query with keys sorted, so the same state always gives the same URL
 * (pasteable in an incident chat, comparable in tests). Empty/undefined/null values are dropped.
 */
export function serializeQuery(q: Record<string, string | number | boolean | null | undefined>): QueryString {
  const keys = Object.keys(q)
    .filter((k) => q[k] !== undefined && q[k] !== null && q[k] !== '' && q[k] !== false)
    .sort();
  if (keys.length === 0) return '';
  const p = new URLSearchParams();
  for (const k of keys) p.set(k, q[k] === true ? '1' : String(q[k]));
  return `?${p.toString()}`;
}

/** `href('/ports', {q: 'leaf'})` → `/ports?q=leaf`. */
export function href<P extends string>(
  path: P,
  q: Record<string, string | number | boolean | null | undefined> = {},
): `${P}${QueryString}` {
  return `${path}${serializeQuery(q)}`;
}

/** Path of a port detail page; GUIDs are URL-safe but encode anyway. */
export function portHref(guid: string, port: number, q: Record<string, string | undefined> = {}): string {
  return href(`/ports/${encodeURIComponent(guid)}/${port}`, q);
}

/** Merge a patch into the current query; `null`/'' removes a key. */
export function patchQuery(current: Query, patch: Record<string, string | number | null | undefined>): Query {
  const next: Query = { ...current };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || v === undefined || v === '') delete next[k];
    else next[k] = String(v);
  }
  return next;
}

/** Read a positive integer from the query, falling back when missing or garbage. */
export function intParam(q: Query, key: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(q[key]);
  if (!Number.isFinite(n) || q[key] === undefined) return fallback;
  return Math.min(max, Math.max(min, Math.trunc(n)));
}

/** Read an enum value from the query. */
export function enumParam<T extends string>(q: Query, key: string, allowed: readonly T[], fallback: T): T {
  const v = q[key];
  return (allowed as readonly string[]).includes(v ?? '') ? (v as T) : fallback;
}

// ---- browser side -------------------------------------------------------------------------

const listeners = new Set<() => void>();
let lastSnapshot = '';

function snapshot(): string {
  if (typeof window === 'undefined') return '/';
  const s = window.location.pathname + window.location.search;
  if (s !== lastSnapshot) lastSnapshot = s;
  return lastSnapshot;
}

function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  if (listeners.size === 1) window.addEventListener('popstate', notify);
  return () => {
    listeners.delete(fn);
    if (listeners.size === 0) window.removeEventListener('popstate', notify);
  };
}

function notify(): void {
  for (const fn of listeners) fn();
}

/** Go to a URL inside the app. `replace` for state tweaks that should not pile up in history. */
export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  if (to === window.location.pathname + window.location.search) return;
  if (opts.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  notify();
  if (!opts.replace) window.scrollTo(0, 0);
}

export interface Location {
  path: string;
  query: Query;
  route: Route;
}

/** Current location; re-renders on pushState (via `navigate`) and popstate. */
export function useLocation(): Location {
  const s = useSyncExternalStore(subscribe, snapshot, () => '/');
  const i = s.indexOf('?');
  const path = i < 0 ? s : s.slice(0, i);
  const search = i < 0 ? '' : s.slice(i);
  return { path, query: parseQuery(search), route: matchRoute(path) };
}

/** Update the current page's query (filters, selection, range). */
export function setQuery(
  patch: Record<string, string | number | null | undefined>,
  opts: { replace?: boolean } = {},
): void {
  const current = parseQuery(window.location.search);
  navigate(window.location.pathname + serializeQuery(patchQuery(current, patch)), opts);
}
