/** Every benchmark, in the order a full run takes them (the runner's --only names, and the smoke test's). */
export const BENCHES = [
  'store',
  'cognition',
  'admission',
  'hardware',
  'notes',
  'safety',
  'assertion',
  'attribution',
  'keys',
  'duplicates',
  'search-quality',
  'fleet',
  'vector-scale',
  'startup',
  'mind-view',
  'objects',
] as const;
