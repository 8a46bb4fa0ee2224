import { useState, type FormEvent } from "react";
import { Button } from "../../components/ui/button.tsx";
import { TextField } from "../../components/ui/field.tsx";

const maxUserIdLength = 256;

/** Asks for a user id; the id is the one your backend sends with its events, not an email. */
export function UserLookupForm({ initialUserId, onLookUp }: { initialUserId: string; onLookUp: (userId: string) => void }) {
  const [userId, setUserId] = useState(initialUserId);
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Ids are compared exactly, spaces included, so only an empty one is refused here.
    if (userId.trim() === "") {
      setError("Enter the user id your backend sends with its events, e.g. u-42.");
      return;
    }
    setError(null);
    onLookUp(userId);
  }

  return (
    <form className="form-inline" onSubmit={submit} role="search" aria-label="Look up a user" noValidate>
      <TextField
        label="User id"
        name="user"
        className="grow"
        placeholder="e.g. u-42"
        autoComplete="off"
        spellCheck={false}
        maxLength={maxUserIdLength}
        value={userId}
        onChange={(event) => {
          setUserId(event.target.value);
          setError(null);
        }}
        error={error}
      />
      <Button type="submit" variant="primary" className="form-inline-submit">
        Show history
      </Button>
    </form>
  );
}
