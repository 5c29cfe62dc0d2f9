/**
 * The group browser's filters: mixed only, zero std only, has hacks, unreviewed, has tool errors
 * (parsed groups with a tool result that is an error), the step (a run's, or a file's step
 * column, when there are several), and a text search
 * over group ids, prompts and completions. `/` focuses the search from anywhere but a text field;
 * Enter or Down there hands the focus to the list.
 */
import { useEffect, useId, useRef, type ReactNode } from "react";
import { useStore } from "../../../store/index.ts";
import type { GroupFilters as Filters } from "../../../store/url.ts";
import { isTypingTarget } from "../../components/keyboard.ts";
import styles from "./Groups.module.css";

const CHECKBOXES: readonly {
  readonly key: keyof Omit<Filters, "query" | "steps">;
  readonly label: string;
  readonly testId: string;
}[] = [
  { key: "mixedOnly", label: "mixed", testId: "filter-mixed" },
  { key: "zeroStdOnly", label: "zero std", testId: "filter-zero-std" },
  { key: "hacksOnly", label: "hacks", testId: "filter-hacks" },
  { key: "unreviewedOnly", label: "unreviewed", testId: "filter-unreviewed" },
  { key: "toolErrorsOnly", label: "tool errors", testId: "filter-tool-errors" },
];

export interface GroupFiltersProps {
  readonly shown: number;
  readonly total: number;
  /** Groups whose completions can be searched (all of them unless the file is indexed). */
  readonly searchable: number;
  readonly indexed: boolean;
  /**
   * Called in an idle moment after the search box takes the focus: the list builds its search
   * index then, before the first keystroke needs it.
   */
  readonly onSearchFocus?: () => void;
  /** Enter or Down in the search box: the list takes the focus, to move and open with its keys. */
  readonly onSearchDone?: () => void;
  /** More filters in the same bar, before the count (the metadata controls). */
  readonly children?: ReactNode;
  /** The dataset's distinct steps, ascending: a step filter when there are several. */
  readonly steps?: readonly number[];
}

const NO_STEPS: readonly number[] = [];

/** The step select's value for a filter: "" for every step, "N" for one, "A-B" for a range. */
function stepValue(steps: Filters["steps"]): string {
  if (steps === null) return "";
  return steps.from === steps.to ? String(steps.from) : `${steps.from}-${steps.to}`;
}

function stepsFromValue(value: string): Filters["steps"] {
  const m = /^(\d+)(?:-(\d+))?$/.exec(value);
  if (m === null) return null;
  const from = Number(m[1]);
  return { from, to: m[2] === undefined ? from : Number(m[2]) };
}

const count = (n: number): string => n.toLocaleString("en-US");

/** Runs `f` when the page is idle (soon, at the latest), or in a task where there is no idle callback. */
function whenIdle(f: () => void): void {
  if (typeof requestIdleCallback === "function") requestIdleCallback(f, { timeout: 500 });
  else setTimeout(f, 0);
}

export default function GroupFilters({
  shown,
  total,
  searchable,
  indexed,
  onSearchFocus,
  onSearchDone,
  children,
  steps = NO_STEPS,
}: GroupFiltersProps) {
  const filters = useStore((s) => s.filters);
  const setFilters = useStore((s) => s.setFilters);
  const searchId = useId();
  const stepId = useId();
  const stepNow = stepValue(filters.steps);
  // A range from a link (`?steps=10-40`) is offered as it is, beside the single steps.
  const rangeOption =
    filters.steps !== null && filters.steps.from !== filters.steps.to ? stepNow : null;
  const noteId = useId();
  const search = useRef<HTMLInputElement>(null);

  // A document-wide shortcut is a listener on an external system (the document), not derived state.
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== "/" || e.altKey || e.ctrlKey || e.metaKey || isTypingTarget(e.target)) return;
      e.preventDefault();
      search.current?.focus();
      search.current?.select();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  return (
    <div className={styles.filters} role="search" aria-label="Filter groups">
      {CHECKBOXES.map(({ key, label, testId }) => (
        <label key={key}>
          <input
            type="checkbox"
            checked={filters[key]}
            data-testid={testId}
            onChange={(e) => setFilters({ ...filters, [key]: e.currentTarget.checked })}
          />{" "}
          {label}
        </label>
      ))}
      {steps.length > 1 || filters.steps !== null ? (
        <>
          <label htmlFor={stepId}>step</label>
          <select
            id={stepId}
            className={styles.stepSelect}
            value={stepNow}
            title="Groups of one step (?step=N in the URL), or a range (?steps=A-B)"
            data-testid="filter-step"
            onChange={(e) =>
              setFilters({ ...filters, steps: stepsFromValue(e.currentTarget.value) })
            }
          >
            <option value="">all</option>
            {rangeOption === null ? null : <option value={rangeOption}>{rangeOption}</option>}
            {steps.map((step) => (
              <option key={step} value={String(step)}>
                {step}
              </option>
            ))}
          </select>
        </>
      ) : null}
      <label htmlFor={searchId}>
        Search <kbd aria-hidden="true">/</kbd>
      </label>
      <input
        id={searchId}
        ref={search}
        type="search"
        value={filters.query}
        placeholder="id, prompt or completion"
        aria-describedby={indexed ? noteId : undefined}
        data-testid="filter-search"
        onChange={(e) => setFilters({ ...filters, query: e.currentTarget.value })}
        onFocus={onSearchFocus === undefined ? undefined : () => whenIdle(onSearchFocus)}
        onKeyDown={(e) => {
          if (onSearchDone === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
          if (e.key !== "Enter" && e.key !== "ArrowDown") return;
          e.preventDefault();
          onSearchDone();
        }}
      />
      {indexed ? (
        <span id={noteId} className={styles.note} data-testid="filter-search-note">
          Large file: completions are searched in the {count(searchable)} parsed of {count(total)}{" "}
          groups; ids and prompt previews in all.
        </span>
      ) : null}
      {children}
      <span className={styles.count} data-testid="filter-count">
        {shown === total ? `${count(total)} groups` : `${count(shown)} of ${count(total)} groups`}
      </span>
    </div>
  );
}
