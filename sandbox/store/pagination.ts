/** Position in a newest-first list: the last item's `createdAt` and `id` (spec 4.5: `created_at|id`). */
export interface Cursor {
  createdAt: string;
  id: string;
}

/**
 * The SQL condition selecting rows after the cursor in `created_at DESC, id DESC` order, with its
 * parameters. Timestamps are fixed-width ISO strings, so string comparison is time order.
 */
export function afterCursorSql(cursor: Cursor | null): { sql: string; params: string[] } {
  if (cursor === null) return { sql: "1 = 1", params: [] };
  // A row value, so that SQLite seeks the index straight to the cursor: an OR of the two
  // comparisons would read every row before it, and a deep page would cost its depth.
  return { sql: "(created_at, id) < (?, ?)", params: [cursor.createdAt, cursor.id] };
}
