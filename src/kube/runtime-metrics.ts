/**
 * The metrics every controller-runtime operator exposes, with controller-runtime's names, label
 * names, help texts and buckets (pkg/internal/controller/metrics, pkg/metrics/workqueue.go,
 * client-go's rest_client and leader-election adapters), so that dashboards made for
 * controller-runtime operators work on this one:
 *
 * - `controller_runtime_reconcile_total{controller,result}` (result: success, error, requeue,
 *   requeue_after), `controller_runtime_reconcile_errors_total{controller}`,
 *   `controller_runtime_reconcile_time_seconds{controller}`,
 *   `controller_runtime_max_concurrent_reconciles{controller}`,
 *   `controller_runtime_active_workers{controller}`;
 * - `workqueue_*{name,controller}` (controller-runtime ≥ 0.20: `name` and `controller` are both
 *   the controller's name, and `workqueue_depth` also has an empty `priority`);
 * - `rest_client_requests_total{code,method,host}`;
 * - `leader_election_master_status{name}`.
 *
 * One instance per operator (its own Registry, never prom-client's global one). Durations come
 * from the controller's Clock, so in a simulation they are virtual time. Every label value is
 * bounded: controller names are fixed in the code, `host` is the API server's, `code` an HTTP
 * status or `<error>`, `method` an HTTP verb.
 *
 * The process and Node.js runtime families (prom-client's default collectors) are on a
 * process-wide registry ({@link processMetricsRegistry}), made once: their collectors observe
 * the process, not an operator.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, exponentialBuckets } from 'prom-client';

/** controller-runtime's buckets of `controller_runtime_reconcile_time_seconds`. */
export const RECONCILE_TIME_BUCKETS: readonly number[] = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75,
  2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];

/** client-go's work-queue buckets: `ExponentialBuckets(10e-9, 10, 12)`, 10 ns to 1,000 s. */
export const WORKQUEUE_BUCKETS: readonly number[] = exponentialBuckets(10e-9, 10, 12);

/** controller-runtime's `result` label values. */
export const RECONCILE_RESULTS = ['success', 'error', 'requeue', 'requeue_after'] as const;
export type ReconcileResultLabel = (typeof RECONCILE_RESULTS)[number];

/** What a work queue tells the metrics at scrape time (times in ms). */
export interface WorkQueueGauges {
  depth: number;
  /** Sum of the ages of the keys being processed. */
  unfinishedMs: number;
  /** Age of the oldest key being processed. */
  longestRunningMs: number;
}

/** What a work queue reports as it works (times in ms). */
export interface WorkQueueMetrics {
  added(): void;
  retried(): void;
  /** A key was handed to a worker after waiting this long. */
  queued(ms: number): void;
  /** A key's processing took this long. */
  worked(ms: number): void;
}

/** What a controller reports as it works. */
export interface ControllerMetrics {
  /** The controller starts with this many workers. */
  started(workers: number): void;
  /** A reconcile begins. */
  reconcileStarted(): void;
  /** A reconcile ended with this result after this long (ms); without a result (cut short by shutdown) only its worker is freed. */
  reconcileDone(result: ReconcileResultLabel | undefined, ms: number): void;
  /** The work queue's reporting, and where the metrics read its gauges. */
  workQueue(gauges: () => WorkQueueGauges): WorkQueueMetrics;
}

/** The rest client's reporting of each request's outcome. */
export type RequestMetrics = (code: string, method: string, host: string) => void;

/** The controller-runtime families of one operator. */
export class RuntimeMetrics {
  readonly registry: Registry;
  readonly #reconcileTotal: Counter<'controller' | 'result'>;
  readonly #reconcileErrors: Counter<'controller'>;
  readonly #reconcileTime: Histogram<'controller'>;
  readonly #maxConcurrent: Gauge<'controller'>;
  readonly #activeWorkers: Gauge<'controller'>;
  readonly #adds: Counter<'name' | 'controller'>;
  readonly #retries: Counter<'name' | 'controller'>;
  readonly #queueDuration: Histogram<'name' | 'controller'>;
  readonly #workDuration: Histogram<'name' | 'controller'>;
  readonly #requests: Counter<'code' | 'method' | 'host'>;
  readonly #leader: Gauge<'name'>;
  /** Each controller's current work queue, read at scrape time. */
  readonly #queues = new Map<string, () => WorkQueueGauges>();

