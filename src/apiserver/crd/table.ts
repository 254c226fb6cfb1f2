/**
 * `meta.k8s.io/v1` Table responses, as kube-apiserver returns them to `kubectl get`
 * (Accept: application/json;as=Table;g=meta.k8s.io;v=v1). Custom resources use the CRD's
 * additionalPrinterColumns after Name (with none, a single Age column from
 * creationTimestamp, as apiextensions serves by default); date cells hold the age text the
 * server computes. Built-in kinds use {@link builtinColumns}.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../lib/json.js';
import type { KubeObject, ResourceType } from '../types.js';
import { builtinColumns, hasLeadingName, type PrinterColumn } from './builtin-printers.js';
import { ageOf } from './human-duration.js';
import { evaluatePrinterColumn } from './jsonpath.js';

/** Options of {@link toTable}. */
export interface TableOptions {
  /** additionalPrinterColumns of the CRD version (custom resources only). */
  printerColumns?: JsonObject[];
  /** What each row carries besides its cells; kube's default is Metadata. */
  includeObject?: 'None' | 'Metadata' | 'Object';
  /** The list's metadata (resourceVersion, continue). */
  listMeta: JsonObject;
  /** The current time in ms, for ages. */
  now: number;
}

const NAME_COLUMN: PrinterColumn = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'Name must be unique within a namespace; see metadata.name.',
  cell: (o) => (isJsonObject(o['metadata']) && typeof o['metadata']['name'] === 'string' ? o['metadata']['name'] : ''),
};

/** Go's fmt.Print of a decoded JSON value, as client-go's jsonpath prints non-strings. */
function goPrint(value: JsonValue): string {
  if (value === null) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goPrint).join(' ')}]`;
  if (isJsonObject(value))
    return `map[${Object.keys(value)
      .sort()
      .map((k) => `${k}:${goPrint(value[k]!)}`)
      .join(' ')}]`;
  return String(value);
}

/** cellForJSONValue of apiextensions' table convertor. */
function customCell(type: string, value: JsonValue | undefined, now: number): JsonValue {
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'string':
      return typeof value === 'string' ? value : goPrint(value);
    case 'date':
      if (typeof value !== 'string') return null;
      return Number.isNaN(Date.parse(value)) ? '<invalid>' : ageOf(value, now);
    default:
      return null;
  }
}

function customColumns(printerColumns: JsonObject[] | undefined): PrinterColumn[] {
  const cols =
    printerColumns && printerColumns.length > 0
      ? printerColumns
      : [
          {
            name: 'Age',
            type: 'date',
            jsonPath: '.metadata.creationTimestamp',
            description: 'Time since the object was created.',
          },
        ];
  return cols.map((value) => {
    const jsonPath = typeof value['jsonPath'] === 'string' ? value['jsonPath'] : '';
    const type = typeof value['type'] === 'string' ? value['type'] : 'string';
    const col: PrinterColumn = {
      name: typeof value['name'] === 'string' ? value['name'] : '',
      type,
      description:
        typeof value['description'] === 'string' && value['description'] !== ''
          ? value['description']
          : `Custom resource definition column (in JSONPath format): ${jsonPath}`,
      cell: (o, now) => customCell(type, evaluatePrinterColumn(o, jsonPath), now),
    };
    if (typeof value['format'] === 'string') col.format = value['format'];
    if (typeof value['priority'] === 'number') col.priority = value['priority'];
    return col;
  });
}

function rowObject(obj: KubeObject, mode: 'None' | 'Metadata' | 'Object'): JsonObject | undefined {
  if (mode === 'None') return undefined;
  if (mode === 'Object') return obj;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
}

/** Builds the Table for a list (or a single object) of one resource type. */
export function toTable(rt: ResourceType, objects: KubeObject[], options: TableOptions): JsonObject {
  let columns: PrinterColumn[];
  if (rt.custom) columns = [NAME_COLUMN, ...customColumns(options.printerColumns)];
  else if (hasLeadingName(rt.group, rt.kind)) columns = [NAME_COLUMN, ...builtinColumns(rt.group, rt.kind)];
  else columns = builtinColumns(rt.group, rt.kind);
  const mode = options.includeObject ?? 'Metadata';
  const rows = objects.map((obj) => {
    const row: JsonObject = { cells: columns.map((c) => c.cell(obj, options.now)) };
    const o = rowObject(obj, mode);
    if (o) row['object'] = o;
    return row;
  });
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: options.listMeta,
    columnDefinitions: columns.map((c) => ({
      name: c.name,
      type: c.type,
      format: c.format ?? '',
      description: c.description,
      priority: c.priority ?? 0,
    })),
    rows,
  };
}
