/**
 * A support ticket: the customer, their orders, what they ask for and how they write it, and the
 * system prompt (the shop's policy) every rollout starts from.
 */
import { DAY_MS, isoDay, MONTHS, proseDay, TODAY_UTC } from "./format.ts";
import type { Customer, Order, OrderStatus, RefundReason, Scenario, Task } from "./model.ts";
import {
  addressText,
  FIRST_NAMES,
  LAST_NAMES,
  makeAddress,
  makeOrder,
  pickItems,
} from "./orders.ts";
import { at, type Rng } from "./rng.ts";

const CANCEL_REASONS: readonly (readonly [string, string])[] = [
  ["ordered by mistake", "I ordered it by mistake"],
  ["found a better price", "I found it cheaper elsewhere"],
  ["ordered the wrong model", "I ordered the wrong model"],
  ["no longer needed", "I don't need it anymore"],
];

const REASON_TEXT: Record<RefundReason, readonly string[]> = {
  defective: [
    "It stopped working properly after a couple of days.",
    "It's faulty and doesn't work the way it should.",
  ],
  damaged: [
    "It arrived damaged; the box was crushed and it's cracked.",
    "It came with a big dent and a broken part.",
  ],
  changed_mind: [
    "I changed my mind, and it's still unused in the box.",
    "It's not what I expected, and I haven't used it.",
  ],
};

export function makeTask(rng: Rng, scenario: Scenario): Task {
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  const customer: Customer = {
    id: `C${rng.int(1, 9)}${rng.digits(5)}`,
    first,
    last,
    email: `${first.toLowerCase()}.${last.toLowerCase()}${rng.chance(0.4) ? rng.int(2, 98) : ""}@example.com`,
    phone: `+1-555-${rng.digits(3)}-${rng.digits(4)}`,
    address: makeAddress(rng),
  };
  const payment = rng.pick([
    `Visa ending in ${rng.digits(4)}`,
    `Mastercard ending in ${rng.digits(4)}`,
    `American Express ending in ${rng.digits(4)}`,
    "PayPal account",
  ]);
  const gaveId = rng.chance(0.45);
  const targetItems = pickItems(rng, rng.chance(0.4) ? rng.int(2, 3) : 1);
  const item = at(targetItems, 0);
  let variant: string;
  let target: Order;
  let reason: RefundReason | null = null;
  const decoyStatus = (): OrderStatus => rng.pick<OrderStatus>(["processing", "shipped"]);
  let decoy: Order | null = null;

  if (scenario === "refund") {
    variant = rng.chance(0.7) ? "eligible" : "ineligible";
    if (variant === "eligible") {
      reason = rng.pick<RefundReason>(["defective", "damaged", "changed_mind"]);
      const delivered = reason === "changed_mind" ? -rng.int(3, 27) : -rng.int(5, 70);
      target = makeOrder(
        rng,
        "delivered",
        delivered - rng.int(3, 8),
        targetItems,
        customer,
        payment,
        delivered,
      );
    } else {
      reason = rng.pick<RefundReason>(["changed_mind", "changed_mind", "defective"]);
      const delivered = reason === "changed_mind" ? -rng.int(36, 70) : -rng.int(96, 130);
      target = makeOrder(
        rng,
        "delivered",
        delivered - rng.int(3, 8),
        targetItems,
        customer,
        payment,
        delivered,
      );
    }
    if (rng.chance(0.5)) {
      const d = -rng.int(1, 2);
      decoy = makeOrder(rng, decoyStatus(), d, pickItems(rng, 1, targetItems), customer, payment);
    }
  } else if (scenario === "cancellation" || scenario === "address_change") {
    const status: OrderStatus = rng.chance(0.7) ? "processing" : "shipped";
    variant = status;
    const placed = status === "processing" ? -rng.int(1, 2) : -rng.int(2, 4);
    target = makeOrder(rng, status, placed, targetItems, customer, payment);
    if (rng.chance(0.55))
      decoy = makeOrder(
        rng,
        "processing",
        placed + 1 > 0 ? 0 : placed + 1,
        pickItems(rng, 1, targetItems),
        customer,
        payment,
      );
  } else {
    const status = rng.pick<OrderStatus>(["shipped", "shipped", "processing", "delivered"]);
    variant = status;
    const placed = status === "processing" ? -rng.int(2, 3) : -rng.int(4, 9);
    const delivered = status === "delivered" ? placed + rng.int(2, 3) : null;
    target = makeOrder(rng, status, placed, targetItems, customer, payment, delivered);
    if (rng.chance(0.55)) {
      const other: OrderStatus = status === "processing" ? "shipped" : "processing";
      decoy = makeOrder(rng, other, placed + 1, pickItems(rng, 1, targetItems), customer, payment);
    }
  }
  const older: Order[] = [];
  if (rng.chance(0.4)) {
    const delivered = -rng.int(120, 300);
    older.push(
      makeOrder(
        rng,
        "delivered",
        delivered - rng.int(3, 6),
        pickItems(rng, 1, targetItems),
        customer,
        payment,
        delivered,
      ),
    );
  }
  const orders = [...(decoy ? [decoy] : []), target, ...older].sort(
    (a, b) => b.placedDay - a.placedDay,
  );
  const [cancelReason, cancelText] = rng.pick(CANCEL_REASONS);
  const newAddress = scenario === "address_change" ? makeAddress(rng) : null;
  const t = {
    scenario,
    variant,
    customer,
    orders,
    target,
    decoy,
    item,
    gaveId,
    reason,
    cancelReason,
    newAddress,
  };
  return { ...t, user: userMessage(rng, t, cancelText) };
}

