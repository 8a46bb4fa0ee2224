import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { Button } from "../../components/ui/button.tsx";
import { Spinner } from "../../components/ui/spinner.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useDebouncedValue } from "../../lib/use-debounced-value.ts";

const maxQueryLength = 256;
const debounceMs = 150;

const matchedLabel = { id: "id", email: "email", phone: "phone" } as const;

/**
 * Finds a user as support types: a prefix of their id, email or phone. Enter (or "Show history")
 * opens the id exactly as typed, for ids the backend knows but search ranks lower.
 */
export function UserSearch({ initialQuery, onOpen }: { initialQuery: string; onOpen: (userId: string) => void }) {
  const trpc = useTRPC();
  const [query, setQuery] = useState(initialQuery);
  const [error, setError] = useState<string | null>(null);
  const settled = useDebouncedValue(query.trim(), debounceMs);
  const resultsId = useId();
  const inputId = useId();
  // The id of the user already open is not a search: results appear once support types something else.
  const searching = settled !== "" && settled !== initialQuery.trim();
  const results = useQuery({
    ...trpc.users.search.queryOptions(searching ? { query: settled, limit: 10 } : skipToken),
    placeholderData: keepPreviousData,
  });
  const items = results.data?.items ?? [];

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (query.trim() === "") {
      setError("Type a user id, an email address or a phone number, e.g. u-42.");
      return;
    }
    setError(null);
    onOpen(query);
  }

  return (
    <form className="user-search" onSubmit={submit} role="search" aria-label="Find a user" noValidate>
      <div className="form-inline">
        <div className="field grow">
          <label className="field-label" htmlFor={inputId}>
            User id, email or phone
          </label>
          <input
            id={inputId}
            className="input"
            name="user"
            placeholder="e.g. u-42, ada@ or +4915"
            autoComplete="off"
            spellCheck={false}
            maxLength={maxQueryLength}
            value={query}
            aria-controls={resultsId}
            aria-invalid={error ? true : undefined}
            onChange={(event) => {
              setQuery(event.target.value);
              setError(null);
            }}
          />
          {error && <p className="field-error">{error}</p>}
        </div>
        <Button type="submit" variant="primary" className="form-inline-submit">
          Show history
        </Button>
      </div>
      <div id={resultsId} aria-live="polite">
        {!searching ? null : results.isError ? (
          <p className="field-error" role="alert">
            {getErrorMessage(results.error)}
          </p>
        ) : results.isPending ? (
          <Spinner size="sm" label="Searching" />
        ) : items.length === 0 ? (
          <p className="muted">No user's id, email or phone starts with “{settled}”.</p>
        ) : (
          <ul className="search-results" aria-label="Matching users">
            {items.map((user) => (
              <li key={user.externalId}>
                <button type="button" className="search-result" onClick={() => onOpen(user.externalId)}>
                  <code className="code">{user.externalId}</code>
                  <span>{user.email ?? <span className="muted">no email</span>}</span>
                  <span>{user.phone ?? <span className="muted">no phone</span>}</span>
                  <span className="muted">matched on {matchedLabel[user.matchedOn]}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </form>
  );
}
