/**
 * Covers: the reward spec file. Defaults are filled in, every problem names the file and the field
 * (including the cross-verifier ones), unknown keys are errors, and export then import is the
 * identity.
 */
import { describe, expect, it } from "vitest";
import { FORMAT_PRESET_REASONING_ANSWER, type VerifierSpec } from "../../core/index.ts";
import { formatIssue } from "../issues.ts";
import { verifierSpecFromUnknown, verifierSpecParse, verifierSpecToJson } from "./specFile.ts";

const errors = (value: unknown): string[] => {
  const r = verifierSpecFromUnknown("spec.json", value);
  return r.ok ? [] : r.issues.map(formatIssue);
};

describe("verifierSpecParse", () => {
  it("fills every default", () => {
    const r = verifierSpecFromUnknown("spec.json", {
      version: 1,
      verifiers: [
        { kind: "format", name: "fmt", pattern: "^x$" },
        { kind: "exact-match", name: "correct", field: "answer" },
        {
          kind: "json-schema",
          name: "schema",
          schema: { from: "inline", schema: { type: "object" } },
        },
        { kind: "length-penalty", name: "len", wraps: "correct" },
        { kind: "judge", name: "judge" },
      ],
    });
    expect(r).toEqual({
      ok: true,
      value: {
        version: 1,
        text: "final-assistant",
        loggedReward: "auto",
        verifiers: [
          { kind: "format", name: "fmt", enabled: true, weight: 1, pattern: "^x$", flags: "" },
          {
            kind: "exact-match",
            name: "correct",
            enabled: true,
            weight: 1,
            field: "answer",
            pattern: null,
            flags: "",
            normalize: { trim: true, ignoreCase: false, collapseWhitespace: false, numeric: false },
          },
          {
            kind: "json-schema",
            name: "schema",
            enabled: true,
            weight: 1,
            schema: { from: "inline", schema: { type: "object" } },
            draft: "2020-12",
          },
          {
            kind: "length-penalty",
            name: "len",
            enabled: true,
            weight: 1,
            wraps: "correct",
            target: 512,
            penaltyPerUnit: 0.001,
            unit: "words",
          },
          {
            kind: "judge",
            name: "judge",
            enabled: true,
            weight: 1,
            mode: "rubric",
            run: null,
            passThreshold: 0.5,
            rubricPassScore: 0.5,
          },
        ],
      } satisfies VerifierSpec,
    });
  });

  it("names the file and the field of every problem", () => {
    expect(errors({ version: 2, verifiers: [] })).toEqual([
      "spec.json: version: expected version 1",
    ]);
    expect(
      errors({
        version: 1,
        verifiers: [
          { kind: "format", name: "a", pattern: "(", weigth: 2 },
          { kind: "exact-match", name: "b", field: "" },
          { kind: "json-schema", name: "c", schema: { from: "inline", schema: [1] } },
          { kind: "length-penalty", name: "d", wraps: "x", target: -1 },
          { kind: "regex", name: "e" },
        ],
      }),
    ).toEqual([
      'spec.json: verifiers[0]: Unrecognized key: "weigth"',
      "spec.json: verifiers[0].pattern: Invalid regular expression: /(/: Unterminated group",
      "spec.json: verifiers[1].field: name the ground-truth field",
      "spec.json: verifiers[2].schema.schema: a JSON schema is an object (or true or false)",
      "spec.json: verifiers[3].target: expected a number >= 0",
      "spec.json: verifiers[4].kind: Invalid discriminator value. Expected 'format' | 'exact-match' | 'json-schema' | 'length-penalty' | 'judge'",
    ]);
    expect(
      errors({
        version: 1,
        verifiers: [
          { kind: "judge", name: "a", mode: "cluster" },
          { kind: "judge", name: "b", run: "" },
          { kind: "judge", name: "c", rubricPassScore: 2, passThreshold: "high" },
          { kind: "judge", name: "d", runId: "rubric-1" },
        ],
      }),
    ).toEqual([
      'spec.json: verifiers[0].mode: Invalid option: expected one of "rubric"|"gar"|"pairwise"',
      "spec.json: verifiers[1].run: name the judge run, or null for the newest run of the mode",
      "spec.json: verifiers[2].passThreshold: Invalid input: expected number, received string",
      "spec.json: verifiers[2].rubricPassScore: expected a number in [0, 1]",
      'spec.json: verifiers[3]: Unrecognized key: "runId"',
    ]);
    expect(
      errors({ version: 1, verifiers: [{ kind: "format", name: "a", pattern: "a", flags: "g" }] }),
    ).toEqual(['spec.json: verifiers[0].pattern: flag "g" is not one of imsu']);
    expect(
      errors({ version: 1, verifiers: [{ kind: "format", name: "a", pattern: "(" }] })[0],
    ).toMatch(/^spec\.json: verifiers\[0\]\.pattern: .*(Invalid|Unterminated)/);
  });
});

describe("verifierSpecParse: problems between verifiers, bad JSON and the round trip", () => {
  it("reports the problems between verifiers on the right field", () => {
    expect(
      errors({
        version: 1,
        verifiers: [
          { kind: "exact-match", name: "a", field: "gold" },
          { kind: "exact-match", name: "a", field: "gold" },
          { kind: "length-penalty", name: "p", wraps: "p" },
        ],
      }),
    ).toEqual([
      "spec.json: verifiers[1].name: the name is used twice",
      "spec.json: verifiers[2].wraps: a length penalty cannot wrap itself",
    ]);
  });

  it("says when the text is not JSON", () => {
    const r = verifierSpecParse("s.json", "{ nope");
    expect(r.ok).toBe(false);
    expect(r.ok ? "" : formatIssue(r.issues[0]!)).toMatch(/^s\.json: not JSON: /);
  });

  it("export then import gives the same spec", () => {
    const spec: VerifierSpec = {
      version: 1,
      text: "all-assistant",
      loggedReward: "drop",
      verifiers: [
        {
          kind: "format",
          name: "f",
          enabled: false,
          weight: 0.5,
          ...FORMAT_PRESET_REASONING_ANSWER,
        },
        {
          kind: "exact-match",
          name: "e",
          enabled: true,
          weight: 2,
          field: "reward_model.ground_truth",
          pattern: "order #(W\\d+)",
          flags: "i",
          normalize: { trim: true, ignoreCase: true, collapseWhitespace: true, numeric: true },
        },
        {
          kind: "json-schema",
          name: "j",
          enabled: true,
          weight: 1,
          schema: { from: "field", field: "schema" },
          draft: "7",
        },
        {
          kind: "length-penalty",
          name: "l",
          enabled: true,
          weight: 1,
          wraps: "e",
          target: 100,
          penaltyPerUnit: 0.01,
          unit: "characters",
        },
        {
          kind: "judge",
          name: "rubric_pass",
          enabled: true,
          weight: 0.5,
          mode: "pairwise",
          run: "pairwise-2026-11-29T21:40:00.000Z",
          passThreshold: 1,
          rubricPassScore: 0.7,
        },
      ],
    };
    expect(verifierSpecParse("s.json", verifierSpecToJson(spec))).toEqual({
      ok: true,
      value: spec,
    });
  });
});
