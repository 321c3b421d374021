import {
  SERVICE_OPERATIONS_BY_ID,
  type ListItemOf,
  type PageQuery,
  type RequestBodyOf,
  type SuccessBodyOf,
} from "../../contract/index.ts";
import { PagePromise } from "../core/pagination.ts";
import type { RequestOptions } from "../core/requester.ts";
import { ApiResource } from "../core/resource.ts";
import { queryOfPage } from "../internal/queryOfPage.ts";
import { pathSegment } from "../internal/pathSegment.ts";

const {
  createWebhookRegistration,
  getWebhookRegistration,
  listWebhookRegistrations,
  updateWebhookRegistrationStatus,
  deleteWebhookRegistration,
} = SERVICE_OPERATIONS_BY_ID;
type Create = typeof createWebhookRegistration;
type Retrieve = typeof getWebhookRegistration;
type List = typeof listWebhookRegistrations;
type UpdateStatus = typeof updateWebhookRegistrationStatus;

const registration = (registrationId: string) => ({
  registrationId: pathSegment("registrationId", registrationId),
});

/** Webhook registrations (spec 4.13; listing and deletion per docs/spec-gaps.md). */
export class WebhookRegistrations extends ApiResource {
  /**
   * Subscribes a URL to event types (POST /webhooks/registrations). The answer carries the
   * signing `secret`, returned this once only. Retried only when `body.requestId` is set.
   */
  async create(body: RequestBodyOf<Create>, options?: RequestOptions): Promise<SuccessBodyOf<Create>> {
    return this.requester.send(createWebhookRegistration, { body, options });
  }

  /** Reads one registration (GET /webhooks/registrations/{id}). */
  async retrieve(registrationId: string, options?: RequestOptions): Promise<SuccessBodyOf<Retrieve>> {
    return this.requester.send(getWebhookRegistration, { path: registration(registrationId), options });
  }

  /** Lists registrations, newest first (GET /webhooks/registrations). */
  list(query?: PageQuery, options?: RequestOptions): PagePromise<ListItemOf<List>> {
    return new PagePromise((cursor) =>
      this.requester.send(listWebhookRegistrations, { query: queryOfPage(query, cursor), options }),
    );
  }

  /** Activates or disables a registration (PATCH /webhooks/registrations/{id}/status). */
  async updateStatus(
    registrationId: string,
    body: RequestBodyOf<UpdateStatus>,
    options?: RequestOptions,
  ): Promise<SuccessBodyOf<UpdateStatus>> {
    const path = registration(registrationId);
    return this.requester.send(updateWebhookRegistrationStatus, { path, body, options });
  }

  /** Deletes a registration (DELETE /webhooks/registrations/{id}, 204). Not retried: no requestId. */
  async delete(registrationId: string, options?: RequestOptions): Promise<void> {
    await this.requester.send(deleteWebhookRegistration, { path: registration(registrationId), options });
  }
}
