import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { Button } from "../ui/button.tsx";
import { Field } from "../ui/field.tsx";
import "./pickers.css";

/**
 * A select of the workspace's categories (`categories.list`). With none yet it says so and links
 * to where an admin manages them.
 * A value that is no longer a category stays listed, marked, so a draft never loses it silently.
 */
export function CategorySelect({
  label,
  name,
  value,
  onChange,
  hint,
  error,
  noneLabel,
  className,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (key: string) => void;
  hint?: ReactNode;
  error?: string | null | undefined;
  /** Offers "no category" under this label; without it a category must be chosen. */
  noneLabel?: string;
  className?: string;
}) {
  const trpc = useTRPC();
  const categories = useQuery(trpc.categories.list.queryOptions());

  if (categories.isError) {
    return (
      <Field label={label} className={className} error={`Could not load the categories: ${getErrorMessage(categories.error)}`}>
        {(control) => (
          <Button {...control} onClick={() => categories.refetch()} pending={categories.isFetching}>
            Try again
          </Button>
        )}
      </Field>
    );
  }
  const items = categories.data?.categories ?? [];
  if (categories.isSuccess && items.length === 0 && !value) {
    return (
      <Field label={label} className={className} error={error}>
        {(control) => (
          <div className="picker-empty" role="status" {...control}>
            <p className="picker-empty-title">No categories yet</p>
            <p className="picker-empty-text">
              A category decides whose preferences, quiet hours and caps apply. An admin creates them in{" "}
              <Link to="/settings/categories">Settings → Categories</Link> (or through the REST API, <code className="code">PUT /v1/categories/:key</code>).
            </p>
          </div>
        )}
      </Field>
    );
  }
  const isKnown = value === "" || items.some((c) => c.key === value);
  return (
    <Field label={label} hint={hint} error={error} className={className}>
      {(control) => (
        <select className="input select" name={name} value={value} disabled={categories.isPending} onChange={(event) => onChange(event.target.value)} {...control}>
          {categories.isPending ? (
            <option value={value}>Loading categories…</option>
          ) : (
            <>
              {noneLabel !== undefined ? <option value="">{noneLabel}</option> : value === "" && <option value="">Choose a category</option>}
              {!isKnown && <option value={value}>{`${value} (no longer exists)`}</option>}
              {items.map((c) => (
                <option key={c.key} value={c.key}>
                  {`${c.label} (${c.key})${c.mandatory ? " · mandatory" : ""}`}
                </option>
              ))}
            </>
          )}
        </select>
      )}
    </Field>
  );
}
