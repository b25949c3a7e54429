import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { navigate } from '../router.ts';

/**
 * A real `<a href>` (keyboard, middle-click and "copy link" all work) that navigates in-app
 * on a plain left click.
 */
export function Link({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  function handle(e: MouseEvent<HTMLAnchorElement>) {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    if (rest.target && rest.target !== '_self') return;
    if (!href.startsWith('/') || href.startsWith('/api/')) return;
    e.preventDefault();
    navigate(href);
  }
  return <a href={href} onClick={handle} {...rest} />;
}
