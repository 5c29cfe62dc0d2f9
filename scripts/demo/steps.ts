/** The tool steps the scenarios' strategies share: look up the account and orders, check, refund, email. */
import type { EmailNote } from "./answers.ts";
import { amount } from "./format.ts";
import type { JsonObject, Order, Task } from "./model.ts";
import type { Session } from "./session.ts";

const orderArgs = (o: Order): JsonObject => ({ order_id: o.id });

export function getCustomer(s: Session, t: Task): JsonObject {
  return s.call("get_customer", { email: t.customer.email });
}

/** Find the account when the customer gave no order id; every honest strategy starts here. */
export function locate(s: Session, t: Task): void {
  if (!t.gaveId) getCustomer(s, t);
}

export function getOrder(s: Session, o: Order): JsonObject {
  return s.call("get_order", orderArgs(o));
}

export function checkPolicy(s: Session, t: Task, o: Order = t.target): JsonObject {
  return s.call("check_refund_policy", { order_id: o.id, reason: t.reason ?? "changed_mind" });
}

export function refund(
  s: Session,
  t: Task,
  cents: number,
  o: Order = t.target,
  preface?: string,
): JsonObject {
  return s.call(
    "refund_order",
    { order_id: o.id, amount: amount(cents), reason: t.reason ?? "changed_mind" },
    preface,
  );
}

/** Sends the confirmation email; what the answer may say about it depends on the result. */
export function sendEmail(s: Session, t: Task, subject: string, body: string): EmailNote {
  const r = s.call("send_email", { to: t.customer.email, subject, body });
  return "error" in r ? "failed" : "sent";
}

/** The account, then every recent order at once (parallel calls): thorough, and longer. */
export function exhaustiveLookup(s: Session, t: Task): void {
  getCustomer(s, t);
  const recent = t.orders.filter((o) => o.status !== "delivered" || o === t.target);
  s.parallel(
    recent.map((o) => ["get_order", orderArgs(o)] as const),
    recent.length > 1 ? "Let me open each of your recent orders to find the right one." : undefined,
  );
}
