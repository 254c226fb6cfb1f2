import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../../lib/clock.js';
import { SeededRandom } from '../../../lib/random.js';
import { AmError } from './am-error.js';
import { SilenceStore, uuidV4, type SilenceInput } from './silences.js';

const MIN = 60_000;

function setup(retentionMs?: number): { clock: ManualClock; store: SilenceStore } {
  const clock = new ManualClock('2026-03-20T08:00:00Z');
  const store = new SilenceStore({
    clock,
    random: new SeededRandom(1),
    ...(retentionMs === undefined ? {} : { retentionMs }),
  });
  return { clock, store };
}

function input(clock: ManualClock, fromMin: number, toMin: number, extra: Partial<SilenceInput> = {}): SilenceInput {
  return {
    matchers: [{ name: 'severity', value: '(warning|info)', isRegex: true }],
    startsAt: clock.now() + fromMin * MIN,
    endsAt: clock.now() + toMin * MIN,
    createdBy: 'managed-upgrade-operator',
    comment: 'c',
    ...extra,
  };
}

function rejects(fn: () => unknown, status: number, body: string): void {
  assert.throws(fn, (err: unknown) => err instanceof AmError && err.status === status && err.body === body);
}

test('a silence moves pending → active → expired with the clock', async () => {
  const { clock, store } = setup();
  const id = store.post(input(clock, 10, 70));
  const s = () => store.get(id)!;
  assert.equal(store.state(s()), 'pending');
  await clock.advance(10 * MIN);
  assert.equal(store.state(s()), 'active');
  await clock.advance(60 * MIN - 1);
  assert.equal(store.state(s()), 'active');
  await clock.advance(1);
  assert.equal(store.state(s()), 'expired');
});

test('a start in the past becomes now; the id is a seeded UUID v4', () => {
  const { clock, store } = setup();
  const id = store.post(input(clock, -30, 60));
  assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(id, uuidV4(new SeededRandom(1)));
  assert.equal(store.get(id)!.startsAt, clock.now());
  assert.equal(store.get(id)!.updatedAt, clock.now());
});

test('time and matcher validation answers as Alertmanager does', () => {
  const { clock, store } = setup();
  rejects(() => store.post(input(clock, 60, 30)), 400, 'Failed to create silence: start time must be before end time');
  rejects(() => store.post(input(clock, 10, 10)), 400, 'Failed to create silence: start time must be before end time');
  rejects(() => store.post(input(clock, -60, -30)), 400, "Failed to create silence: end time can't be in the past");
  rejects(
    () =>
      store.post(
        input(clock, 0, 60, {
          matchers: [
            { name: 'a', value: '.*', isRegex: true },
            { name: 'b', value: '', isRegex: false },
          ],
        }),
      ),
    400,
    'silence invalid: at least one matcher must not match the empty string',
  );
  rejects(
    () =>
      store.post(
        input(clock, 0, 60, {
          matchers: [
            { name: 'a', value: 'x', isRegex: false },
            { name: 'b', value: '(', isRegex: true },
          ],
        }),
      ),
    400,
    'silence invalid: invalid label matcher 1: invalid regular expression "(": error parsing regexp: missing closing ): `(`',
  );
  rejects(
    () => store.post(input(clock, 0, 60, { id: '00000000-0000-4000-8000-000000000000' })),
    404,
    'silence not found',
  );
  // != "" and !~ ".*" do not match the empty string, so they may stand alone.
  store.post(input(clock, 0, 60, { matchers: [{ name: 'a', value: '', isRegex: false, isEqual: false }] }));
  store.post(input(clock, 0, 60, { matchers: [{ name: 'a', value: '.*', isRegex: true, isEqual: false }] }));
});

test('updates: in place when allowed, otherwise expire and replace', async () => {
  const { clock, store } = setup();
  const id = store.post(input(clock, 0, 60));
  const start = store.get(id)!.startsAt;
  await clock.advance(MIN);
  // Active, same matchers, same start (to the second), later end: same id.
  assert.equal(store.post({ ...input(clock, 0, 120, { id, comment: 'longer' }), startsAt: start + 400 }), id);
  assert.equal(store.get(id)!.comment, 'longer');
  assert.equal(store.get(id)!.updatedAt, clock.now());
  // isEqual omitted and true are the same matcher.
  assert.equal(
    store.post({
      ...input(clock, 0, 120, { id }),
      startsAt: start,
      matchers: [{ name: 'severity', value: '(warning|info)', isRegex: true, isEqual: true }],
    }),
    id,
  );
  // Active, start moved: replaced, the old one expires now.
  const moved = store.post({ ...input(clock, 10, 120, { id }) });
  assert.notEqual(moved, id);
  assert.equal(store.state(store.get(id)!), 'expired');
  assert.equal(store.get(id)!.endsAt, clock.now());
  assert.equal(store.state(store.get(moved)!), 'pending');
  // Pending, start later (or exactly now): in place. Start in the past: replaced, the old
  // pending one expires with start = end = now.
  assert.equal(store.post(input(clock, 20, 120, { id: moved })), moved);
  const now = store.post(input(clock, -1, 120, { id: moved }));
  assert.notEqual(now, moved);
  assert.deepEqual([store.get(moved)!.startsAt, store.get(moved)!.endsAt], [clock.now(), clock.now()]);
  // Matchers changed: replaced. Updating an expired silence creates a new one and leaves it alone.
  const changed = store.post(
    input(clock, 0, 120, { id: now, matchers: [{ name: 'alertname', value: 'X', isRegex: false }] }),
  );
  assert.notEqual(changed, now);
  const before = store.get(now)!;
  const again = store.post(input(clock, 0, 130, { id: now }));
  assert.notEqual(again, now);
  assert.deepEqual(store.get(now), before);
});

