/**
 * The entry point of the serialized provider of version 0.1.0, which resolved
 * `@portfolio-wallet/pulumi/provider/dispatch` and called `dispatch(kind, method, args)`. Stacks
 * whose state was written then still carry that `__provider` until their next `up`, and a refresh
 * or a destroy before it runs the old one: this keeps them working.
 */
export { callProviderOf as dispatch } from "./implementation.ts";
