/**
 * The child process of the idle-heap benchmark: runs the idle operator in the simulation and
 * reads its heap after GC, started by the runner with V8 flags of its own (interpreter only).
 */
import { measureIdleHeap, type IdleHeapPlan } from './bench-managed.js';
import { serveRpc } from './rpc.js';

serveRpc({
  measure: async (p) => measureIdleHeap(p as IdleHeapPlan, () => undefined),
});
