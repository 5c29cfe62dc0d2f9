/**
 * The JSON-schema verifier's fields: where the schema comes from (one inline schema, edited as
 * JSON text, or each row's metadata field) and the draft it is read as.
 */
import { useState } from "react";
import type { JsonSchemaVerifier } from "../../../core/index.ts";
import { ChoiceField, Field, FieldPathField } from "./LabelledFields.tsx";
import {
  EDITOR_TEXT,
  SCHEMA_DRAFT_CHOICES,
  SCHEMA_SOURCE_CHOICES,
  schemaEntry,
  schemaText,
  withSchemaSource,
  type KindFieldsProps,
} from "./verifierEditorModel.ts";
import styles from "./Verifiers.module.css";

/** The inline schema as JSON text, parsed on every edit; invalid text is shown, never applied. */
function SchemaText({
  schema,
  onSchema,
}: {
  readonly schema: unknown;
  readonly onSchema: (schema: unknown) => void;
}) {
  const [text, setText] = useState(() => schemaText(schema));
  const [error, setError] = useState<string | null>(null);
  return (
    <Field {...EDITOR_TEXT["json-schema"].inline}>
      {(id) => (
        <>
          <textarea
            id={id}
            className={styles.code}
            rows={6}
            spellCheck={false}
            value={text}
            data-testid="verifiers.schema"
            onChange={(e) => {
              const next = e.currentTarget.value;
              setText(next);
              const entry = schemaEntry(next);
              setError(entry.ok ? null : entry.error);
              if (entry.ok) onSchema(entry.schema);
            }}
          />
          {error !== null ? (
            <p className={styles.problem} role="alert">
              Not JSON: {error}
            </p>
          ) : null}
        </>
      )}
    </Field>
  );
}

export default function JsonSchemaFields({
  verifier: v,
  fields,
  onChange,
}: KindFieldsProps<JsonSchemaVerifier> & { readonly fields: readonly string[] }) {
  const text = EDITOR_TEXT["json-schema"];
  return (
    <>
      <div className={styles.row}>
        <ChoiceField
          {...text.source}
          value={v.schema.from}
          choices={SCHEMA_SOURCE_CHOICES}
          testId="verifiers.schema-source"
          onChoice={(from) => onChange(withSchemaSource(v, from))}
        />
        <ChoiceField
          {...text.draft}
          value={v.draft}
          choices={SCHEMA_DRAFT_CHOICES}
          testId="verifiers.draft"
          onChoice={(draft) => onChange({ ...v, draft })}
        />
        {v.schema.from === "field" ? (
          <FieldPathField
            {...text.field}
            value={v.schema.field}
            fields={fields}
            testId="verifiers.schema-field"
            onPath={(field) => onChange({ ...v, schema: { from: "field", field } })}
          />
        ) : null}
      </div>
      {v.schema.from === "inline" ? (
        <SchemaText
          schema={v.schema.schema}
          onSchema={(schema) => onChange({ ...v, schema: { from: "inline", schema } })}
        />
      ) : null}
    </>
  );
}
