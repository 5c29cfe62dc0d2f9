/**
 * Covers: the settings form is built from core's settings schema. A setting added in a fixture
 * (src/test/settingFixture.ts) appears in the form with no other edit, and only a valid value
 * reaches the store; the panel's fields are the schema's, and its choices the values core's types
 * take. The store's reader and the CLI's flags are covered beside them (settingsSchema.test.ts).
 */
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ANALYSIS_DEFAULTS,
  ANALYSIS_SETTING_SCHEMA,
  COMPLETION_RULES,
  settingDefaults,
  SIMILARITY_ON,
} from "../../../core/index.ts";
import { SCHEMA_WITH_KNOB } from "../../../test/settingFixture.ts";
import { settingField } from "../../components/settingField.ts";
import { SettingsForm } from "../../components/SettingsForm.tsx";
import { SETTING_FIELDS } from "./settingFields.ts";

afterEach(cleanup);

describe("a setting added to the schema, in the settings form", () => {
  it("is a control, and only a valid value reaches the store", () => {
    const onChange = vi.fn();
    render(
      <SettingsForm
        fields={SCHEMA_WITH_KNOB.map((d) => settingField(d))}
        values={settingDefaults(SCHEMA_WITH_KNOB)}
        resets={0}
        onChange={onChange}
      />,
    );
    const input = screen.getByTestId("settings-knob");
    expect(screen.getByText("Fixture knob")).toBeTruthy();
    expect(input.getAttribute("title")).toBe("Default 3: a test fixture");
    fireEvent.change(input, { target: { value: "0" } });
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: "5" } });
    expect(onChange).toHaveBeenCalledWith("knob", 5);
  });
});

describe("the analysis settings schema", () => {
  it("gives the defaults and the form's fields", () => {
    expect(settingDefaults(ANALYSIS_SETTING_SCHEMA)).toEqual(
      Object.fromEntries(Object.entries(ANALYSIS_DEFAULTS).filter(([k]) => k !== "rewardWeights")),
    );
    expect(SETTING_FIELDS.map((f) => f.key)).toEqual(ANALYSIS_SETTING_SCHEMA.map((d) => d.key));
  });

  it("offers exactly the values core's types take", () => {
    const options = (key: string) =>
      ANALYSIS_SETTING_SCHEMA.flatMap((d) =>
        d.key === key && d.kind === "choice" ? d.options.map((o) => o.value) : [],
      );
    expect(options("completionRule")).toEqual([...COMPLETION_RULES]);
    expect(options("similarityOn")).toEqual([...SIMILARITY_ON]);
  });
});
