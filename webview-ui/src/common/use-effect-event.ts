import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * React's `useEffectEvent`, which Preact's compatibility layer (the panel's runtime) lacks: a
 * function that effects call to run the latest `handler`, reading the props and state of the last
 * render without being a dependency of the effect. Its identity never changes. The handler is
 * swapped in a layout effect, so the passive effects of the same render already see it; like
 * React's, it is for effects, not for rendering.
 */
export function useEffectEvent<Args extends unknown[], Result>(handler: (...args: Args) => Result): (...args: Args) => Result {
  const latest = useRef(handler);
  useLayoutEffect(() => {
    latest.current = handler;
  });
  return useCallback((...args: Args) => latest.current(...args), []);
}
