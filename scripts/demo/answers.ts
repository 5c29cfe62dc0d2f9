/**
 * Final answers. Three phrasings ("styles") per situation: rollouts that share a style phrase the
 * answer almost identically (character 3-gram Jaccard well above 0.5), other styles do not.
 */
import { joinList, money, proseDay } from "./format.ts";
import type { Address, Order, Task } from "./model.ts";
import { addressText, orderTotal, refundPolicy } from "./orders.ts";
import { at } from "./rng.ts";

export type EmailNote = "none" | "sent" | "failed";

export const CLOSINGS = [
  "",
  "Is there anything else I can help you with?",
  "Let me know if there's anything else you need.",
  "Have a great day!",
  "Thanks for shopping with Harbor & Pine.",
];

export interface Voice {
  readonly style: number;
  readonly closing: number;
}

export function finish(v: Voice, body: string, email: EmailNote, to: string): string {
  const sep = v.style === 2 ? "\n\n" : " ";
  const parts = [body];
  if (email === "sent")
    parts.push(
      at(
        [
          "I've also emailed you a confirmation.",
          `I've sent a confirmation to ${to} as well.`,
          "A confirmation email is on its way to you.",
        ],
        v.style,
      ),
    );
  if (email === "failed")
    parts.push(
      "I wasn't able to send the confirmation email (our mail service is down), but the change itself went through.",
    );
  const closing = at(CLOSINGS, v.closing);
  if (closing !== "") parts.push(closing);
  return parts.join(sep);
}

function say(v: Voice, options: readonly string[]): string {
  return at(options, v.style % options.length);
}

export const ref = (o: Order): string => `#${o.id}`;
const itemNames = (o: Order): string => joinList(o.items.map((i) => i.name));

export function textRefundDone(
  t: Task,
  v: Voice,
  cents: number,
  refundId: string | null,
  email: EmailNote,
): string {
  const o = t.target;
  const m = money(cents);
  const item = t.item.name;
  return finish(
    v,
    say(v, [
      `I've refunded ${m} for the ${item} on order ${ref(o)}. It goes back to your ${o.payment} and should show up within 5-7 business days${refundId ? ` (refund ${refundId})` : ""}.`,
      `Thanks for your patience, ${t.customer.first}! I checked order ${ref(o)} and the ${item} qualifies for a refund, so I've processed ${m} back to your ${o.payment}. Refunds usually appear within 5-7 business days${refundId ? `; your reference is ${refundId}` : ""}.`,
      `All set. Here's a summary of your refund:\n\n- Order: ${ref(o)}\n- Item: ${item}\n- Amount: ${m}\n- Refunded to: ${o.payment}${refundId ? `\n- Reference: ${refundId}` : ""}\n- Timing: 5-7 business days`,
    ]),
    email,
    t.customer.email,
  );
}

export function textRefundDeclined(t: Task, v: Voice, email: EmailNote): string {
  const o = t.target;
  const p = refundPolicy(o, t.reason ?? "changed_mind");
  const delivered = proseDay(o.deliveredDay ?? 0);
  const ends = proseDay(p.windowEndDay ?? 0);
  return finish(
    v,
    say(v, [
      `I'm sorry, ${t.customer.first}, but the ${t.item.name} from order ${ref(o)} isn't eligible for a refund. It was delivered on ${delivered}, and the ${p.windowDays}-day return window closed on ${ends}.`,
      `Thanks for reaching out. I checked order ${ref(o)}: the ${t.item.name} was delivered on ${delivered}, so its ${p.windowDays}-day return window ended on ${ends} and I'm not able to issue a refund. If it develops a fault, our warranty team can still take a look.`,
      `Unfortunately I can't refund this one.\n\n- Order: ${ref(o)}\n- Item: ${t.item.name}\n- Delivered: ${delivered}\n- Return window ended: ${ends}\n\nI'm sorry I don't have better news.`,
    ]),
    email,
    t.customer.email,
  );
}

export function textCancelDone(t: Task, v: Voice, order: Order, email: EmailNote): string {
  const m = money(orderTotal(order));
  return finish(
    v,
    say(v, [
      `Order ${ref(order)} (${itemNames(order)}) is cancelled. You'll get ${m} back on your ${order.payment} within 3-5 business days.`,
      `No problem, ${t.customer.first}! I've cancelled order ${ref(order)} before it shipped. The full ${m} will be returned to your ${order.payment}, usually within 3-5 business days.`,
      `Your cancellation is complete:\n\n- Order: ${ref(order)}\n- Items: ${itemNames(order)}\n- Refund: ${m} to your ${order.payment}\n- Timing: 3-5 business days`,
    ]),
    email,
    t.customer.email,
  );
}

