/**
 * Rollouts and messages for unit tests: every field has a neutral default, so a test names only
 * what it is about.
 */
import type { ChatMessage, Rollout } from "../core/index.ts";

export function testRollout(over: Partial<Rollout> = {}): Rollout {
  return {
    id: "g/0",
    groupId: "g",
    index: 0,
    prompt: "p",
    messages: [],
    completion: "",
    reward: 1,
    rewards: {},
    answer: null,
    testsPassed: null,
    meta: {},
    source: { file: "f", line: 1 },
    ...over,
  };
}

export function testMessage(
  role: string,
  content: string,
  over: Partial<ChatMessage> = {},
): ChatMessage {
  return { role, content, toolCalls: [], toolCallId: null, name: null, ...over };
}
