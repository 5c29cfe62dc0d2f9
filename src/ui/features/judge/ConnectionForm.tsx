/**
 * The judge's connection: presets (OpenAI, vLLM, Ollama), base URL, model, the API key (in memory;
 * "remember for this tab" keeps it in sessionStorage), temperature, max tokens, concurrency,
 * timeout, retries and prices. The fields are a draft until saved. Saving a new origin reloads the
 * page, because the Content-Security-Policy allows the judge's origin only from the next load.
 */
import { useId, useState, type FormEvent } from "react";
import { useStore } from "../../../store/index.ts";
import { JUDGE_PRESETS } from "../../../store/slices/judgeSlice.ts";
import { cspAllowedOrigin, reloadForPolicy } from "./csp.ts";
import {
  connectionDraft,
  needsReload,
  readConnectionDraft,
  urlOrigin,
  type ConnectionDraft,
} from "./prepareJudge.ts";
import styles from "./Judge.module.css";

const FIELDS: readonly {
  key: Exclude<keyof ConnectionDraft, "baseURL" | "model">;
  label: string;
  hint: string;
}[] = [
  { key: "temperature", label: "Temperature", hint: "0 to 2; 0 for repeatable grades" },
  { key: "maxTokens", label: "Max tokens", hint: "per reply" },
  { key: "concurrency", label: "Concurrency", hint: "requests in flight (default 16)" },
  { key: "timeout", label: "Timeout (s)", hint: "per attempt" },
  { key: "maxRetries", label: "Retries", hint: "after 429, 5xx, timeouts, with backoff" },
  { key: "priceIn", label: "Price in ($/M tokens)", hint: "empty: no cost estimate" },
  { key: "priceOut", label: "Price out ($/M tokens)", hint: "empty: no cost estimate" },
];

export default function ConnectionForm() {
  const connection = useStore((s) => s.judgeConnection);
  const configured = useStore((s) => s.judgeConfigured);
  const apiKey = useStore((s) => s.judgeApiKey);
  const remember = useStore((s) => s.judgeRememberKey);
  const setJudgeConnection = useStore((s) => s.setJudgeConnection);
  const setJudgeApiKey = useStore((s) => s.setJudgeApiKey);
  const [draft, setDraft] = useState<ConnectionDraft>(() => connectionDraft(connection));
  const [errors, setErrors] = useState<readonly string[]>([]);
  const [saved, setSaved] = useState(false);
  const id = useId();
  const allowed = cspAllowedOrigin();
  const reload = allowed !== null && needsReload(draft.baseURL.trim(), allowed);
  const origin = urlOrigin(draft.baseURL.trim());

  const edit = (patch: Partial<ConnectionDraft>): void => {
    setDraft((d) => ({ ...d, ...patch }));
    setSaved(false);
  };

  const save = (e: FormEvent): void => {
    e.preventDefault();
    const result = readConnectionDraft(draft);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors([]);
    // Persisted synchronously (localStorage), so the reloaded page's policy reads the new origin.
    setJudgeConnection(result.patch);
    setSaved(true);
    if (reload) reloadForPolicy();
  };

  return (
    <form className={styles.section} onSubmit={save} data-testid="judge.connection">
      <h3 className={styles.heading}>Connection</h3>
      <div className={styles.row} role="group" aria-label="Presets">
        <span>Preset:</span>
        {JUDGE_PRESETS.map((p) => (
          <button
            key={p.id}
            type="button"
            className={styles.button}
            data-testid={`judge.preset.${p.id}`}
            onClick={() => edit({ baseURL: p.baseURL, model: p.model })}
          >
            {p.label}
          </button>
        ))}
      </div>
      <div className={styles.grid}>
        <label htmlFor={`${id}-url`}>Base URL</label>
        <input
          id={`${id}-url`}
          type="url"
          value={draft.baseURL}
          spellCheck={false}
          data-testid="judge.base-url"
          onChange={(e) => edit({ baseURL: e.currentTarget.value })}
        />
        <label htmlFor={`${id}-model`}>Model</label>
        <input
          id={`${id}-model`}
          value={draft.model}
          spellCheck={false}
          data-testid="judge.model"
          onChange={(e) => edit({ model: e.currentTarget.value })}
        />
        <label htmlFor={`${id}-key`} className={styles.topLabel}>
          API key
        </label>
        <span className={styles.row}>
          <input
            id={`${id}-key`}
            type="password"
            autoComplete="off"
            value={apiKey}
            data-testid="judge.api-key"
            placeholder="none (local servers)"
            onChange={(e) => setJudgeApiKey(e.currentTarget.value, remember)}
          />
          <label className={styles.inline}>
            <input
              type="checkbox"
              checked={remember}
              data-testid="judge.remember-key"
              onChange={(e) => setJudgeApiKey(apiKey, e.currentTarget.checked)}
            />
            Remember for this tab
          </label>
        </span>
        {FIELDS.map((f) => (
          <FieldRow
            key={f.key}
            id={`${id}-${f.key}`}
            label={f.label}
            hint={f.hint}
            value={draft[f.key]}
            testId={`judge.${f.key}`}
            onChange={(value) => edit({ [f.key]: value })}
          />
        ))}
      </div>
      <p className={styles.note}>
        The key stays in this tab&apos;s memory: it is never saved with the settings, exported or
        logged. &quot;Remember for this tab&quot; keeps it in sessionStorage until the tab closes.
      </p>
      {reload && origin !== null ? (
        <p className={styles.warning} role="note" data-testid="judge.reload-note">
          The page&apos;s security policy lets it connect only to the judge configured when it
          loaded{allowed === "" ? " (none yet)" : ` (${allowed})`}. Saving reloads the page to allow{" "}
          {origin}. Annotations are kept in this browser; a file you opened must be opened again (a
          link with ?demo reopens the demo).{" "}
          {apiKey !== "" && !remember
            ? "The API key is lost on reload unless “Remember for this tab” is checked."
            : ""}
        </p>
      ) : null}
      {errors.length > 0 ? (
        <ul className={styles.errors} role="alert" data-testid="judge.connection-errors">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
      <div className={styles.row}>
        <button type="submit" className={styles.primary} data-testid="judge.save-connection">
          {reload ? "Save and reload" : "Save connection"}
        </button>
        <span className={styles.muted} data-testid="judge.connection-status">
          {saved
            ? "Saved."
            : configured
              ? `Configured: ${connection.model} at ${connection.baseURL}`
              : "Not configured: no judge origin is allowed yet."}
        </span>
      </div>
    </form>
  );
}

function FieldRow({
  id,
  label,
  hint,
  value,
  testId,
  onChange,
}: {
  id: string;
  label: string;
  hint: string;
  value: string;
  testId: string;
  onChange: (value: string) => void;
}) {
  return (
    <>
      <label htmlFor={id} title={hint}>
        {label}
      </label>
      <input
        id={id}
        inputMode="decimal"
        value={value}
        title={hint}
        data-testid={testId}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
    </>
  );
}