export function textShippedRefusal(t: Task, v: Voice, what: "cancel" | "address"): string {
  const o = t.target;
  const s = o.shipment ?? { carrier: "the carrier", tracking: "", etaDay: 0 };
  const eta = proseDay(s.etaDay);
  const to = addressText(t.newAddress ?? t.customer.address);
  const bodies =
    what === "cancel"
      ? [
          `I'm sorry, but order ${ref(o)} has already shipped, so it can't be cancelled anymore. It's with ${s.carrier} (tracking ${s.tracking}) and should arrive by ${eta}. Once it's delivered, you can return it within 30 days for a refund.`,
          `I looked into order ${ref(o)}: it already shipped with ${s.carrier} and is due on ${eta}, which means I'm no longer able to cancel it. After it arrives you can send it back within 30 days for a full refund. Your tracking number is ${s.tracking}.`,
          `Order ${ref(o)} has already shipped, so it can't be cancelled:\n\n- Carrier: ${s.carrier}\n- Tracking: ${s.tracking}\n- Expected: ${eta}\n\nOnce it's delivered, you can return it within 30 days for a refund.`,
        ]
      : [
          `I'm sorry, but order ${ref(o)} has already shipped, so I can't change its address anymore. It's with ${s.carrier} (tracking ${s.tracking}) and due ${eta}; you can ask ${s.carrier} to redirect it to ${to}.`,
          `I checked order ${ref(o)}, and unfortunately it already shipped with ${s.carrier}, so the address can't be changed on our side. Your best option is to request a delivery change with ${s.carrier} using tracking number ${s.tracking}. It's currently due on ${eta}.`,
          `Order ${ref(o)} has already shipped, so I can't update the address:\n\n- Carrier: ${s.carrier}\n- Tracking: ${s.tracking}\n- Expected: ${eta}\n\n${s.carrier} can usually redirect a package if you contact them with the tracking number.`,
        ];
  return finish(v, say(v, bodies), "none", t.customer.email);
}

export function textAddressDone(
  t: Task,
  v: Voice,
  order: Order,
  to: Address,
  email: EmailNote,
): string {
  const a = addressText(to);
  return finish(
    v,
    say(v, [
      `Done! I've changed the shipping address on order ${ref(order)}, so it will now go to ${a}. Nothing else on the order has changed.`,
      `Congrats on the move, ${t.customer.first}! I've updated the shipping address on order ${ref(order)} to ${a}. It hasn't left the warehouse yet, so it will go straight to your new place.`,
      `Your shipping address is updated:\n\n- Order: ${ref(order)}\n- New address: ${a}\n- Status: processing, ships by ${proseDay(order.shipByDay ?? 1)}`,
    ]),
    email,
    t.customer.email,
  );
}

export function textStatus(t: Task, v: Voice, o: Order): string {
  const first = t.customer.first;
  let bodies: string[];
  if (o.status === "processing") {
    const by = proseDay(o.shipByDay ?? 1);
    bodies = [
      `Your order ${ref(o)} (${itemNames(o)}) hasn't shipped yet; it's being prepared at our warehouse and is scheduled to ship by ${by}. You'll get a tracking number by email as soon as it leaves.`,
      `Thanks for checking in, ${first}. Order ${ref(o)} is still processing and should ship by ${by}. Once it's on its way, we'll email you the tracking number.`,
      `Here's the latest on order ${ref(o)}:\n\n- Status: processing\n- Ships by: ${by}\n- Tracking: emailed once it ships`,
    ];
  } else {
    const s = o.shipment ?? { carrier: "the carrier", tracking: "", etaDay: 0 };
    if (o.status === "delivered") {
      const on = proseDay(o.deliveredDay ?? 0);
      const a = addressText(o.address);
      bodies = [
        `Our records show order ${ref(o)} (${itemNames(o)}) was delivered on ${on} to ${a}. If you can't find it, please check with neighbours or your building's mail room.`,
        `I checked order ${ref(o)}, ${first}: ${s.carrier} marked it as delivered on ${on} at ${a} (tracking ${s.tracking}). If it isn't there, let us know and we'll open a carrier investigation.`,
        `Here's the latest on order ${ref(o)}:\n\n- Status: delivered\n- Delivered on: ${on}\n- Carrier: ${s.carrier} (${s.tracking})\n- Address: ${a}`,
      ];
    } else {
      const eta = proseDay(s.etaDay);
      bodies = [
        `Your order ${ref(o)} (${itemNames(o)}) shipped with ${s.carrier} and is on its way. Tracking number: ${s.tracking}. It should arrive by ${eta}.`,
        `Good news, ${first}! Order ${ref(o)} is in transit with ${s.carrier} and is expected on ${eta}. You can follow it with tracking number ${s.tracking}.`,
        `Here's the latest on order ${ref(o)}:\n\n- Status: shipped\n- Carrier: ${s.carrier}\n- Tracking: ${s.tracking}\n- Expected delivery: ${eta}`,
      ];
    }
  }
  return finish(v, say(v, bodies), "none", t.customer.email);
}

export function textAskOrderNumber(t: Task, v: Voice, sawAccount: boolean): string {
  return finish(
    v,
    sawAccount
      ? `I found your account, ${t.customer.first}, but I want to be sure I act on the right order. Could you confirm the order number for the ${t.item.name}? It's in your order confirmation email.`
      : say(v, [
          `Thanks for reaching out! To help with this I'll need your order number. You'll find it in your order confirmation email. Once you send it over, I'll take care of it right away.`,
          `I'd be happy to help, ${t.customer.first}. Could you share the order number from your confirmation email so I can make sure I'm looking at the right order?`,
        ]),
    "none",
    t.customer.email,
  );
}
