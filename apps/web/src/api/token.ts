/**
 * The write token (and the name used for acknowledgements) the user pastes into the header's
 * "Token" control. Kept in localStorage; components subscribe through `useToken()`.
 */
import { useSyncExternalStore } from 'react';

const TOKEN_KEY = 'ibwatch.token';
const NAME_KEY = 'ibwatch.ackBy';
const listeners = new Set<() => void>();

function read(key: string): string {
  try {
    return typeof localStorage === 'undefined' ? '' : (localStorage.getItem(key) ?? '');
  } catch {
    return '';
  }
}

function write(key: string, value: string): void {
  try {
    if (value) localStorage.setItem(key, value);
    else localStorage.removeItem(key);
  } catch {
    // Private mode or storage disabled: the value lives until reload only.
  }
  for (const fn of listeners) fn();
}

export const getToken = (): string => read(TOKEN_KEY).trim();
export const setToken = (t: string): void => write(TOKEN_KEY, t.trim());
export const getAckBy = (): string => read(NAME_KEY).trim();
export const setAckBy = (n: string): void => write(NAME_KEY, n.trim());

function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Current token ('' when none); re-renders when it changes. */
export function useToken(): string {
  return useSyncExternalStore(subscribe, getToken, () => '');
}

export function useAckBy(): string {
  return useSyncExternalStore(subscribe, getAckBy, () => '');
}
