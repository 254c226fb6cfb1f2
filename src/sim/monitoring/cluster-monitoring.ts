/**
 * The cluster monitoring stack of the simulated cluster, wired to the API: informers on
 * Nodes, Pods, PodDisruptionBudgets, ClusterOperators and the ClusterVersion; at every rule
 * evaluation (every 30 s of the clock) one "scrape" of the series derived from the cached
 * objects (`seriesFromObjects`) into the TSDB; the platform alert rules evaluated with `for`;
 * firing and resolved alerts pushed to the simulated Alertmanager (unless it is down); the
 * Prometheus and Alertmanager HTTP APIs on loopback; periodic TSDB compaction. Everything runs
 * on `ctx.clock` and reports to `ctx.activity`.
 */
import { NodeResource, PodDisruptionBudgetResource, PodResource } from '../../api/builtin.js';
import { ClusterOperatorResource } from '../../api/openshift/config-v1/cluster-operator.js';
import { ClusterVersionResource } from '../../api/openshift/config-v1/cluster-version.js';
import type { ResourceDescriptor } from '../../api/resource.js';
import { NO_ACTIVITY } from '../../lib/activity.js';
import type { Timer } from '../../lib/clock.js';
import type { Informer } from '../../kube/informer.js';
import type { HttpServer } from '../http-server.js';
import type { SimComponent, SimContext } from '../context.js';
import {
  SimAlertmanager,
  type AlertmanagerFault,
  type SimAlertmanagerOptions,
} from './alertmanager/alertmanager-server.js';
import { platformRuleGroups } from './platform-rules.js';
import { startPrometheusServer, type PrometheusFault, type PrometheusServer } from './prometheus-server.js';
import { RuleEvaluator, type AlertSink, type RuleGroup } from './rules.js';
import { seriesFromObjects, type ClusterObjects } from './series-from-objects.js';
import { ScrapeWriter, Tsdb } from './tsdb.js';

type InformerOf<D> = D extends ResourceDescriptor<infer T> ? Informer<T> : never;

/** Options of {@link createClusterMonitoring}. */
export interface ClusterMonitoringOptions {
  /** Alert rules (default {@link platformRuleGroups}). */
  groups?: RuleGroup[];
  /** Scrape and evaluation interval in ms (default 30 s, OpenShift's). */
  intervalMs?: number;
  /** TSDB retention in ms (default 24 h). */
  retentionMs?: number;
  /** How often the TSDB drops samples past retention, in ms (default 1 h). */
  compactIntervalMs?: number;
  /** Nodes whose drain has failed for over an hour (the drain controller's `mcc_drain_err`); default none. */
  drainErrorNodes?: () => readonly string[];
  /** Creation time (s) of the running release image, for `cluster_version{type="current"}`; default 0. */
  currentReleaseCreated?: () => number;
  /** Labels added to alerts sent to Alertmanager (default `prometheus="openshift-monitoring/k8s"`). */
  externalLabels?: Record<string, string>;
  /** Serve the HTTP APIs (default true); without, use `tsdb`, `rules` and `alertmanager` in process. */
  serve?: boolean;
  prometheusPort?: number;
  alertmanagerPort?: number;
  /** Passed to the Alertmanager (routing, auth, timeouts). */
  alertmanager?: Omit<SimAlertmanagerOptions, 'clock' | 'random'>;
}

/** The running monitoring stack. */
export interface ClusterMonitoring extends SimComponent {
  readonly tsdb: Tsdb;
  readonly rules: RuleEvaluator;
  readonly alertmanager: SimAlertmanager;
  /** `http://127.0.0.1:<port>` once started with `serve` (else undefined). */
  readonly prometheusUrl: string | undefined;
  readonly alertmanagerUrl: string | undefined;
  /** Prometheus' HTTP API misbehaves (rule evaluation goes on). */
  setPrometheusFault(fault: PrometheusFault): void;
  /** Alertmanager's HTTP API misbehaves; while it is `down` or `error`, Prometheus cannot deliver alerts either. */
  setAlertmanagerFault(fault: AlertmanagerFault): void;
}

/** Makes the monitoring component; {@link SimComponent.start} starts informers, rules and servers. */
export function createClusterMonitoring(ctx: SimContext, options: ClusterMonitoringOptions = {}): ClusterMonitoring {
  return new ClusterMonitoringComponent(ctx, options);
}

class ClusterMonitoringComponent implements ClusterMonitoring {
  readonly name = 'cluster-monitoring';
  readonly tsdb: Tsdb;
  readonly rules: RuleEvaluator;
  readonly alertmanager: SimAlertmanager;
  readonly #ctx: SimContext;
  readonly #o: ClusterMonitoringOptions;
  readonly #scrapes: ScrapeWriter;
  #informers:
    | {
        nodes: InformerOf<typeof NodeResource>;
        pods: InformerOf<typeof PodResource>;
        pdbs: InformerOf<typeof PodDisruptionBudgetResource>;
        cos: InformerOf<typeof ClusterOperatorResource>;
        cv: InformerOf<typeof ClusterVersionResource>;
      }
    | undefined;
  #prometheus: PrometheusServer | undefined;
  #amServer: HttpServer | undefined;
  #pendingPrometheusFault: PrometheusFault | undefined;
  #compactTimer: Timer | undefined;
  #started = false;

