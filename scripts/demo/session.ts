/** One rollout being written: the OpenAI wire messages, with each tool call run against the shop. */
import type { JsonObject } from "./model.ts";
import { at, type Rng } from "./rng.ts";
import type { Shop, ToolName } from "./shop.ts";

interface WireToolCall {
  readonly id: string;
  readonly type: "function";
  readonly function: { readonly name: string; readonly arguments: string };
}

export type WireMessage =
  | { readonly role: "system" | "user"; readonly content: string }
  | {
      readonly role: "assistant";
      readonly content: string | null;
      readonly tool_calls?: readonly WireToolCall[];
    }
  | {
      readonly role: "tool";
      readonly tool_call_id: string;
      readonly name: string;
      readonly content: string;
    };

const PREFACES: Record<ToolName, readonly string[]> = {
  get_customer: ["Let me pull up your account first.", "I'll look up your account."],
  get_order: ["Let me check the order details.", "I'll take a look at that order."],
  check_refund_policy: [
    "Now I'll confirm the item is covered by our refund policy.",
    "Let me check the refund eligibility.",
  ],
  refund_order: ["It's eligible, so I'll issue the refund now.", "Processing the refund now."],
  cancel_order: [
    "The order hasn't shipped yet, so I can cancel it.",
    "I'll cancel the order for you.",
  ],
  update_address: [
    "It hasn't shipped yet, so I can still change the address.",
    "Updating the shipping address now.",
  ],
  send_email: ["I'll send you a confirmation email as well.", "Sending a confirmation email."],
};

/** One rollout being written: assistant turns with tool calls, the shop's results, the final answer. */
export class Session {
  readonly messages: WireMessage[] = [];
  readonly shop: Shop;
  readonly #rng: Rng;
  readonly #chatty: boolean;

  constructor(shop: Shop, rng: Rng, chatty: boolean) {
    this.shop = shop;
    this.#rng = rng;
    this.#chatty = chatty;
  }

  /** One tool call. `preface` is the assistant's text beside it, always shown; otherwise chatty rollouts narrate. */
  call(name: ToolName, args: JsonObject, preface?: string): JsonObject {
    return at(this.parallel([[name, args]], preface), 0);
  }

  /** Several tool calls in one assistant turn (parallel tool calls). */
  parallel(calls: readonly (readonly [ToolName, JsonObject])[], preface?: string): JsonObject[] {
    const first = at(calls, 0)[0];
    const content = preface ?? (this.#chatty ? this.#rng.pick(PREFACES[first]) : null);
    const wire = calls.map(([name, args]) => ({
      id: `call_${this.#rng.chars("ABCDEFGHIJKLMNOPQRSTUVXYZabcdefghijklmnopqrstuvwxyz0123456789", 24)}`,
      type: "function" as const,
      function: { name, arguments: JSON.stringify(args) },
    }));
    this.messages.push({ role: "assistant", content, tool_calls: wire });
    return calls.map(([name, args], i) => {
      const result = this.shop.run(name, args);
      this.messages.push({
        role: "tool",
        tool_call_id: at(wire, i).id,
        name,
        content: JSON.stringify(result),
      });
      return result;
    });
  }

  final(content: string): void {
    this.messages.push({ role: "assistant", content });
  }
}
