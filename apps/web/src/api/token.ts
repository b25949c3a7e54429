/**
 * The write token the user pastes into the header's "Token" control. Kept in localStorage;
 * components subscribe through `useToken()`. Who acknowledges or resolves is the name the
 * collector knows the token by (IBWATCH_TOKENS), not something typed here.
 */
import { useSyncExternalStore } from 'react';

const TOKEN_KEY = 'ibwatch.token';
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

function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Current token ('' when none); re-renders when it changes. */
export function useToken(): string {
  return useSyncExternalStore(subscribe, getToken, () => '');
}
