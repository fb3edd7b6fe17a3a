import { heapGrowingPercent, tuneHeap } from '@fundi/server';

// Imported first by every Fundi bench server, so it runs as `npm start` runs the server: V8's heap tuned the same
// way (FUNDI_HEAP_GROWING_PERCENT; docs/architecture.md, "Memory").
tuneHeap(heapGrowingPercent());
