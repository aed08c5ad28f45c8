import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

// A small router over the History API: the URL is the page (next slices keep their filters in
// the query string). The server answers any page URL with index.html (src/http/web-ui.ts).

const listeners = new Set<() => void>();

export function navigate(to: string): void {
  if (to === window.location.pathname + window.location.search) return;
  window.history.pushState(null, '', to);
  for (const l of listeners) l();
}

/** The current path, re-rendered on navigation and on the browser's back and forward. */
export function useLocationPath(): string {
  const [path, setPath] = useState(window.location.pathname);
  useEffect(() => {
    const update = (): void => setPath(window.location.pathname);
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return path;
}

/** The current query string (without '?'), re-rendered on navigation and on back and forward. */
export function useLocationSearch(): string {
  const read = (): string => window.location.search.replace(/^\?/, '');
  const [search, setSearch] = useState(read);
  useEffect(() => {
    const update = (): void => setSearch(read());
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return search;
}

/** An ordinary link (it opens in a new tab with a modifier key) that navigates in place. */
export function Link({
  href,
  onClick,
  ...rest
}: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const handle = (e: MouseEvent<HTMLAnchorElement>): void => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey)
      return;
    e.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={handle} {...rest} />;
}
