/**
 * The shop's catalogue, customers' addresses, orders and the refund policy (which the shop enforces
 * through check_refund_policy and the verifier through `policy`).
 */
import type {
  Address,
  Customer,
  JsonObject,
  LineItem,
  Order,
  OrderStatus,
  Shipment,
} from "./model.ts";
import type { Rng } from "./rng.ts";

const CATALOG: readonly LineItem[] = [
  { sku: "CHR-ERGO-BLK", name: "ergonomic office chair", cents: 24900 },
  { sku: "DSK-STAND-48", name: "standing desk", cents: 39900 },
  { sku: "HP-NC700", name: "pair of noise-cancelling headphones", cents: 17999 },
  { sku: "ESP-BARISTA-2", name: "espresso machine", cents: 32900 },
  { sku: "SHO-TRAIL-M10", name: "pair of trail running shoes", cents: 12995 },
  { sku: "KB-MECH-TKL", name: "mechanical keyboard", cents: 11900 },
  { sku: "SKL-CI-12", name: "cast-iron skillet", cents: 4450 },
  { sku: "VAC-ROBO-S2", name: "robot vacuum", cents: 28900 },
  { sku: "WTC-FIT-2", name: "fitness smartwatch", cents: 19900 },
  { sku: "BLK-WOOL-TH", name: "wool throw blanket", cents: 6900 },
  { sku: "AIR-PUR-300", name: "air purifier", cents: 15900 },
  { sku: "MAT-YOGA-6", name: "yoga mat", cents: 3800 },
  { sku: "BAG-DAY-25L", name: "25 L daypack", cents: 8900 },
  { sku: "LMP-DESK-LED", name: "LED desk lamp", cents: 5499 },
  { sku: "BLD-PRO-1200", name: "countertop blender", cents: 13900 },
  { sku: "KTL-ELEC-17", name: "electric kettle", cents: 4900 },
  { sku: "CAM-DASH-4K", name: "4K dash cam", cents: 11999 },
  { sku: "SPK-BT-MINI", name: "Bluetooth speaker", cents: 5900 },
  { sku: "PAN-NS-SET3", name: "non-stick pan set", cents: 8450 },
  { sku: "MON-27-QHD", name: "27-inch monitor", cents: 27900 },
];

export const FIRST_NAMES =
  "Maria James Aisha Chen Lucas Priya Noah Sofia Omar Emma Diego Hannah Kenji Fatima Liam Grace Mateo Zoe Ravi Elena Samuel Nadia Theo Yuki".split(
    " ",
  );
export const LAST_NAMES =
  "Garcia Okafor Nguyen Schmidt Patel Kowalski Haddad Johansson Rossi Kim Fernandes Brennan Moreau Tanaka Adeyemi Larsen Silva Novak Chowdhury Murphy".split(
    " ",
  );
const STREETS =
  "Maple Avenue,Cedar Lane,Harbor Street,Willow Court,Lakeview Drive,Birch Road,Mill Street,Orchard Way,Pine Ridge Road,Elm Street,Riverside Drive,Chestnut Place".split(
    ",",
  );
const CITIES: readonly (readonly [string, string, string])[] = [
  ["Portland", "OR", "972"],
  ["Austin", "TX", "787"],
  ["Madison", "WI", "537"],
  ["Raleigh", "NC", "276"],
  ["Denver", "CO", "802"],
  ["Columbus", "OH", "432"],
  ["Sacramento", "CA", "958"],
  ["Burlington", "VT", "054"],
  ["Boise", "ID", "837"],
  ["Tucson", "AZ", "857"],
  ["Richmond", "VA", "232"],
  ["Ann Arbor", "MI", "481"],
];
const CARRIERS = ["UPS", "FedEx", "USPS"];

export function makeAddress(rng: Rng): Address {
  const [city, state, zip3] = rng.pick(CITIES);
  const apt = rng.chance(0.35) ? `, Apt ${rng.int(1, 9)}${rng.pick(["A", "B", "C", "D"])}` : "";
  return {
    line1: `${rng.int(12, 4980)} ${rng.pick(STREETS)}${apt}`,
    city,
    state,
    zip: `${zip3}${rng.digits(2)}`,
  };
}

export function addressText(a: Address): string {
  return `${a.line1}, ${a.city}, ${a.state} ${a.zip}`;
}

export function addressJson(a: Address): JsonObject {
  return { line1: a.line1, city: a.city, state: a.state, zip: a.zip };
}

export function sameAddress(a: Address, b: Address): boolean {
  return a.line1 === b.line1 && a.city === b.city && a.state === b.state && a.zip === b.zip;
}

function tracking(rng: Rng, carrier: string): string {
  if (carrier === "UPS")
    return `1Z${rng.chars("ABCDEFHJKLMNPRTVXY0123456789", 6)}${rng.digits(10)}`;
  if (carrier === "FedEx") return rng.digits(12);
  return `9400${rng.digits(18)}`;
}

export function makeOrder(
  rng: Rng,
  status: OrderStatus,
  placedDay: number,
  items: readonly LineItem[],
  customer: Customer,
  payment: string,
  deliveredDay: number | null = null,
): Order {
  const carrier = rng.pick(CARRIERS);
  const shipment: Shipment | null =
    status === "processing"
      ? null
      : {
          carrier,
          tracking: tracking(rng, carrier),
          etaDay: status === "delivered" ? (deliveredDay ?? placedDay + 4) : rng.int(1, 4),
        };
  return {
    id: `W${rng.int(1, 9)}${rng.digits(6)}`,
    status,
    placedDay,
    shipByDay: status === "processing" ? rng.int(1, 3) : null,
    deliveredDay: status === "delivered" ? deliveredDay : null,
    items,
    payment,
    address: customer.address,
    shipment,
  };
}

export function orderTotal(order: Order): number {
  return order.items.reduce((s, i) => s + i.cents, 0);
}

export function pickItems(rng: Rng, n: number, exclude: readonly LineItem[] = []): LineItem[] {
  const pool = rng.shuffle(CATALOG.filter((i) => !exclude.some((e) => e.sku === i.sku)));
  return pool.slice(0, n);
}

/** The refund policy the shop enforces through check_refund_policy (and the verifier through `policy`). */
export function refundPolicy(
  order: Order,
  reason: string,
): { eligible: boolean; rule: string; windowDays: number; windowEndDay: number | null } {
  const windowDays = reason === "defective" || reason === "damaged" ? 90 : 30;
  const rule =
    windowDays === 90
      ? "Defective or damaged items: refundable within 90 days of delivery"
      : "Change of mind: unused items refundable within 30 days of delivery";
  if (order.deliveredDay === null)
    return {
      eligible: false,
      rule: "Orders can be refunded only after delivery",
      windowDays,
      windowEndDay: null,
    };
  const windowEndDay = order.deliveredDay + windowDays;
  return { eligible: windowEndDay >= 0, rule, windowDays, windowEndDay };
}
