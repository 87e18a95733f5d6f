import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

/** Keeps the end of `target` in view while it grows (a streaming answer), unless the user has
 * scrolled away from it (up, by wheel, touch, keys or the scrollbar); scrolling back down to its
 * end follows again. `bottomInset` is what covers the bottom of the viewport (the question box). */
export function useFollow(target: RefObject<HTMLElement | null>, active: boolean, growth: unknown, bottomInset: () => number): void {
  const following = useRef(true);
  const ours = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (active) following.current = true;
  }, [active]);
  useEffect(() => {
    let lastY = window.scrollY;
    const away = () => {
      following.current = false;
    };
    const onWheel = (e: WheelEvent) => {
      if (e.deltaY < 0) away();
    };
    const onKey = (e: KeyboardEvent) => {
      const inText = e.target instanceof HTMLElement && e.target.matches('textarea, input, select');
      if (!inText && ['PageUp', 'ArrowUp', 'Home'].includes(e.key)) away();
    };
    const onScroll = () => {
      const y = window.scrollY;
      const mine = ours.current !== undefined && Math.abs(y - ours.current) < 2;
      if (!mine) {
        ours.current = undefined;
        if (y < lastY) away();
        else {
          const r = target.current?.getBoundingClientRect();
          if (r && r.bottom <= window.innerHeight - bottomInset() + 48) following.current = true;
        }
      }
      lastY = y;
    };
    window.addEventListener('wheel', onWheel, { passive: true });
    window.addEventListener('touchmove', away, { passive: true });
    window.addEventListener('keydown', onKey);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('wheel', onWheel);
      window.removeEventListener('touchmove', away);
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('scroll', onScroll);
    };
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
