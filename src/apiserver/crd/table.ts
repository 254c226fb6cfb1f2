/**
 * `meta.k8s.io/v1` Table responses, as kube-apiserver returns them to `kubectl get`
 * (Accept: application/json;as=Table;g=meta.k8s.io;v=v1). Custom resources use the CRD's
 * additionalPrinterColumns after Name (with none, a single Age column from
 * creationTimestamp, as apiextensions serves by default); date cells hold the age text the
 * server computes. Built-in kinds use {@link builtinColumns}.
 */
import { goJsonMarshal } from '../../lib/go-json.js';
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

/**
 * A non-string value in a string column, as client-go's jsonpath `PrintResults` prints it: arrays
 * and objects as compact JSON (Go's `json.Marshal`: keys sorted, `<>&` escaped), anything else as
 * Go's `fmt.Print` of what apimachinery decoded: whole numbers are int64 (`100000000`), others
 * float64 in `%v`, i.e. `%g` with the shortest digits (`1.5`, `1e-05`, `1.2345675e+06`).
 */
function goPrint(value: JsonValue): string {
  if (Array.isArray(value) || isJsonObject(value)) return goJsonMarshal(value);
  if (typeof value === 'number') return goPrintNumber(value);
  return String(value);
}

/** `fmt.Print` of a decoded JSON number (see {@link goPrint}). */
export function goPrintNumber(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 2 ** 63) return BigInt(value).toString();
  const [mantissa = '', exponent = '0'] = value.toExponential().split('e');
  const exp = Number(exponent);
  // strconv's 'g' with the shortest digits: %e when exp < -4 or exp >= 6; exponent of two digits at least.
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
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
