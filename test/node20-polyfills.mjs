// vitest 5 formats failures with Map.groupBy, which Node 20 lacks (added in Node 21).
// Loaded with `node --import` by the test scripts only; product code never needs it.
if (typeof Map.groupBy !== 'function') {
  Object.defineProperty(Map, 'groupBy', {
    configurable: true,
    writable: true,
    value(items, keyOf) {
      const out = new Map();
      let i = 0;
      for (const item of items) {
        const key = keyOf(item, i++);
        const list = out.get(key);
        if (list) list.push(item);
        else out.set(key, [item]);
      }
      return out;
    },
  });
}
if (typeof Object.groupBy !== 'function') {
  Object.defineProperty(Object, 'groupBy', {
    configurable: true,
    writable: true,
    value(items, keyOf) {
      const out = Object.create(null);
      let i = 0;
      for (const item of items) (out[keyOf(item, i++)] ??= []).push(item);
      return out;
    },
  });
}
