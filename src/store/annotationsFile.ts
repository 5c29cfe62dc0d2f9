/**
 * The annotations file (version 1) as the studio imports, merges and exports it: io's validator,
 * loaded on first use (it brings zod, which the first page must not carry), its issues as text.
 */
import type { Annotations } from "../core/index.ts";
import { formatIssue } from "../io/issues.ts";

export type AnnotationsFileRead =
  | { readonly ok: true; readonly value: Annotations }
  | { readonly ok: false; readonly message: string };

/** A file's text validated as an annotations file; when it is not one, its issues, one a line. */
export async function readAnnotationsFile(
  fileName: string,
  text: string,
): Promise<AnnotationsFileRead> {
  const { annotationsParse } = await import("../io/annotations/annotationsFile.ts");
  const parsed = annotationsParse(fileName, text);
  return parsed.ok ? parsed : { ok: false, message: parsed.issues.map(formatIssue).join("\n") };
}

/**
 * The annotations file as the CLI writes it: validated, then serialised from the parsed state. The
 * writer throws with the issues when the annotations do not validate.
 */
export async function annotationsJsonWriter(fileName: string): Promise<(a: Annotations) => string> {
  const { annotationsParse, annotationsToJson } =
    await import("../io/annotations/annotationsFile.ts");
  return (annotations) => {
    const parsed = annotationsParse(fileName, annotationsToJson(annotations));
    if (!parsed.ok) throw new Error(parsed.issues.map(formatIssue).join("\n"));
    return annotationsToJson(parsed.value);
  };
}
