/**
 * The markdown renderer, loaded lazily (React.lazy in RichText.tsx): react-markdown with GFM and
 * rehype-sanitize, never rehype-raw. Transcripts are untrusted model output, so:
 * - raw HTML in markdown is shown as text (rehypeRawAsText), never parsed into elements;
 * - the sanitiser (GitHub's schema) drops what remains dangerous, before highlighting adds its
 *   own classes;
 * - URLs go through react-markdown's defaultUrlTransform, which empties `javascript:`, `data:`
 *   and every other protocol but http(s), mailto, xmpp and irc(s); an emptied link is plain text;
 * - no link is live (issue 13): a bare URL the model wrote stays text (GFM's autolink literals are
 *   turned back into text, remarkNoAutolinkLiterals), and a written link ([text](url), <url>)
 *   shows its full target and opens only from a confirmation (InertLink);
 * - images are never fetched (a tracking pixel in a transcript would call home): shown as text;
 * - invisible characters (a bidi override, zero-width characters) are shown as markers.
 * Code highlighting (rehype-highlight with lowlight's common languages) is a second lazy import,
 * requested only by text with a code fence, and applied when it arrives.
 */
import { memo, startTransition, useEffect, useState } from "react";
import Markdown, { defaultUrlTransform, type Components, type Options } from "react-markdown";
import rehypeSanitize from "rehype-sanitize";
import type rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";
import { hasInvisible, invisibleLabel, invisibleSegments } from "./invisibles.ts";
import InertLink from "./InertLink.tsx";
import { hasCodeFence } from "./prepareTranscript.ts";
import styles from "./Transcript.module.css";
import "./highlight.css";

type Highlighter = typeof rehypeHighlight;

let highlighter: Highlighter | null = null;
let requested = false;
const listeners = new Set<() => void>();

/**
 * The highlighter, once loaded, re-renders the text that wants it in a transition: every code
 * block on screen parses again with highlighting, and as one synchronous render (an external
 * store's update) that was a main-thread task of about 200 ms on a 64-rollout group.
 */
function useHighlighter(): Highlighter | null {
  // The highlighter is a function: store it through updater functions, never call it.
  const [h, setH] = useState<Highlighter | null>(() => highlighter);
  useEffect(() => {
    const update = (): void => startTransition(() => setH(() => highlighter));
    listeners.add(update);
    // Loaded between the render and this effect.
    if (highlighter !== h) update();
    return () => {
      listeners.delete(update);
    };
  }, [h]);
  return h;
}

/**
 * rehype-highlight builds a lowlight instance and registers its 37 languages each time the plugin
 * is attached, which react-markdown does on every render of every text: attach it once and share
 * the transformer (it keeps no state between trees).
 */
function sharedHighlight(h: Highlighter): () => ReturnType<Highlighter> {
  const transformer = h({ detect: false });
  return () => transformer;
}

function requestHighlighter(): void {
  if (requested) return;
  requested = true;
  import("rehype-highlight").then(
    (m) => {
      highlighter = m.default;
      for (const l of listeners) l();
    },
    (error: unknown) => {
      // Code stays readable unhighlighted; nothing else depends on it.
      console.warn("code highlighting could not be loaded", error);
    },
  );
}

interface HastLike {
  type: string;
  value?: string;
  children?: HastLike[];
}

/** Raw HTML nodes become text nodes: the reader sees what the model wrote, nothing is parsed. */
function rehypeRawAsText() {
  const visit = (node: HastLike): void => {
    if (node.type === "raw") node.type = "text";
    node.children?.forEach(visit);
  };
  return (tree: HastLike) => visit(tree);
}

interface HastElement extends HastLike {
  tagName?: string;
  properties?: Record<string, unknown>;
}

/**
 * Invisible characters (bidi controls, zero-width and tag characters) become visible markers, as
 * VisibleText shows them: runs last, after the sanitiser and the highlighter, on text nodes only.
 */
