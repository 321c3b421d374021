import { randomUUID } from "node:crypto";
import type { SandboxContext } from "../http/context.ts";
import { NotFoundError } from "../domain/errors.ts";
import { HttpError } from "../http/errors.ts";
import { created, ok } from "../http/operationRoutes.ts";
import type { AdminRoutes } from "../routes/adminHandlers.ts";
import { PublicKeySchema } from "../routes/adminRequestSchemas.ts";
import { publicKeyFromCompressedHex, StampError } from "./stamp.ts";
import {
  deleteApproverKey,
  listApproverKeys,
  upsertApproverKey,
  type ApproverKeyRecord,
} from "../store/signingProviderStore.ts";

const keyView = (key: ApproverKeyRecord) => ({
  organizationId: key.organizationId,
  publicKey: key.publicKey,
  userId: key.userId,
  userName: key.userName,
  createdAt: key.createdAt,
});

/**
 * Sandbox-only admin API of the signing provider (`/_sandbox/signing/...`, docs/approvals.md):
 * registers the API public keys that may approve or reject the caller's organization's signing
 * activities. The number of approvals needed is the organization's policy (`PUT /_sandbox/policy`).
 * Operations of the admin table (sandbox/routes/adminOperations.ts).
 */
export function signingAdminRoutes(ctx: SandboxContext) {
  return {
    sandboxListApproverKeys: (_input, org) => ok({ data: listApproverKeys(ctx.db, org).map(keyView) }),

    sandboxRegisterApproverKey: ({ body }, org) => {
      try {
        publicKeyFromCompressedHex(body.publicKey);
      } catch (error) {
        if (!(error instanceof StampError)) throw error;
        throw HttpError.validation([{ field: "publicKey", reason: "is not a point on the P-256 curve" }]);
      }
      const userId = randomUUID();
      const { key, created: isNew } = upsertApproverKey(ctx.db, {
        organizationId: org,
        publicKey: body.publicKey,
        userId,
        userName: body.userName ?? `approver ${userId.slice(0, 8)}`,
        createdAt: ctx.clocks.now(org).toISOString(),
      });
      return created(keyView(key), !isNew);
    },

    // The document says only "not empty"; the key's form is checked here, with its own wording.
    sandboxDeleteApproverKey: ({ path }, org) => {
      const parsed = PublicKeySchema.safeParse(path.publicKey);
      if (!parsed.success)
        throw HttpError.validation(
          [{ field: "publicKey", reason: parsed.error.issues[0]?.message ?? "is invalid" }],
          "invalid path parameter",
        );
      if (!deleteApproverKey(ctx.db, org, parsed.data))
        throw new NotFoundError(`approver API key ${parsed.data}`);
      return { status: 204 };
    },
  } satisfies Partial<AdminRoutes>;
}
