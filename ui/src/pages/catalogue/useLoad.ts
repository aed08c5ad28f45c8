import { useEffect, useState } from 'react';
import { ApiError } from '../../api';

export type Load<T> =
  | { state: 'loading' }
  | { state: 'failed'; message: string; code: string }
  | { state: 'ready'; value: T };

/** Runs `fetcher` when `key` changes (and on `reload()`), keeping only the latest answer. */
export function useLoad<T>(key: string | null, fetcher: () => Promise<T>): [Load<T>, () => void] {
  const [load, setLoad] = useState<Load<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (key === null) return;
    let live = true;
    setLoad({ state: 'loading' });
    fetcher().then(
      (value) => live && setLoad({ state: 'ready', value }),
      (e: unknown) =>
        live &&
        setLoad({
          state: 'failed',
          message: e instanceof Error ? e.message : String(e),
          code: e instanceof ApiError ? e.code : 'UNKNOWN',
        }),
    );
    return () => {
      live = false;
    };
    // The fetcher is a fresh closure each render; the key says when the request changes.
  }, [key, round]);
  return [load, () => setRound((r) => r + 1)];
}
