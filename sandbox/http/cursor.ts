import { DateTimeSchema, UuidSchema } from "../../sdk/contract/index.ts";

/** Position in a newest-first list: the last item's `createdAt` and `id` (spec 4.5: `created_at|id`). */
export interface Cursor {
  createdAt: string;
  id: string;
}

export function encodeCursor(item: { createdAt: string; id: string }): string {
  return `${item.createdAt}|${item.id}`;
}

/** Null for anything that is not `<ISO date-time>|<uuid>`. */
export function decodeCursor(token: string): Cursor | null {
  const parts = token.split("|");
  if (parts.length !== 2) return null;
  const [createdAt = "", id = ""] = parts;
  if (!DateTimeSchema.safeParse(createdAt).success || !UuidSchema.safeParse(id).success) return null;
  return { createdAt, id };
}

/**
 * The SQL condition selecting rows after the cursor in `created_at DESC, id DESC` order, with its
 * parameters. Timestamps are fixed-width ISO strings, so string comparison is time order.
 */
export function afterCursorSql(cursor: Cursor | null): { sql: string; params: string[] } {
  if (cursor === null) return { sql: "1 = 1", params: [] };
  return {
    sql: "(created_at < ? OR (created_at = ? AND id < ?))",
    params: [cursor.createdAt, cursor.createdAt, cursor.id],
  };
}

/** Cuts a page from `pageSize + 1` fetched rows: the extra row only tells whether a next page exists. */
export function pageFrom<T extends { createdAt: string; id: string }>(
  rows: T[],
  pageSize: number,
): { data: T[]; pageSize: number; nextCursor: string | null } {
  const data = rows.slice(0, pageSize);
  const last = data.at(-1);
  return {
    data,
    pageSize,
    nextCursor: rows.length > pageSize && last !== undefined ? encodeCursor(last) : null,
  };
}
