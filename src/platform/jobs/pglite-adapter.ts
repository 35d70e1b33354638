import type { PGlite } from '@electric-sql/pglite';

/**
 * pg-boss's `db` option over PGlite. pg-boss sends its schema and migration scripts as several
 * statements without parameters: those go through exec() (simple protocol), answering the last
 * statement's rows; parameterised statements go through query() (extended protocol).
 */
export function pgliteExecutor(pglite: PGlite) {
  return {
    async executeSql(text: string, values: unknown[] = []): Promise<{ rows: unknown[] }> {
      if (values.length === 0) {
        const results = await pglite.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      }
      const result = await pglite.query(text, values);
      return { rows: result.rows };
    },
  };
}
