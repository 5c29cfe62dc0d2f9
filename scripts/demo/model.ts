/** The demo's data model: JSON values, the shop's customers and orders, and a support task. */

export type Json =
  null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };
export type JsonObject = { readonly [key: string]: Json };

export interface Address {
  readonly line1: string;
  readonly city: string;
  readonly state: string;
  readonly zip: string;
}

export interface LineItem {
  readonly sku: string;
  readonly name: string;
  readonly cents: number;
}

export type OrderStatus = "processing" | "shipped" | "delivered";

export interface Shipment {
  readonly carrier: string;
  readonly tracking: string;
  readonly etaDay: number;
}

export interface Order {
  readonly id: string;
  readonly status: OrderStatus;
  readonly placedDay: number;
  readonly shipByDay: number | null;
  readonly deliveredDay: number | null;
  readonly items: readonly LineItem[];
  readonly payment: string;
  readonly address: Address;
  readonly shipment: Shipment | null;
}

export interface Customer {
  readonly id: string;
  readonly first: string;
  readonly last: string;
  readonly email: string;
  readonly phone: string;
  readonly address: Address;
}

export type Scenario = "order_status" | "refund" | "cancellation" | "address_change";
export type RefundReason = "defective" | "damaged" | "changed_mind";

export interface Task {
  readonly scenario: Scenario;
  /** refund: eligible | ineligible; cancellation and address_change: processing | shipped; order_status: the status. */
  readonly variant: string;
  readonly customer: Customer;
  /** Most recent first, as get_customer lists them. */
  readonly orders: readonly Order[];
  readonly target: Order;
  /** Another order of the same customer that a careless agent may act on; placed after the target. */
  readonly decoy: Order | null;
  /** The item the customer writes about (the target's first item). */
  readonly item: LineItem;
  readonly gaveId: boolean;
  readonly reason: RefundReason | null;
  readonly cancelReason: string;
  readonly newAddress: Address | null;
  readonly user: string;
}