  constructor(registry: Registry = new Registry()) {
    this.registry = registry;
    const registers = [registry];
    this.#reconcileTotal = new Counter({
      name: 'controller_runtime_reconcile_total',
      help: 'Total number of reconciliations per controller',
      labelNames: ['controller', 'result'],
      registers,
    });
    this.#reconcileErrors = new Counter({
      name: 'controller_runtime_reconcile_errors_total',
      help: 'Total number of reconciliation errors per controller',
      labelNames: ['controller'],
      registers,
    });
    this.#reconcileTime = new Histogram({
      name: 'controller_runtime_reconcile_time_seconds',
      help: 'Length of time per reconciliation per controller',
      labelNames: ['controller'],
      buckets: [...RECONCILE_TIME_BUCKETS],
      registers,
    });
    this.#maxConcurrent = new Gauge({
      name: 'controller_runtime_max_concurrent_reconciles',
      help: 'Maximum number of concurrent reconciles per controller',
      labelNames: ['controller'],
      registers,
    });
    this.#activeWorkers = new Gauge({
      name: 'controller_runtime_active_workers',
      help: 'Number of currently used workers per controller',
      labelNames: ['controller'],
      registers,
    });
    const queues = this.#queues;
    const scrapeGauge = (
      name: string,
      help: string,
      value: (gauges: WorkQueueGauges) => number,
      priority: boolean,
    ): void => {
      new Gauge({
        name,
        help,
        labelNames: priority ? ['name', 'controller', 'priority'] : ['name', 'controller'],
        registers,
        collect(): void {
          this.reset();
          for (const [controller, gauges] of queues) {
            const labels = priority ? { name: controller, controller, priority: '' } : { name: controller, controller };
            this.set(labels, value(gauges()));
          }
        },
      });
    };
    scrapeGauge('workqueue_depth', 'Current depth of workqueue by workqueue and priority', (g) => g.depth, true);
    this.#adds = new Counter({
      name: 'workqueue_adds_total',
      help: 'Total number of adds handled by workqueue',
      labelNames: ['name', 'controller'],
      registers,
    });
    this.#queueDuration = new Histogram({
      name: 'workqueue_queue_duration_seconds',
      help: 'How long in seconds an item stays in workqueue before being requested',
      labelNames: ['name', 'controller'],
      buckets: [...WORKQUEUE_BUCKETS],
      registers,
    });
    this.#workDuration = new Histogram({
      name: 'workqueue_work_duration_seconds',
      help: 'How long in seconds processing an item from workqueue takes.',
      labelNames: ['name', 'controller'],
      buckets: [...WORKQUEUE_BUCKETS],
      registers,
    });
    scrapeGauge(
      'workqueue_unfinished_work_seconds',
      "How many seconds of work has been done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.",
      (g) => g.unfinishedMs / 1000,
      false,
    );
    scrapeGauge(
      'workqueue_longest_running_processor_seconds',
      'How many seconds has the longest running processor for workqueue been running.',
      (g) => g.longestRunningMs / 1000,
      false,
    );
    this.#retries = new Counter({
      name: 'workqueue_retries_total',
      help: 'Total number of retries handled by workqueue',
      labelNames: ['name', 'controller'],
      registers,
    });
    this.#requests = new Counter({
      name: 'rest_client_requests_total',
      help: 'Number of HTTP requests, partitioned by status code, method, and host.',
      labelNames: ['code', 'method', 'host'],
      registers,
    });
    this.#leader = new Gauge({
      name: 'leader_election_master_status',
      help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
      labelNames: ['name'],
      registers,
    });
  }

  /** The reporting of one controller (its families start at 0, as controller-runtime's do). */
  controller(name: string): ControllerMetrics {
    const c = { controller: name };
    const q = { name, controller: name };
    for (const result of RECONCILE_RESULTS) this.#reconcileTotal.inc({ ...c, result }, 0);
    this.#reconcileErrors.inc(c, 0);
    this.#adds.inc(q, 0);
    this.#retries.inc(q, 0);
    return {
      started: (workers) => {
        this.#maxConcurrent.set(c, workers);
        this.#activeWorkers.set(c, 0);
      },
      reconcileStarted: () => this.#activeWorkers.inc(c),
      reconcileDone: (result, ms) => {
        this.#activeWorkers.dec(c);
        if (result === undefined) return;
        this.#reconcileTotal.inc({ ...c, result });
        if (result === 'error') this.#reconcileErrors.inc(c);
        this.#reconcileTime.observe(c, ms / 1000);
      },
      workQueue: (gauges) => {
        this.#queues.set(name, gauges);
        return {
          added: () => this.#adds.inc(q),
          retried: () => this.#retries.inc(q),
          queued: (ms) => this.#queueDuration.observe(q, ms / 1000),
          worked: (ms) => this.#workDuration.observe(q, ms / 1000),
        };
      },
    };
  }

  /** For the rest client: counts each request by status code (`<error>` without a response), verb and host. */
  readonly requests: RequestMetrics = (code, method, host) => this.#requests.inc({ code, method, host });

  /** For leader election on the named Lease: 0 until leading, 1 while leading. */
  leaderElection(name: string): (leading: boolean) => void {
    this.#leader.set({ name }, 0);
    return (leading) => this.#leader.set({ name }, leading ? 1 : 0);
  }
}

let processRegistry: Registry | undefined;

/**
 * prom-client's default collectors (`process_*`, `nodejs_*`) on a registry of their own, made
 * once per process (the collectors keep observers that are never released).
 */
export function processMetricsRegistry(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}