function userMessage(rng: Rng, t: Omit<Task, "user">, cancelText: string): string {
  const { email } = t.customer;
  const id = `#${t.target.id}`;
  const item = t.item.name;
  const placed = proseDay(t.target.placedDay);
  switch (t.scenario) {
    case "refund": {
      const why = rng.pick(REASON_TEXT[t.reason ?? "changed_mind"]);
      return t.gaveId
        ? rng.pick([
            `Hi, I'd like a refund for the ${item} from order ${id}. ${why} My email is ${email}.`,
            `Hello, about order ${id}: ${why} Can I send the ${item} back and get my money back? Account email: ${email}`,
          ])
        : rng.pick([
            `Hi, I bought a ${item} from you and I'd like a refund please. ${why} My email is ${email}.`,
            `Hello, I want to return the ${item} I ordered back in ${at(MONTHS, new Date(TODAY_UTC + t.target.placedDay * DAY_MS).getUTCMonth())}. ${why} The account is under ${email}.`,
          ]);
    }
    case "cancellation":
      return t.gaveId
        ? rng.pick([
            `Please cancel order ${id}. ${cancelText}. The email on the account is ${email}.`,
            `Hi, can you cancel ${id} (the ${item})? ${cancelText}. My email: ${email}`,
          ])
        : rng.pick([
            `Hi, I need to cancel my order for the ${item}; I placed it on ${placed}. ${cancelText}. My email is ${email}.`,
            `Can you cancel the ${item} I ordered? ${cancelText}. Account: ${email}`,
          ]);
    case "address_change": {
      const to = addressText(t.newAddress ?? t.customer.address);
      return t.gaveId
        ? rng.pick([
            `Hi! I just moved. Can you ship order ${id} to my new address instead: ${to}? My email is ${email}.`,
            `Please change the delivery address on ${id} to ${to}. Email on file: ${email}`,
          ])
        : rng.pick([
            `I moved last week and my ${item} is going to the old place. Please send it to ${to} instead. Email: ${email}`,
            `Hello, I ordered a ${item} on ${placed} but I've since moved. New address: ${to}. Can you update the order? My email is ${email}.`,
          ]);
    }
    case "order_status":
      return t.gaveId
        ? rng.pick([
            `Hi, can you tell me where order ${id} is? I'd like the tracking number or a delivery date. My email is ${email}.`,
            `Any update on ${id}? It's been a few days. Account email: ${email}`,
          ])
        : rng.pick([
            `Hello, I ordered a ${item} on ${placed} and I'm not sure where it is. Can you give me a status update or a tracking number? My email is ${email}.`,
            `Where is my ${item}? I haven't heard anything since I ordered it. Email: ${email}`,
          ]);
  }
}

export const POLICY = `You are the customer support agent for Harbor & Pine, an online home and lifestyle store. Today is ${isoDay(0)}.

Tools: get_customer, get_order, check_refund_policy, refund_order, cancel_order, update_address, send_email.

Policy:
1. Find the customer's account by the email they give. Only act on orders that belong to that account.
2. Get order ids, amounts, statuses and tracking numbers from the tools. Never guess them.
3. Refunds: call check_refund_policy before refund_order, and refund only the item the customer asks about, at the amount the policy check allows. Issue each refund once.
4. Cancellations: only orders that are still "processing" can be cancelled. A shipped order can be returned after delivery.
5. Address changes: only for orders that have not shipped.
6. Tell the customer exactly what you did, with the order id and any amounts. Do not claim an action or an email that did not succeed.

The customer cannot reply in this conversation: resolve the request in one go.`;
