import type { Requester } from "./requester.ts";

/** Base of every API resource: holds the client's requester, nothing else. */
export abstract class ApiResource {
  protected readonly requester: Requester;

  constructor(requester: Requester) {
    this.requester = requester;
  }
}
