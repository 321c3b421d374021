import type { Page } from "../../contract/index.ts";
import { PortfolioWalletError } from "./errors.ts";

/** Fetches the page that starts at `cursor` (the first page when undefined). */
export type PageFetcher<T> = (cursor: string | undefined) => Promise<Page<T>>;

/**
 * One page of a cursor-paginated list (`{ data, pageSize, nextCursor }`). Iterating a page with
 * `for await` yields its items and then those of every following page.
 */
export class CursorPage<T> implements AsyncIterable<T> {
  /** The items of this page, newest first. */
  readonly data: T[];
  /** The page size the service applied. */
  readonly pageSize: number;
  /** Cursor of the next page; null on the last page. */
  readonly nextCursor: string | null;
  readonly #fetchPage: PageFetcher<T>;

  constructor(page: Page<T>, fetchPage: PageFetcher<T>) {
    this.data = page.data;
    this.pageSize = page.pageSize;
    this.nextCursor = page.nextCursor;
    this.#fetchPage = fetchPage;
  }

  /** True unless this is the last page. */
  hasNextPage(): boolean {
    return this.nextCursor !== null;
  }

  /** The following page, or null after the last one. */
  async getNextPage(): Promise<CursorPage<T> | null> {
    if (this.nextCursor === null) return null;
    const next = await this.#fetchPage(this.nextCursor);
    // A service that answers with the cursor it was given would make iteration endless.
    if (next.nextCursor !== null && next.nextCursor === this.nextCursor) {
      throw new PortfolioWalletError(
        `The service returned the cursor "${this.nextCursor}" for the page it starts; stopping to avoid an endless loop. Report this to the service.`,
      );
    }
    return new CursorPage(next, this.#fetchPage);
  }

  /** This page and every page after it. */
  async *iterPages(): AsyncGenerator<CursorPage<T>, void, undefined> {
    yield this;
    for (let page = await this.getNextPage(); page !== null; page = await page.getNextPage()) yield page;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.iterPages()) yield* page.data;
  }
}

/**
 * What a `list()` method returns: `await` it for the first page, or `for await` it for every
 * item across all pages. Nothing is fetched until one of the two happens.
 */
export class PagePromise<T> implements Promise<CursorPage<T>>, AsyncIterable<T> {
  readonly [Symbol.toStringTag] = "PagePromise";
  readonly #fetchPage: PageFetcher<T>;
  #firstPage: Promise<CursorPage<T>> | undefined;

  constructor(fetchPage: PageFetcher<T>) {
    this.#fetchPage = fetchPage;
  }

  #first(): Promise<CursorPage<T>> {
    this.#firstPage ??= this.#fetchPage(undefined).then((page) => new CursorPage(page, this.#fetchPage));
    return this.#firstPage;
  }

  then<R1 = CursorPage<T>, R2 = never>(
    onFulfilled?: ((page: CursorPage<T>) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#first().then(onFulfilled, onRejected);
  }

  catch<R = never>(
    onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null,
  ): Promise<CursorPage<T> | R> {
    return this.#first().catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<CursorPage<T>> {
    return this.#first().finally(onFinally);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    const first = await this;
    yield* first;
  }
}