test('an update with invalid matchers still expires the old silence (as Alertmanager 0.25 does)', () => {
  const { clock, store } = setup();
  const id = store.post(input(clock, 0, 60));
  rejects(
    () => store.post(input(clock, 0, 60, { id, matchers: [{ name: 'a-b', value: 'x', isRegex: false }] })),
    400,
    'silence invalid: invalid label matcher 0: invalid label name "a-b"',
  );
  assert.equal(store.state(store.get(id)!), 'expired');
});

test('expire: active and pending silences end now; expired ones stay; unknown ids are 500', async () => {
  const { clock, store } = setup();
  const active = store.post(input(clock, 0, 60));
  const pending = store.post(input(clock, 30, 60));
  await clock.advance(MIN);
  store.expire(active);
  store.expire(pending);
  assert.equal(store.state(store.get(active)!), 'expired');
  assert.deepEqual([store.get(pending)!.startsAt, store.get(pending)!.endsAt], [clock.now(), clock.now()]);
  const snapshot = store.get(active);
  await clock.advance(MIN);
  store.expire(active);
  assert.deepEqual(store.get(active), snapshot);
  rejects(() => store.expire('00000000-0000-4000-8000-000000000000'), 500, 'silence not found');
});

test('expired silences are listed until the retention ends, then gone', async () => {
  const { clock, store } = setup(60 * MIN);
  const id = store.post(input(clock, 0, 10));
  await clock.advance(70 * MIN);
  assert.equal(store.list().length, 1);
  await clock.advance(MIN);
  assert.equal(store.list().length, 0);
  assert.equal(store.get(id), undefined);
});

test('list order: active by end, pending by start, expired latest end first; filters compare matchers', async () => {
  const { clock, store } = setup();
  const a2 = store.post(input(clock, 0, 120, { comment: 'a2' }));
  const a1 = store.post(input(clock, 0, 60, { comment: 'a1' }));
  const p2 = store.post(input(clock, 50, 100, { comment: 'p2' }));
  const p1 = store.post(
    input(clock, 40, 100, {
      comment: 'p1',
      matchers: [
        { name: 'node', value: 'n1', isRegex: false, isEqual: false },
        { name: 'alertname', value: 'X', isRegex: false },
      ],
    }),
  );
  const e1 = store.post(input(clock, 0, 100, { comment: 'e1' }));
  store.expire(e1);
  await clock.advance(MIN);
  const e2 = store.post(input(clock, 0, 100, { comment: 'e2' }));
  store.expire(e2);
  assert.deepEqual(
    store.list().map((s) => s.id),
    [a1, a2, p1, p2, e2, e1],
  );
  assert.deepEqual(
    store.list([{ name: 'node', type: '!=', value: 'n1' }]).map((s) => s.id),
    [p1],
  );
  assert.deepEqual(store.list([{ name: 'node', type: '=', value: 'n1' }]), []);
  assert.equal(store.list([{ name: 'severity', type: '=~', value: '(warning|info)' }]).length, 5);
  assert.deepEqual(
    store
      .list([
        { name: 'alertname', type: '=', value: 'X' },
        { name: 'node', type: '!=', value: 'n1' },
      ])
      .map((s) => s.id),
    [p1],
  );
  assert.deepEqual(store.list([{ name: 'severity', type: '=~', value: 'warning' }]), []);
});

test('mutedBy: only active silences whose every matcher matches, ids sorted', async () => {
  const { clock, store } = setup();
  const cp = store.post(
    input(clock, 0, 60, {
      matchers: [
        { name: 'severity', value: 'warning|info', isRegex: true },
        { name: 'namespace', value: '^openshift.*', isRegex: true },
      ],
    }),
  );
  const neq = store.post(
    input(clock, 0, 60, {
      matchers: [
        { name: 'node', value: 'n1', isRegex: false, isEqual: false },
        { name: 'alertname', value: 'KubeNodeNotReady', isRegex: false },
      ],
    }),
  );
  store.post(input(clock, 5, 60, { matchers: [{ name: 'alertname', value: 'KubeNodeNotReady', isRegex: false }] }));
  assert.deepEqual(store.mutedBy({ severity: 'warning', namespace: 'openshift-etcd' }), [cp]);
  assert.deepEqual(store.mutedBy({ severity: 'warning', namespace: 'default' }), []);
  assert.deepEqual(store.mutedBy({ severity: 'warningx', namespace: 'openshift-etcd' }), []);
  assert.deepEqual(store.mutedBy({ alertname: 'KubeNodeNotReady', node: 'n2' }), [neq]);
  assert.deepEqual(store.mutedBy({ alertname: 'KubeNodeNotReady', node: 'n1' }), []);
  await clock.advance(5 * MIN);
  assert.equal(store.mutedBy({ alertname: 'KubeNodeNotReady', node: 'n1' }).length, 1);
  assert.equal(store.mutedBy({ alertname: 'KubeNodeNotReady', node: 'n2' }).length, 2);
  store.expire(neq);
  assert.equal(store.mutedBy({ alertname: 'KubeNodeNotReady', node: 'n2' }).length, 1);
});

test('toGettable has the v2 shape', () => {
  const { clock, store } = setup();
  const id = store.post(input(clock, 0, 60));
  assert.deepEqual(store.toGettable(store.get(id)!), {
    id,
    status: { state: 'active' },
    updatedAt: '2026-03-20T08:00:00.000Z',
    comment: 'c',
    createdBy: 'managed-upgrade-operator',
    endsAt: '2026-03-20T09:00:00.000Z',
    matchers: [{ isEqual: true, isRegex: true, name: 'severity', value: '(warning|info)' }],
    startsAt: '2026-03-20T08:00:00.000Z',
  });
});
