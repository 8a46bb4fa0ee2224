import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { Link } from "react-router";
import { TemplatePicker, type PickedTemplate } from "../../components/pickers/template-picker.tsx";
import { Button } from "../../components/ui/button.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { rowId, type ComposerDraft, type DraftErrors, type VariantRow } from "./composer-draft.ts";

type StepProps = { draft: ComposerDraft; errors: DraftErrors; onChange: (patch: Partial<ComposerDraft>) => void };

const MAX_VARIANTS = 5;

/** Step 2: the template, one published version or an A/B split across several, and the data it reads. */
export function ContentStep({ draft, errors, onChange }: StepProps) {
  const trpc = useTRPC();
  const detail = useQuery(trpc.templates.get.queryOptions({ key: draft.templateKey }, { enabled: draft.templateKey !== "" }));
  const published = (detail.data?.versions ?? []).filter((v) => v.status === "published" && v.version !== null);
  const variantsId = useId();
  const dataId = useId();

  function chooseTemplate(template: PickedTemplate) {
    onChange({
      templateKey: template.key,
      // Its current version to everyone, until the marketer splits it.
      variants: template.currentVersion ? [{ id: rowId(), version: String(template.currentVersion), percent: "100" }] : [],
      channels: [...template.channels],
      ...(template.defaultCategory ? { category: template.defaultCategory } : {}),
    });
  }

  function setVariant(id: string, patch: Partial<VariantRow>) {
    onChange({ variants: draft.variants.map((row) => (row.id === id ? { ...row, ...patch } : row)) });
  }

  function addVariant() {
    const used = new Set(draft.variants.map((v) => v.version));
    const next = published.find((v) => !used.has(String(v.version)));
    // An even split is where most A/B tests start; the shares stay editable.
    const count = draft.variants.length + 1;
    const even = Math.floor(100 / count);
    const rows = [...draft.variants, { id: rowId(), version: next ? String(next.version) : "", percent: "0" }];
    onChange({ variants: rows.map((row, index) => ({ ...row, percent: String(index === 0 ? 100 - even * (count - 1) : even) })) });
  }

  const total = draft.variants.reduce((sum, v) => sum + (Number(v.percent) || 0), 0);

  return (
    <div className="composer-fields">
      <TemplatePicker
        value={draft.templateKey}
        onChange={chooseTemplate}
        publishedOnly
        error={errors.templateKey}
        hint={
          <>
            Only published versions can be sent. <Link to="/templates">Templates</Link>
          </>
        }
      />

      {draft.templateKey && (
        <fieldset className="composer-fieldset" aria-describedby={variantsId}>
          <legend className="field-label">Versions</legend>
          {detail.isError && <p className="field-error">{getErrorMessage(detail.error)}</p>}
          <table className="table table-compact composer-variants">
            <thead>
              <tr>
                <th scope="col">Variant</th>
                <th scope="col">Version</th>
                <th scope="col">Share of recipients</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {draft.variants.map((row, index) => {
                const letter = String.fromCharCode(65 + index);
                return (
                  <tr key={row.id}>
                    <td className="cell-strong">{letter}</td>
                    <td>
                      <select
                        className="input input-sm select"
                        aria-label={`Version of variant ${letter}`}
                        value={row.version}
                        onChange={(event) => setVariant(row.id, { version: event.target.value })}
                      >
                        <option value="">Choose…</option>
                        {published.map((v) => (
                          <option key={v.version} value={String(v.version)}>
                            {`v${v.version}${v.version === detail.data?.template.currentVersion ? " (current)" : ""}`}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td>
                      <span className="composer-percent">
                        <input
                          className="input input-sm"
                          type="number"
                          min={1}
                          max={100}
                          step={1}
                          aria-label={`Share of variant ${letter} (%)`}
                          value={row.percent}
                          onChange={(event) => setVariant(row.id, { percent: event.target.value })}
                        />
                        %
                      </span>
                    </td>
                    <td className="cell-actions">
                      {draft.variants.length > 1 && (
                        <Button size="sm" variant="ghost" aria-label={`Remove variant ${letter}`} onClick={() => onChange({ variants: draft.variants.filter((v) => v.id !== row.id) })}>
                          Remove
                        </Button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <div className="composer-row">
            <Button size="sm" onClick={addVariant} disabled={draft.variants.length >= Math.min(MAX_VARIANTS, published.length)}>
              Add variant (A/B test)
            </Button>
            {draft.variants.length > 1 && <span className={total === 100 ? "muted" : "composer-warning"}>{`Shares add up to ${total} %`}</span>}
          </div>
          {errors.variants ? (
            <p className="field-error" id={variantsId}>
              {errors.variants}
            </p>
          ) : (
            <p className="field-hint" id={variantsId}>
              {draft.variants.length > 1
                ? "Each recipient gets one variant, chosen by a hash of their id: the same person always lands in the same one. The report compares them."
                : "Add a variant to test two or more published versions against each other."}
            </p>
          )}
        </fieldset>
      )}

      <fieldset className="composer-fieldset" aria-describedby={dataId}>
        <legend className="field-label">Data</legend>
        {draft.data.length > 0 && (
          <div className="composer-data-rows">
            {draft.data.map((row, index) => (
              <div className="composer-data-row" key={row.id}>
                <input
                  className="input input-sm input-mono"
                  aria-label={`Name of value ${index + 1}`}
                  placeholder="promo_code"
                  spellCheck={false}
                  value={row.key}
                  onChange={(event) => onChange({ data: draft.data.map((r) => (r.id === row.id ? { ...r, key: event.target.value } : r)) })}
                />
                <input
                  className="input input-sm"
                  aria-label={`Value ${index + 1}`}
                  placeholder="WINTER25"
                  value={row.value}
                  onChange={(event) => onChange({ data: draft.data.map((r) => (r.id === row.id ? { ...r, value: event.target.value } : r)) })}
                />
                <Button size="sm" variant="ghost" aria-label={`Remove value ${index + 1}`} onClick={() => onChange({ data: draft.data.filter((r) => r.id !== row.id) })}>
                  Remove
                </Button>
              </div>
            ))}
          </div>
        )}
        <div className="composer-row">
          <Button size="sm" onClick={() => onChange({ data: [...draft.data, { id: rowId(), key: "", value: "" }] })}>
            Add value
          </Button>
        </div>
        {errors.data ? (
          <p className="field-error" id={dataId}>
            {errors.data}
          </p>
        ) : (
          <p className="field-hint" id={dataId}>
            {"Optional: values every recipient's copy reads as {{ data.name }}, such as a promo code or an end date."}
          </p>
        )}
      </fieldset>
    </div>
  );
}
