/**
 * Editable prompt templates. A template is plain text with `{{name}}` placeholders; its version is
 * its name plus a hash of its text, so an edited prompt never shares a version with the original
 * and every verdict can say which prompt produced it.
 *
 * Rendering is one pass over the template: a placeholder's value is inserted verbatim and never
 * scanned again, so rollout text that happens to contain `{{…}}` stays text.
 */
import type { JudgePrompt } from "./types.ts";

export interface PromptTemplate {
  /** A stable name such as "gar-v1"; the version adds a hash of the text. */
  readonly name: string;
  readonly system: string;
  readonly user: string;
}

export class TemplateError extends Error {
  override readonly name = "TemplateError";
}

/** 32-bit FNV-1a over UTF-16 code units, as 8 hex digits. Not cryptographic; a change detector. */
export function fnv1aHex(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/** `name@hash`: e.g. "gar-v1@1a2b3c4d". Changes whenever the system or user text changes. */
export function templateVersion(template: PromptTemplate): string {
  return `${template.name}@${fnv1aHex(`${template.system}\u0000${template.user}`)}`;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** The placeholder names a template text uses, in order of first use. */
export function templatePlaceholders(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

function fill(text: string, vars: Readonly<Record<string, string>>): string {
  return text.replace(PLACEHOLDER, (_whole, name: string) => {
    const value = Object.prototype.hasOwnProperty.call(vars, name) ? vars[name] : undefined;
    if (value === undefined) throw new TemplateError(`the template has no value for {{${name}}}`);
    return value;
  });
}

/**
 * Render a template into a system and a user message.
 *
 * @throws TemplateError when a placeholder has no value
 */
export function renderTemplate(
  template: PromptTemplate,
  vars: Readonly<Record<string, string>>,
): JudgePrompt {
  return {
    messages: [
      { role: "system", content: fill(template.system, vars) },
      { role: "user", content: fill(template.user, vars) },
    ],
    templateVersion: templateVersion(template),
  };
}

/**
 * Put untrusted text inside `<tag …>…</tag>` so the judge can tell where it ends: any closing or
 * opening tag of the same name inside the text is defanged (`</rollout` becomes `<\/rollout`).
 */
export function fenceText(tag: string, attributes: string, text: string): string {
  const defanged = text.replace(new RegExp(`<(/?)(${tag})`, "gi"), "<\\$1$2");
  return `<${tag}${attributes === "" ? "" : ` ${attributes}`}>\n${defanged}\n</${tag}>`;
}