  constructor(ctx: SimContext, options: ClusterMonitoringOptions) {
    this.#ctx = ctx;
    this.#o = options;
    const random = ctx.random.fork('cluster-monitoring');
    this.tsdb = new Tsdb(options.retentionMs === undefined ? {} : { retentionMs: options.retentionMs });
    this.#scrapes = new ScrapeWriter(this.tsdb);
    this.alertmanager = new SimAlertmanager({ ...options.alertmanager, clock: ctx.clock, random });
    const am = this.alertmanager;
    const logger = ctx.logger.child({ component: this.name });
    // Prometheus' notifier: alerts reach Alertmanager only while it answers.
    const sink: AlertSink = {
      push: (alerts) => {
        const fault = am.fault;
        if (fault.kind === 'down' || fault.kind === 'error') return;
        try {
          am.alerts.push(alerts);
        } catch (err) {
          logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'alertmanager rejected alerts');
        }
      },
    };
    this.rules = new RuleEvaluator({
      tsdb: this.tsdb,
      clock: ctx.clock,
      groups: options.groups ?? platformRuleGroups(),
      sink,
      externalLabels: options.externalLabels ?? { prometheus: 'openshift-monitoring/k8s' },
      ...(options.intervalMs === undefined ? {} : { intervalMs: options.intervalMs }),
      ...(ctx.activity ? { activity: ctx.activity } : {}),
      beforeEvaluation: (t) => this.#scrape(t),
    });
  }

  get prometheusUrl(): string | undefined {
    return this.#prometheus?.url;
  }

  get alertmanagerUrl(): string | undefined {
    return this.#amServer?.url;
  }

  setPrometheusFault(fault: PrometheusFault): void {
    if (this.#prometheus) this.#prometheus.setFault(fault);
    else this.#pendingPrometheusFault = fault;
  }

  setAlertmanagerFault(fault: AlertmanagerFault): void {
    this.alertmanager.setFault(fault);
  }

  async start(signal: AbortSignal): Promise<void> {
    if (this.#started) throw new Error('cluster-monitoring: already started');
    this.#started = true;
    const { informers } = this.#ctx;
    this.#informers = {
      nodes: informers.informerFor(NodeResource),
      pods: informers.informerFor(PodResource),
      pdbs: informers.informerFor(PodDisruptionBudgetResource),
      cos: informers.informerFor(ClusterOperatorResource),
      cv: informers.informerFor(ClusterVersionResource),
    };
    informers.start(signal);
    if (!(await informers.waitForSync(signal))) return;

    if (this.#o.serve ?? true) {
      const activity = this.#ctx.activity ?? NO_ACTIVITY;
      const logger = this.#ctx.logger;
      this.#prometheus = await startPrometheusServer({
        tsdb: this.tsdb,
        rules: this.rules,
        clock: this.#ctx.clock,
        activity,
        logger,
        ...(this.#o.prometheusPort === undefined ? {} : { port: this.#o.prometheusPort }),
      });
      if (this.#pendingPrometheusFault) this.#prometheus.setFault(this.#pendingPrometheusFault);
      this.#amServer = await this.alertmanager.listen({
        activity,
        logger,
        ...(this.#o.alertmanagerPort === undefined ? {} : { port: this.#o.alertmanagerPort }),
      });
    }
    this.rules.start();
    this.#scheduleCompaction();

    const stop = (): void => {
      this.rules.stop();
      this.#compactTimer?.cancel();
      this.#compactTimer = undefined;
      const closing: Array<Promise<void>> = [];
      if (this.#prometheus) closing.push(this.#prometheus.close());
      if (this.#amServer) closing.push(this.#amServer.close());
      void Promise.allSettled(closing);
    };
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  }

  #scheduleCompaction(): void {
    const every = this.#o.compactIntervalMs ?? 3600_000;
    this.#compactTimer = this.#ctx.clock.setTimer(every, () => {
      this.tsdb.compact(this.#ctx.clock.now());
      this.#scheduleCompaction();
    });
  }

  /** One scrape of every target, taken from the informer caches at `t`. */
  #scrape(time: number): void {
    const inf = this.#informers;
    if (!inf) return;
    const objects: ClusterObjects = {
      nodes: inf.nodes.list(),
      pods: inf.pods.list(),
      podDisruptionBudgets: inf.pdbs.list(),
      clusterOperators: inf.cos.list(),
      drainErrorNodes: this.#o.drainErrorNodes?.() ?? [],
      currentReleaseCreated: this.#o.currentReleaseCreated?.() ?? 0,
    };
    const cv = inf.cv.get(undefined, 'version');
    if (cv) objects.clusterVersion = cv;
    this.#scrapes.write(seriesFromObjects(objects), time);
  }
}
