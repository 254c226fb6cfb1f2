import { test } from 'node:test';
import assert from 'node:assert/strict';
import { calculateAcceptedNames, claimNames, type ClaimedNames } from './accepted-names.js';

function claims(...names: Array<Record<string, unknown>>): ClaimedNames {
  const c: ClaimedNames = { resources: new Set(), kinds: new Set() };
  for (const n of names) claimNames(c, n as never);
  return c;
}

const widgets = { plural: 'widgets', singular: 'widget', shortNames: ['wd'], kind: 'Widget', listKind: 'WidgetList' };

void test('fresh names are all accepted', () => {
  const r = calculateAcceptedNames(
    { ...widgets, categories: ['all'] },
    {},
    claims({ plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' }),
  );
  assert.deepEqual(r.condition, { status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
  assert.deepEqual(r.acceptedNames, { ...widgets, categories: ['all'] });
});

void test('names this CRD accepted before stay its own', () => {
  const r = calculateAcceptedNames(widgets, widgets, claims(widgets));
  assert.equal(r.condition.status, 'True');
});

void test('each kind of conflict has its reason; the last one checked wins; taken names stay as accepted before', () => {
  const other = {
    plural: 'others',
    singular: 'other',
    shortNames: ['wd', 'ot'],
    kind: 'Widget',
    listKind: 'OtherList',
  };
  const plural = calculateAcceptedNames(
    { ...widgets, plural: 'others', kind: 'Fresh', listKind: 'FreshList', shortNames: [] },
    {},
    claims(other),
  );
  assert.deepEqual(plural.condition, {
    status: 'False',
    reason: 'PluralConflict',
    message: '"others" is already in use',
  });
  assert.equal(plural.acceptedNames.plural, '');
  const short = calculateAcceptedNames(
    { ...widgets, kind: 'Fresh', listKind: 'FreshList', shortNames: ['wd', 'ot', 'ok'] },
    {},
    claims(other),
  );
  assert.deepEqual(short.condition, {
    status: 'False',
    reason: 'ShortNamesConflict',
    message: '["wd" is already in use, "ot" is already in use]',
  });
  assert.equal(short.acceptedNames.shortNames, undefined);
  assert.equal(short.acceptedNames.plural, 'widgets');
  const kind = calculateAcceptedNames(widgets, {}, claims(other));
  assert.deepEqual(kind.condition, { status: 'False', reason: 'KindConflict', message: '"Widget" is already in use' });
  const listKind = calculateAcceptedNames({ ...widgets, shortNames: [], listKind: 'OtherList' }, {}, claims(other));
  assert.deepEqual(listKind.condition, {
    status: 'False',
    reason: 'ListKindConflict',
    message: '"OtherList" is already in use',
  });
});

void test('an established CRD that asks for a taken short name keeps its old short names', () => {
  const r = calculateAcceptedNames(
    { ...widgets, shortNames: ['wd', 'ot'] },
    widgets,
    claims(widgets, { plural: 'others', shortNames: ['ot'], kind: 'Other' }),
  );
  assert.equal(r.condition.reason, 'ShortNamesConflict');
  assert.deepEqual(r.acceptedNames.shortNames, ['wd']);
  assert.equal(r.acceptedNames.kind, 'Widget');
});
