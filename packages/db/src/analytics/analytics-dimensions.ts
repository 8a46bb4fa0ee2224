import type { Sql } from "../sql.ts";

export interface AnalyticsDimensions {
  types: string[];
  templates: Array<{ key: string; version: number }>;
  broadcasts: Array<{ id: string; name: string }>;
}

/** The values the rollup holds for each filter, for the dashboard's pickers. */
export async function listAnalyticsDimensions(sql: Sql): Promise<AnalyticsDimensions> {
  const [types, templates, broadcasts] = await Promise.all([
    sql.query<{ type: string }>("SELECT DISTINCT type FROM herald.analytics_daily ORDER BY type LIMIT 500"),
    sql.query<{ key: string; version: number }>(
      `SELECT DISTINCT template_key AS key, template_version AS version FROM herald.analytics_daily
        WHERE template_key <> '' ORDER BY 1, 2 LIMIT 500`,
    ),
    sql.query<{ id: string; name: string }>(
      `SELECT b.id::text, b.name FROM herald.broadcasts b
        WHERE EXISTS (SELECT 1 FROM herald.analytics_daily a WHERE a.broadcast_id = b.id)
        ORDER BY b.created_at DESC LIMIT 500`,
    ),
  ]);
  return { types: types.rows.map((r) => r.type), templates: templates.rows, broadcasts: broadcasts.rows };
}
