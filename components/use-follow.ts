import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

/** Keeps the end of `target` in view while it grows (a streaming answer), unless the user has
 * scrolled away from it; scrolling back to its end follows again. `bottomInset` is what covers
 * the bottom of the viewport (the sticky question box). */
export function useFollow(target: RefObject<HTMLElement | null>, active: boolean, growth: unknown, bottomInset: () => number): void {
  const following = useRef(true);
  const ours = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (active) following.current = true;
  }, [active]);
  useEffect(() => {
    const onScroll = () => {
      if (ours.current !== undefined && Math.abs(window.scrollY - ours.current) < 2) return;
      ours.current = undefined;
      const r = target.current?.getBoundingClientRect();
      following.current = !!r && r.bottom <= window.innerHeight - bottomInset() + 48;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [target, bottomInset]);
  useLayoutEffect(() => {
    const el = target.current;
    if (!active || !following.current || !el) return;
    const limit = window.innerHeight - bottomInset();
    const r = el.getBoundingClientRect();
    if (r.bottom <= limit) return;
    const y = Math.round(window.scrollY + r.bottom - limit + 12);
    ours.current = y;
    window.scrollTo({ top: y });
  }, [target, active, growth, bottomInset]);
}
