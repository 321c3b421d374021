import { DateTimeSchema, UuidSchema, type Page } from "../../sdk/nodejs/contract/index.ts";
import type { Cursor } from "../store/pagination.ts";

export type { Cursor } from "../store/pagination.ts";

/** Which page of a newest-first list a request asks for. */
export interface PageRequest {
  pageSize: number;
  /** Null for the first page. */
  cursor: Cursor | null;
}

/** The `nextCursor` token of a page ending with `item`: `<createdAt>|<id>`. */
export function encodeCursor(item: { createdAt: string; id: string }): string {
  return `${item.createdAt}|${item.id}`;
}

/** The position a `nextCursor` token stands for; null for anything that is not `<ISO date-time>|<uuid>`. */
export function decodeCursor(token: string): Cursor | null {
  const parts = token.split("|");
  if (parts.length !== 2) return null;
  const [createdAt = "", id = ""] = parts;
  if (!DateTimeSchema.safeParse(createdAt).success || !UuidSchema.safeParse(id).success) return null;
  return { createdAt, id };
}

/** Cuts a page from `pageSize + 1` fetched rows: the extra row only tells whether a next page exists. */
export function pageFrom<T extends { createdAt: string; id: string }>(rows: T[], pageSize: number): Page<T> {
  const data = rows.slice(0, pageSize);
  const last = data.at(-1);
  return {
    data,
    pageSize,
    nextCursor: rows.length > pageSize && last !== undefined ? encodeCursor(last) : null,
  };
}
