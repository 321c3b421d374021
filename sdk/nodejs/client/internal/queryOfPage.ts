import type { PageQuery } from "../../contract/index.ts";

/** The query of one page: the caller's filters plus the cursor of that page. */
export function queryOfPage(query: PageQuery | undefined, cursor: string | undefined): PageQuery {
  return { pageSize: query?.pageSize, cursor: cursor ?? query?.cursor };
}
