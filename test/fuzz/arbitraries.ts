import fc from 'fast-check';

/** A JSON Schema node as @fastify/swagger emits it (the subset the generator understands). */
export interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  enum?: unknown[];
  const?: unknown;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
  pattern?: string;
  $ref?: string;
}

/** Values that break naive code: edge numbers, odd strings, wrong types. */
export const hostileValue = fc.oneof(
  fc.constantFrom(
    null,
    '',
    ' ',
    '0',
    '-1',
    'NaN',
    'null',
    'undefined',
    '../../etc/passwd',
    '%00',
    "' or 1=1 --",
    '<script>alert(1)</script>',
    '💥'.repeat(50),
    'a'.repeat(5000),
    -1,
    0,
    1e308,
    -1e308,
    2 ** 53 + 1,
    0.5,
    true,
    [],
    {},
    '00000000-0000-0000-0000-000000000000',
    '2026-02-30',
    '2026-11-23',
  ),
  fc.anything({ maxDepth: 2 }),
);

/** Mostly schema-shaped values with hostile values mixed in at every level. */
export function valueFor(schema: SchemaNode | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return hostileValue;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return fc.oneof(...variants.map((v) => valueFor(v, depth + 1)));
  if (schema.enum)
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...schema.enum) },
      { weight: 1, arbitrary: hostileValue },
    );
  if (schema.const !== undefined) return fc.oneof(fc.constant(schema.const), hostileValue);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  const shaped = shapedValue(schema, type, depth);
  return fc.oneof({ weight: 4, arbitrary: shaped }, { weight: 1, arbitrary: hostileValue });
}

function shapedValue(schema: SchemaNode, type: string | undefined, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'object': {
      const entries = Object.entries(schema.properties ?? {});
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, child] of entries) record[key] = valueFor(child, depth + 1);
      return fc.record(record, { requiredKeys: [] });
    }
    case 'array':
      return fc.array(valueFor(schema.items, depth + 1), { maxLength: 5 });
    case 'integer':
      return fc.oneof(
        fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 }),
        fc.integer(),
        fc.constantFrom(schema.minimum ?? 0, schema.maximum ?? 0),
      );
    case 'number':
      return fc.oneof(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.integer({ min: -10, max: 1000 }),
      );
    case 'boolean':
      return fc.boolean();
    case 'string':
      if (schema.format === 'uuid') return fc.oneof(fc.uuid(), fc.string());
      if (schema.format === 'date' || schema.pattern?.includes('\\d{4}')) {
        return fc.oneof(
          fc
            .date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
            .map((d) => d.toISOString().slice(0, 10)),
          fc.string(),
        );
      }
      if (schema.format === 'uri' || schema.format === 'url') return fc.oneof(fc.webUrl(), fc.string());
      if (schema.format === 'email') return fc.oneof(fc.emailAddress(), fc.string());
      return fc.string({
        minLength: schema.minLength ?? 0,
        maxLength: Math.min(schema.maxLength ?? 40, 200),
      });
    default:
      return hostileValue;
  }
}

/** Path parameters: real ids of seeded resources, valid-looking ids, integers and traversal attempts. */
export const pathParamWith = (realIds: string[]) =>
  realIds.length
    ? fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...realIds) }, { weight: 3, arbitrary: pathParam })
    : pathParam;

export const pathParam = fc.oneof(
  fc.uuid(),
  fc.integer({ min: -5, max: 100000 }).map(String),
  fc.constantFrom(
    '..',
    '%2e%2e',
    'not-an-id',
    'x'.repeat(300),
    '00000000-0000-0000-0000-000000000000',
    '1e3',
    '%00',
  ),
  fc.string({ minLength: 1, maxLength: 20 }).map(encodeURIComponent),
);
