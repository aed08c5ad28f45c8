import { useCallback, useState } from 'react';

// Graphic-content safeguard: an image is blurred and greyscale until revealed, and a reveal is
// remembered for that image during the browser session (sessionStorage: gone when the tab closes).
const KEY = 'custody.revealed';

function read(): Set<string> {
  try {
    const v: unknown = JSON.parse(window.sessionStorage.getItem(KEY) ?? '[]');
    return new Set(Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  } catch {
    return new Set();
  }
}

export function useRevealed(itemId: string): [boolean, (on: boolean) => void] {
  const [revealed, setState] = useState(() => read().has(itemId));
  const set = useCallback(
    (on: boolean) => {
      const all = read();
      if (on) all.add(itemId);
      else all.delete(itemId);
      window.sessionStorage.setItem(KEY, JSON.stringify([...all]));
      setState(on);
    },
    [itemId],
  );
  return [read().has(itemId) || revealed, set];
}