function rehypeShowInvisible() {
  const visit = (node: HastElement): void => {
    if (node.children === undefined) return;
    const next: HastElement[] = [];
    for (const child of node.children) {
      if (child.type !== "text" || child.value === undefined || !hasInvisible(child.value)) {
        visit(child);
        next.push(child);
        continue;
      }
      for (const s of invisibleSegments(child.value))
        next.push(
          s.kind === "text"
            ? { type: "text", value: s.text }
            : {
                type: "element",
                tagName: "span",
                properties: {
                  className: [styles.invisible],
                  title: `${s.code} ${s.name}`,
                  dataTestid: "transcript.invisible",
                  dataCode: s.code,
                },
                children: [{ type: "text", value: invisibleLabel(s) }],
              },
        );
    }
    node.children = next;
  };
  return (tree: HastElement) => visit(tree);
}

interface MdastLike {
  type: string;
  value?: string;
  url?: string;
  children?: MdastLike[];
  position?: { start: { offset?: number }; end: { offset?: number } };
}

/**
 * GFM's autolink literals (a bare `https://…`, `www.…` or e-mail address) become text again: model
 * output must not turn a URL it wrote into a link. A literal is told from a written link by its
 * source, which starts with neither `[` (a link or reference) nor `<` (an autolink).
 */
export function remarkNoAutolinkLiterals() {
  return (tree: MdastLike, file: { value: unknown }) => {
    const source = String(file.value);
    const visit = (node: MdastLike): void => {
      node.children?.forEach((child, i, siblings) => {
        const start = child.position?.start.offset;
        const end = child.position?.end.offset;
        if (child.type === "link" && start !== undefined && end !== undefined) {
          const written = source.slice(start, end);
          if (!written.startsWith("[") && !written.startsWith("<")) {
            siblings[i] = { type: "text", value: written, position: child.position };
            return;
          }
        }
        visit(child);
      });
    };
    visit(tree);
  };
}

const REMARK: Options["remarkPlugins"] = [remarkGfm, remarkNoAutolinkLiterals];
const REHYPE: Options["rehypePlugins"] = [rehypeRawAsText, rehypeSanitize, rehypeShowInvisible];
let rehypeWithHighlight: Options["rehypePlugins"] = null;

function plugins(h: Highlighter | null): Options["rehypePlugins"] {
  if (h === null) return REHYPE;
  rehypeWithHighlight ??= [
    rehypeRawAsText,
    rehypeSanitize,
    sharedHighlight(h),
    rehypeShowInvisible,
  ];
  return rehypeWithHighlight;
}

const COMPONENTS: Components = {
  a: ({ node: _node, href, children, ...rest }) =>
    href === undefined || href === "" ? (
      <span className={styles.deadLink} title="link removed: unsafe or empty URL">
        {children}
      </span>
    ) : (
      <InertLink href={href} className={typeof rest.className === "string" ? rest.className : ""}>
        {children}
      </InertLink>
    ),
  img: ({ alt, src }) => (
    <span className={styles.imageText} title={typeof src === "string" ? src : undefined}>
      [image{alt ? `: ${alt}` : ""}]
    </span>
  ),
};

/** Markdown text rendered safely; highlighted once the highlighter has loaded. */
const MarkdownRenderer = memo(function MarkdownRenderer({ text }: { text: string }) {
  const wantsCode = hasCodeFence(text);
  const h = useHighlighter();
  // Loading the highlighter is a request to the server: an external system.
  useEffect(() => {
    if (wantsCode) requestHighlighter();
  }, [wantsCode]);
  return (
    <div
      className={styles.markdown}
      data-testid="markdown"
      data-highlighted={h === null ? undefined : "true"}
    >
      <Markdown
        remarkPlugins={REMARK}
        rehypePlugins={plugins(wantsCode ? h : null)}
        components={COMPONENTS}
        urlTransform={defaultUrlTransform}
      >
        {text}
      </Markdown>
    </div>
  );
});

export default MarkdownRenderer;
