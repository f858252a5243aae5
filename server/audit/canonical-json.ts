// Canonical JSON for the audit chain's hashes: one text per value, whatever the order its keys were
// built in or the database handed them back. Object keys are sorted by UTF-16 code units, no white
// space, strings and numbers written as JSON.stringify writes them (the JSON Canonicalization Scheme,
// RFC 8785, for the values the audit trail holds). Keys whose value is undefined are left out, as in
// JSON.stringify; dates become their ISO text. NaN, Infinity, bigints and functions are refused rather
// than silently written as something else.

export function canonicalJson(value: unknown): string {
  return write(value, 'value');
}

function write(value: unknown, path: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${path} is not a finite number`);
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      throw new TypeError(`canonicalJson: ${path} is a ${typeof value}`);
  }
  const withJson = value as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === 'function') return write(withJson.toJSON(), path);
  if (Array.isArray(value)) {
    // As in JSON.stringify, an undefined element is written as null (the array keeps its length).
    return `[${value.map((v: unknown, i) => (v === undefined ? 'null' : write(v, `${path}[${i}]`))).join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const v = record[key];
    if (v === undefined) continue;
    parts.push(`${JSON.stringify(key)}:${write(v, `${path}.${key}`)}`);
  }
  return `{${parts.join(',')}}`;
}
